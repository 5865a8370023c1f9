import { NoResponseError, type AbortHandle, type RequestId } from "@mcp/jsonrpc";
import { deliverSseEvent, isTooLarge, type TransportCore } from "./core.js";
import { ACCEPT_SSE, delay, isEventStream } from "./defaults.js";
import type { ExchangeResponse } from "./exchange.js";
import { readSse, type SseProgress } from "./event-stream.js";

/**
 * The streams whose awaited response arrived, each given `ms` to end by itself (so its connection
 * can be reused) before it is cut. One timer serves them all: armed by the first, it is not
 * cleared when they end (a burst would arm one per stream), only re-armed while some still wait,
 * and {@link Lingering.stop}ped on close. It never keeps the process alive.
 */
export class Lingering {
  readonly #ms: number;
  readonly #deadlines = new Map<ExchangeResponse, number>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(ms: number) {
    this.#ms = ms;
  }

  add(response: ExchangeResponse): void {
    this.#deadlines.set(response, performance.now() + this.#ms);
    this.#timer ??= setTimeout(this.#sweep, this.#ms).unref();
  }

  delete(response: ExchangeResponse): void {
    this.#deadlines.delete(response);
  }

  /** Cuts every waiting stream and clears the timer. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const response of this.#deadlines.keys()) response.cancel();
    this.#deadlines.clear();
  }

  readonly #sweep = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    // Deadlines are in insertion order: stop at the first one still to come.
    for (const [response, deadline] of this.#deadlines) {
      if (deadline > now) {
        this.#timer = setTimeout(this.#sweep, Math.ceil(deadline - now)).unref();
        return;
      }
      this.#deadlines.delete(response);
      response.cancel();
    }
  };
}

/**
 * Feeds one SSE body to the endpoint. When `done()` turns true (the awaited response arrived),
 * the stream gets a short moment to end by itself, then is cut (see {@link Lingering}).
 */
export function readStream(core: TransportCore, response: ExchangeResponse, progress: SseProgress, done: () => boolean): Promise<void> {
  return readStreamThen(core, response, progress, done, ended, rethrow);
}

const ended = (): void => undefined;
const rethrow = (error: unknown): never => {
  throw error;
};

/**
 * {@link readStream}, then `onEnd` when the body ended or `onBroken` when it broke (the stream
 * already cut): one promise for the read and what follows it.
 */
function readStreamThen<T>(core: TransportCore, response: ExchangeResponse, progress: SseProgress, done: () => boolean, onEnd: () => T | Promise<T>, onBroken: (error: unknown) => T | Promise<T>): Promise<T> {
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
      deliverSseEvent(core, data, type);
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
export function consumeResponseStream(core: TransportCore, first: ExchangeResponse, requestId: RequestId, abort: AbortHandle): Promise<void> {
  const progress: SseProgress = { lastEventId: undefined, retry: undefined };
  const answered = (): boolean => !core.endpoint.pending.has(requestId);
  // The usual case, the response on the first stream, takes no further promise than the read's.
  return readStreamThen(
    core,
    first,
    progress,
    answered,
    () => (answered() ? undefined : resume(core, progress, requestId, abort, answered, { failed: false, error: undefined })),
    (error: unknown) => resume(core, progress, requestId, abort, answered, { failed: true, error }),
  );
}

/** The stream ended or broke before the response: resume it, or fail the request. */
async function resume(core: TransportCore, progress: SseProgress, requestId: RequestId, abort: AbortHandle, answered: () => boolean, broken: { failed: boolean; error: unknown }): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    if (broken.failed) {
      if (abort.aborted || !core.isOpen()) return;
      if (isTooLarge(broken.error)) throw broken.error;
    }
    if (answered()) return;
    // 2026-07-28 has no resumption: a broken stream loses the request (the caller re-issues it).
    if (progress.lastEventId === undefined || attempt >= core.settings.maxResumeAttempts || core.modern()) {
      throw new NoResponseError(requestId, broken.failed ? { cause: broken.error } : {});
    }
    await delay(progress.retry ?? core.settings.defaultRetryMs, abort);
    const response = await resumeStream(core, progress, abort);
    broken = { failed: false, error: undefined };
    try {
      await readStream(core, response, progress, answered);
    } catch (error) {
      broken = { failed: true, error };
    }
  }
}
