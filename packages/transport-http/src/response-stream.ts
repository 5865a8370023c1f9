// Reading a POST's SSE answer, and resuming the stream with `Last-Event-ID` after a break.
import { NetworkError, NoResponseError, type AbortHandle, type RequestId } from "@mcp/jsonrpc";
import { delay } from "@mcp/jsonrpc/internal";
import type { ReadContext, ResponseStreamContext, ResumeContext } from "./context.js";
import { deliverSseEvent, isTooLarge } from "./deliver.js";
import { ACCEPT_SSE, isEventStream } from "./defaults.js";
import { lastEventIdHeader } from "./headers.js";
import type { ExchangeResponse } from "./exchange.js";
import { readSse, type SseProgress } from "./event-stream.js";

/**
 * Feeds one SSE body to the endpoint. When `done()` turns true (the awaited response arrived),
 * the stream gets a short moment to end by itself, then is cut (see {@link Lingering}).
 * `related`: the request the stream answers (a POST's, resumed or not), whose messages it ties.
 */
export function readStream(
  core: ReadContext,
  response: ExchangeResponse,
  progress: SseProgress,
  done: () => boolean,
  related?: RequestId,
): Promise<void> {
  return readStreamThen(core, response, progress, done, ended, rethrow, related);
}

const ended = (): void => undefined;
const rethrow = (error: unknown): never => {
  throw error;
};

/**
 * {@link readStream}, then `onEnd` when the body ended or `onBroken` when it broke (the stream
 * already cut): one promise for the read and what follows it.
 */
function readStreamThen<T>(
  core: ReadContext,
  response: ExchangeResponse,
  progress: SseProgress,
  done: () => boolean,
  onEnd: () => T | Promise<T>,
  onBroken: (error: unknown) => T | Promise<T>,
  related?: RequestId,
): Promise<T> {
  let lingering = false;
  const watch = (): void => {
    if (!lingering && done()) {
      lingering = true;
      core.lingering.add(response);
    }
  };
  watch();
  return readSse(
    response,
    progress,
    (data, type) => {
      deliverSseEvent(core.endpoint, data, type, related);
      watch();
    },
    core.settings.maxMessageBytes,
  ).then(
    () => {
      if (lingering) core.lingering.delete(response);
      return onEnd();
    },
    (error: unknown) => {
      if (lingering) core.lingering.delete(response);
      response.cancel();
      return onBroken(error);
    },
  );
}

/** `GET` + `Last-Event-ID`: the continuation of an interrupted stream. */
export async function resumeStream(
  core: ResumeContext,
  progress: SseProgress,
  abort: AbortHandle,
): Promise<ExchangeResponse> {
  const headers = core.path.headers(core.session(), { accept: ACCEPT_SSE });
  // An id no header can carry is left out: the GET listener then opens a fresh stream.
  const lastEventId = progress.lastEventId === undefined ? undefined : lastEventIdHeader(progress.lastEventId);
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
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
export function consumeResponseStream(
  core: ResponseStreamContext,
  first: ExchangeResponse,
  requestId: RequestId,
  abort: AbortHandle,
): Promise<void> {
  const progress: SseProgress = { lastEventId: undefined, retry: undefined };
  const answered = (): boolean => !core.endpoint.pending.has(requestId);
  // The usual case, the response on the first stream, takes no further promise than the read's.
  return readStreamThen(
    core,
    first,
    progress,
    answered,
    () =>
      answered() ? undefined : resume(core, progress, requestId, abort, answered, { failed: false, error: undefined }),
    (error: unknown) => resume(core, progress, requestId, abort, answered, { failed: true, error }),
    requestId,
  );
}

/**
 * The request's error when the GET that resumes its answer fails (refused, reset, `404` or `400`
 * for a session a restarted server forgot): the server read the request and began answering it,
 * so it may have run. The resume's own error is the `cause`; on its own it would say the request
 * never reached the server (a GET's failure is not a call's), and a `SessionExpiredError` or a
 * refused connection would invite the layer above to send it again.
 */
function resumeFailed(core: ResponseStreamContext, error: unknown): NetworkError {
  return new NetworkError(core.url.href, error, { serverName: core.path.serverName, mayHaveRun: true });
}

/** The stream ended or broke before the response: resume it, or fail the request. */
async function resume(
  core: ResponseStreamContext,
  progress: SseProgress,
  requestId: RequestId,
  abort: AbortHandle,
  answered: () => boolean,
  broken: { failed: boolean; error: unknown },
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (broken.failed) {
      if (abort.aborted || !core.isOpen()) return;
      if (isTooLarge(broken.error)) throw broken.error;
    }
    if (answered()) return;
    // 2026-07-28 has no resumption: a broken stream loses the request (the caller re-issues it).
    if (progress.lastEventId === undefined || attempt >= core.settings.maxResumeAttempts || core.stateless()) {
      throw new NoResponseError(requestId, broken.failed ? { cause: broken.error } : {});
    }
    if (lastEventIdHeader(progress.lastEventId) === undefined) {
      const why = `the stream's last event id ${JSON.stringify(progress.lastEventId)} cannot be sent back in a Last-Event-ID header (a control character, or whitespace at an end), so the stream cannot be resumed`;
      throw new NoResponseError(requestId, { cause: new Error(why, broken.failed ? { cause: broken.error } : {}) });
    }
    await delay(progress.retry ?? core.settings.defaultRetryMs, abort);
    const response = await resumeStream(core, progress, abort).catch((error: unknown) => {
      throw abort.aborted || !core.isOpen() ? error : resumeFailed(core, error);
    });
    broken = { failed: false, error: undefined };
    try {
      await readStream(core, response, progress, answered, requestId);
    } catch (error) {
      broken = { failed: true, error };
    }
  }
}
