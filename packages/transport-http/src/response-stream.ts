import { NoResponseError, type AbortHandle, type RequestId } from "@mcp/jsonrpc";
import { deliverSseEvent, isTooLarge, type TransportCore } from "./core.js";
import { ACCEPT_SSE, delay, isEventStream } from "./defaults.js";
import type { ExchangeResponse } from "./exchange.js";
import { readSse, type SseProgress } from "./sse.js";

/**
 * Feeds one SSE body to the endpoint. When `done()` turns true (the awaited response arrived),
 * the stream gets a short moment to end by itself, so its connection can be reused, then is cut.
 */
export async function readStream(core: TransportCore, response: ExchangeResponse, progress: SseProgress, done: () => boolean): Promise<void> {
  let linger: ReturnType<typeof setTimeout> | undefined;
  const watch = (): void => {
    if (linger === undefined && done()) linger = setTimeout(() => response.cancel(), core.settings.streamLingerMs);
  };
  watch();
  try {
    await readSse(
      response,
      progress,
      (event) => {
        deliverSseEvent(core, event);
        watch();
      },
      core.settings.maxMessageBytes,
    );
  } catch (error) {
    response.cancel();
    throw error;
  } finally {
    clearTimeout(linger);
  }
}

/** `GET` + `Last-Event-ID`: the continuation of an interrupted stream. */
export async function resumeStream(core: TransportCore, progress: SseProgress, abort: AbortHandle): Promise<ExchangeResponse> {
  const headers = core.path.headers(core.session(), { accept: ACCEPT_SSE });
  if (progress.lastEventId !== undefined) headers["last-event-id"] = progress.lastEventId;
  const sentSession = core.session().sessionId;
  const response = await core.path.send({ method: "GET", url: core.url, headers, abort });
  if (!(response.status >= 200 && response.status < 300) || !isEventStream(response.header("content-type"))) {
    throw await core.path.error(response, sentSession);
  }
  return response;
}

/**
 * Reads a POST's SSE answer until the response for `requestId` arrives. A stream that breaks or
 * ends first is resumed with `GET` + `Last-Event-ID` after the server's `retry:` delay, when the
 * stream carried event ids; otherwise the request fails with {@link NoResponseError}. An event over
 * the size limit fails the request at once.
 */
export async function consumeResponseStream(core: TransportCore, first: ExchangeResponse, requestId: RequestId, abort: AbortHandle): Promise<void> {
  const progress: SseProgress = { lastEventId: undefined, retry: undefined };
  const pending = (): boolean => core.endpoint.pending.has(requestId);
  let response = first;
  for (let attempt = 0; ; attempt++) {
    let broken: unknown;
    try {
      await readStream(core, response, progress, () => !pending());
    } catch (error) {
      if (abort.aborted || !core.isOpen()) return;
      if (isTooLarge(error)) throw error;
      broken = error;
    }
    if (!pending()) return;
    // 2026-07-28 has no resumption: a broken stream loses the request (the caller re-issues it).
    if (progress.lastEventId === undefined || attempt >= core.settings.maxResumeAttempts || core.modern()) {
      throw new NoResponseError(requestId, broken === undefined ? {} : { cause: broken });
    }
    await delay(progress.retry ?? core.settings.defaultRetryMs, abort);
    response = await resumeStream(core, progress, abort);
  }
}
