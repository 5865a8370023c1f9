// The GET stream for server-initiated messages, resumed with `Last-Event-ID` when it ends or breaks.
import { toError } from "@mcp/jsonrpc";
import { delay, redactUrl } from "@mcp/jsonrpc/internal";
import type { ListenerContext, StreamContext } from "./context.js";
import { ACCEPT_SSE, isEventStream } from "./defaults.js";
import { isTooLarge } from "./deliver.js";
import type { ExchangeResponse } from "./exchange.js";
import { readStream, resumeStream } from "./response-stream.js";
import type { SseProgress } from "./event-stream.js";

/**
 * Opens the GET stream (Streamable HTTP): its response once it is an event stream, `undefined`
 * when the server answers `405` (it offers no such stream); any other answer throws its HTTP error.
 * `sentSession`: the session id the request carries, for telling an expired session.
 */
export async function openListener(
  core: Pick<StreamContext, "url" | "path" | "session" | "lifetimeAbort">,
  sentSession: string | undefined,
): Promise<ExchangeResponse | undefined> {
  const response = await core.path.send({
    method: "GET",
    url: core.url,
    headers: core.path.headers(core.session(), { accept: ACCEPT_SSE }),
    abort: core.lifetimeAbort,
  });
  if (response.status === 405) {
    response.cancel();
    return undefined;
  }
  if (!(response.status >= 200 && response.status < 300) || !isEventStream(response.header("content-type"))) {
    throw await core.path.error(response, sentSession);
  }
  return response;
}

/**
 * The GET stream for server-initiated messages, kept open until close(): resumed with
 * `Last-Event-ID` when it ends or breaks. A stream that brings nothing counts against it, so a
 * server that closes the GET at once is not polled forever; the listener then stops and says so.
 */
export async function runListener(core: ListenerContext, first: ExchangeResponse): Promise<void> {
  const progress: SseProgress = { lastEventId: undefined, retry: undefined };
  const signal = core.lifetime;
  const abort = core.lifetimeAbort;
  let response: ExchangeResponse | undefined = first;
  let failures = 0;
  while (core.isOpen()) {
    let failure: unknown;
    try {
      response ??= await resumeStream(core, progress, abort);
      const before = progress.events ?? 0;
      await readStream(core, response, progress, () => false);
      failures = (progress.events ?? 0) > before ? 0 : failures + 1;
    } catch (error) {
      if (signal.aborted) break;
      failures++;
      failure = error;
      // A dropped oversized message is news at once; a break is retried quietly.
      if (isTooLarge(error) && failures <= core.settings.maxResumeAttempts) core.endpoint.reportError(error);
    }
    if (failures > core.settings.maxResumeAttempts) {
      core.endpoint.reportError(
        failure !== undefined
          ? toError(failure)
          : new Error(
              `The GET event stream of ${redactUrl(core.url.href)} ended ${failures} times in a row without events; the listener stopped`,
            ),
      );
      break;
    }
    response = undefined;
    if (!core.isOpen()) break;
    try {
      await delay(progress.retry ?? core.settings.defaultRetryMs, abort);
    } catch {
      break;
    }
  }
}
