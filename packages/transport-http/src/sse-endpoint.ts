// HTTP+SSE (2024-11-05): the event stream, and its `endpoint` event that says where to POST.
import { HttpError, SessionExpiredError } from "@mcp/jsonrpc";
import { abortHandleOf, redactUrl } from "@mcp/jsonrpc/internal";
import type { SseEndpointContext } from "./context.js";
import { deliverSseEvent } from "./deliver.js";
import { ACCEPT_SSE, isEventStream } from "./defaults.js";
import { SseEndpointError } from "./errors.js";
import type { ExchangeResponse } from "./exchange.js";
import { readSse, type SseProgress } from "./event-stream.js";

/**
 * Whether an `initialize` POST's failure says "this is an HTTP+SSE server": `400`, `404` or `405`
 * (an expired session says something else). The transport then tries HTTP+SSE, once.
 */
export function meansHttpSse(error: unknown): boolean {
  return (
    HttpError.isInstance(error) && !SessionExpiredError.isInstance(error) && [400, 404, 405].includes(error.status)
  );
}

/**
 * HTTP+SSE (the 2024-11-05 transport): GET the event stream, wait for its `endpoint` event (same origin
 * only), then keep reading the stream: every response arrives on it. Resolves with the POST URL.
 * `onEnded` runs once when the stream ends or breaks after that (the session is then over).
 * Only the wait for `endpoint` is on a clock; the stream itself lives until close().
 */
export async function openSseEndpointStream(
  core: SseEndpointContext,
  onEnded: (error?: unknown) => void,
): Promise<URL> {
  const stream = new AbortController();
  const lifetime = core.lifetime;
  const onClose = (): void => stream.abort(lifetime.reason);
  lifetime.addEventListener("abort", onClose, { once: true });
  const timeout = core.settings.timeout;
  const timer = setTimeout(
    () =>
      stream.abort(new SseEndpointError(`No "endpoint" event from ${redactUrl(core.url.href)} within ${timeout}ms`)),
    timeout,
  );
  const fail = (error: unknown): never => {
    clearTimeout(timer);
    lifetime.removeEventListener("abort", onClose);
    stream.abort(error);
    throw error;
  };

  let response: ExchangeResponse;
  try {
    response = await core.path.send({
      method: "GET",
      url: core.url,
      headers: core.path.headers(
        { sessionId: undefined, protocolVersion: core.session().protocolVersion },
        { accept: ACCEPT_SSE },
      ),
      abort: abortHandleOf(stream.signal),
    });
  } catch (error) {
    return fail(stream.signal.aborted ? stream.signal.reason : error);
  }
  if (!(response.status >= 200 && response.status < 300) || !isEventStream(response.header("content-type"))) {
    return fail(await core.path.error(response, undefined));
  }

  const progress: SseProgress = { lastEventId: undefined, retry: undefined };
  let postUrl: URL | undefined;
  const gotEndpoint = new Promise<URL>((resolve, reject) => {
    const reading = readSse(
      response,
      progress,
      (data, type) => {
        if (type !== "endpoint") {
          deliverSseEvent(core.endpoint, data, type);
          return;
        }
        let target: URL;
        try {
          target = new URL(data.trim(), core.url);
        } catch (cause) {
          reject(new SseEndpointError(`Invalid "endpoint" event: ${JSON.stringify(data)}`, { cause }));
          return;
        }
        if (target.origin !== core.url.origin) {
          reject(
            new SseEndpointError(
              `The "endpoint" event points to another origin (${target.origin}); only ${core.url.origin} is allowed`,
            ),
          );
          return;
        }
        postUrl = target;
        resolve(target);
      },
      core.settings.maxMessageBytes,
    );
    reading.then(
      () => {
        reject(
          new SseEndpointError(`The event stream of ${redactUrl(core.url.href)} ended before its "endpoint" event`),
        );
        if (postUrl) onEnded();
      },
      (error: unknown) => {
        reject(stream.signal.aborted ? stream.signal.reason : error);
        if (postUrl) onEnded(error);
      },
    );
  });
  try {
    const target = await gotEndpoint;
    clearTimeout(timer);
    return target;
  } catch (error) {
    response.cancel();
    return fail(error);
  }
}
