// Pending requests: timeouts, aborts, progress, and the first answer wins.
import { RequestTimeoutError, checkTimeout, isValidTimeout, timeoutProblem } from "./errors.js";
import { RpcError } from "./rpc-error.js";
import { Entry, EntryExtra, NO_OPTIONS, needsExtra, type Bucket } from "./tracker-entry.js";
import type { JsonRpcResponse, Progress, RequestId, RequestOptions } from "./types.js";

const TIMEOUT_FIELDS = ["timeout", "maxTotalTimeout"] as const;

/** Default per-request timeout in milliseconds when neither the call nor the transport sets one. */
export const DEFAULT_REQUEST_TIMEOUT = 30_000;

/** Options of {@link PendingRequests}. */
export interface PendingRequestsOptions {
  /** Timeout for requests that do not set their own. Default {@link DEFAULT_REQUEST_TIMEOUT}; `Infinity` means none. */
  defaultTimeout?: number | undefined;
  /**
   * Called once when a request is aborted by its caller or times out, so the transport can
   * send `notifications/cancelled`. Never called for a request that completed or failed otherwise.
   */
  onCancel?: ((requestId: RequestId, reason: string, method: string) => void) | undefined;
}

/** Extra hooks for one tracked request. */
export interface TrackHooks {
  /**
   * Runs once when the request settles. `answered` is true when the peer's response settled it
   * (a result or a JSON-RPC error: the exchange is complete), false for a timeout, an abort, a
   * close or a send failure (the exchange may still be running and can be ended).
   */
  onSettled?: ((answered: boolean) => void) | undefined;
}

/** Longest delay `setTimeout` honours; anything longer (or `Infinity`) means "no clock". */
const MAX_TIMER_DELAY = 2_147_483_647;

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  if (typeof reason === "string") return reason;
  return "Request aborted";
}

/**
 * The one pending-request tracker every transport shares: id → resolve/reject, the timeout clock,
 * the caller's AbortSignal, progress routing, and the cancellation hook.
 *
 * Every settled request leaves nothing behind: its map entry, its timer and its abort listener
 * are removed at once, so a long-lived shared `AbortSignal` does not accumulate listeners.
 */
export class PendingRequests {
  readonly #entries = new Map<RequestId, Entry>();
  /**
   * One abort listener per signal, however many requests share it: adding and removing a listener
   * per request costs O(n) each on an EventTarget, which turns 100,000 requests into minutes.
   */
  readonly #signals = new Map<AbortSignal, { ids: Set<RequestId>; listener: () => void }>();
  /**
   * Plain timeouts share one timer per duration instead of one per request: their deadlines
   * arrive in insertion order, so a Set per duration is a queue with O(1) removal. A pipelined
   * burst then costs no timer objects at all, and a settled request is gone from the Set at once.
   */
  readonly #buckets = new Map<number, Bucket>();
  readonly #defaultTimeout: number;
  readonly #onCancel: PendingRequestsOptions["onCancel"];
  #counter = 0;
  /**
   * Deadlines count from here: small integers (no number boxed per request), not ms since 1970.
   */
  readonly #epoch = Date.now();
  /** What the shared executor below was handed, read at once by {@link track}. */
  #nextResolve: ((value: unknown) => void) | undefined = undefined;
  #nextReject: ((error: unknown) => void) | undefined = undefined;
  /** One executor for every request's promise: no closure made per request. */
  readonly #capture = (resolve: (value: unknown) => void, reject: (error: unknown) => void): void => {
    this.#nextResolve = resolve;
    this.#nextReject = reject;
  };

  constructor(options: PendingRequestsOptions = {}) {
    checkTimeout(options.defaultTimeout, "timeout");
    this.#defaultTimeout = options.defaultTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    this.#onCancel = options.onCancel;
  }

  /** A fresh id: a counter, unique for the life of this tracker (no random collisions). */
  nextId(): number {
    this.#counter += 1;
    return this.#counter;
  }

  /** Number of requests in flight. */
  get size(): number {
    return this.#entries.size;
  }

  /** The {@link RequestOptions.relatedTo} of request `id`, while it is in flight. */
  relatedTo(id: RequestId): unknown {
    return this.#entries.get(id)?.extra?.relatedTo;
  }

  /** Whether `id` is in flight. */
  has(id: RequestId): boolean {
    return this.#entries.has(id);
  }

  /** Starts tracking `id`. The promise settles exactly once; see the class notes for clean-up. */
  track<T = unknown>(id: RequestId, method: string, options: RequestOptions = {}, hooks?: TrackHooks): Promise<T> {
    if (this.#entries.has(id)) return Promise.reject(new Error(`Request id ${String(id)} is already in flight`));
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (options.timeout !== undefined || options.maxTotalTimeout !== undefined) {
      for (const field of TIMEOUT_FIELDS) {
        // The field's name is put into a message only when the value is bad (a call per request otherwise).
        const value = options[field];
        if (value !== undefined && !isValidTimeout(value))
          return Promise.reject(new RangeError(timeoutProblem(value, `RequestOptions.${field}`)));
      }
    }
    const timeout = options.timeout ?? this.#defaultTimeout;
    const onSettled = hooks?.onSettled;
    const promise = new Promise(this.#capture) as Promise<T>;
    const entry = new Entry(
      id,
      method,
      this.#nextResolve!,
      this.#nextReject!,
      timeout,
      needsExtra(options, onSettled) ? new EntryExtra(options, onSettled) : undefined,
    );
    this.#nextResolve = undefined;
    this.#nextReject = undefined;
    this.#entries.set(id, entry);
    this.#arm(id, entry, timeout);
    if (signal && this.#entries.has(id)) this.#watch(signal, id); // (a zero budget already ended it)
    return promise;
  }

  /**
   * Names the clock in this request's timeout message: `<label> timeout after <n>ms`
   * (`"Request"` by default; the HTTP transport uses `"SSE response"` once a response streams).
   */
  setTimeoutLabel(id: RequestId, label: string): void {
    const entry = this.#entries.get(id);
    if (entry) (entry.extra ??= new EntryExtra(NO_OPTIONS, undefined)).timeoutLabel = label;
  }

  /** Resolves `id` with `value`. Returns false if it was not in flight. */
  resolve(id: RequestId, value: unknown): boolean {
    const entry = this.#take(id, true);
    if (!entry) return false;
    entry.resolve(value);
    return true;
  }

  /** Rejects `id` with `error` without telling the server. Returns false if it was not in flight. */
  reject(id: RequestId, error: unknown): boolean {
    const entry = this.#take(id, false);
    if (!entry) return false;
    entry.reject(error);
    return true;
  }

  /** Settles the request a response belongs to: `result` resolves, `error` rejects with {@link RpcError}. */
  handleResponse(response: JsonRpcResponse): boolean {
    if (response.id === null) return false;
    const entry = this.#take(response.id, true);
    if (!entry) return false;
    if ("error" in response) entry.reject(RpcError.fromError(response.error));
    else entry.resolve(response.result);
    return true;
  }

  /**
   * Routes `notifications/progress` params to the request whose progress token they name.
   * Returns false when no live request asked for progress with that token.
   */
  handleProgress(params: unknown): boolean {
    if (typeof params !== "object" || params === null) return false;
    const { progressToken, progress, total, message } = params as Record<string, unknown>;
    if (typeof progressToken !== "string" && typeof progressToken !== "number") return false;
    const entry = this.#entries.get(progressToken);
    const extra = entry?.extra;
    if (!entry || !extra?.onProgress || typeof progress !== "number") return false;

    if (extra.resetOnProgress) {
      if (extra.timer !== undefined) clearTimeout(extra.timer);
      extra.timer = undefined;
      this.#arm(progressToken, entry, entry.timeout);
      if (!this.#entries.has(progressToken)) return true; // the total budget ran out
    }
    const update: Progress = { progress };
    if (typeof total === "number") update.total = total;
    if (typeof message === "string") update.message = message;
    try {
      extra.onProgress(update);
    } catch {
      // A throwing progress callback must not break message routing for everyone else.
    }
    return true;
  }

  /** Rejects every in-flight request with `error` (used on close). Does not send cancellations. */
  rejectAll(error: unknown): void {
    for (const id of [...this.#entries.keys()]) this.reject(id, error);
  }

  #arm(id: RequestId, entry: Entry, timeout: number): void {
    const extra = entry.extra;
    const maxTotalTimeout = extra?.maxTotalTimeout;
    if (maxTotalTimeout === undefined && extra?.resetOnProgress !== true && timeout > 0 && timeout <= MAX_TIMER_DELAY) {
      this.#enqueue(entry, timeout);
      return;
    }
    let delay = timeout;
    let reported = timeout;
    if (maxTotalTimeout !== undefined) {
      const left = maxTotalTimeout - (Date.now() - extra!.startedAt);
      if (left <= delay) {
        delay = left;
        reported = maxTotalTimeout;
      }
    }
    if (delay <= 0) {
      this.#timeout(id, entry, reported);
      return;
    }
    if (delay > MAX_TIMER_DELAY) return;
    (entry.extra ??= new EntryExtra(NO_OPTIONS, undefined)).timer = setTimeout(
      () => this.#timeout(id, entry, reported),
      delay,
    );
  }

  #enqueue(entry: Entry, timeout: number): void {
    let bucket = this.#buckets.get(timeout);
    if (!bucket) {
      bucket = { timeout, head: undefined, tail: undefined, timer: undefined };
      this.#buckets.set(timeout, bucket);
    }
    entry.deadline = Date.now() - this.#epoch + timeout;
    entry.bucket = bucket;
    const tail = bucket.tail;
    entry.previous = tail;
    if (tail) tail.next = entry;
    else bucket.head = entry;
    bucket.tail = entry;
    if (bucket.timer === undefined) this.#armBucket(bucket, timeout);
  }

  #armBucket(bucket: Bucket, delay: number): void {
    bucket.timer = setTimeout(() => {
      bucket.timer = undefined;
      const now = Date.now() - this.#epoch;
      // Each timeout takes its entry out of the bucket: the head moves on.
      for (let entry = bucket.head; entry !== undefined && entry.deadline <= now; entry = bucket.head)
        this.#timeout(entry.id, entry, bucket.timeout);
      // A hook (onCancel, onSettled) that tracked a request here meanwhile armed a timer: one timer per bucket.
      if (bucket.timer !== undefined) clearTimeout(bucket.timer);
      bucket.timer = undefined;
      const head = bucket.head;
      if (head !== undefined && this.#buckets.get(bucket.timeout) === bucket)
        this.#armBucket(bucket, Math.max(1, head.deadline - now));
    }, delay);
  }

  /** Takes `entry` out of its bucket; an emptied bucket goes, with its timer. */
  #dequeue(entry: Entry, bucket: Bucket): void {
    const { previous, next } = entry;
    if (previous) previous.next = next;
    else bucket.head = next;
    if (next) next.previous = previous;
    else bucket.tail = previous;
    entry.previous = undefined;
    entry.next = undefined;
    entry.bucket = undefined;
    if (bucket.head === undefined) {
      if (bucket.timer !== undefined) clearTimeout(bucket.timer);
      bucket.timer = undefined;
      if (this.#buckets.get(bucket.timeout) === bucket) this.#buckets.delete(bucket.timeout);
    }
  }

  #timeout(id: RequestId, entry: Entry, reported: number): void {
    const label = entry.extra?.timeoutLabel ?? "Request";
    const error = new RequestTimeoutError(reported, { label, method: entry.method });
    this.#cancel(id, error, error.message);
  }

  #cancel(id: RequestId, error: unknown, reason: string): void {
    const entry = this.#take(id, false);
    if (!entry) return;
    entry.reject(error);
    try {
      this.#onCancel?.(id, reason, entry.method);
    } catch {
      // Telling the server is best effort; the caller already has its answer.
    }
  }

  #take(id: RequestId, answered: boolean): Entry | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    this.#entries.delete(id);
    const bucket = entry.bucket;
    if (bucket) this.#dequeue(entry, bucket);
    const extra = entry.extra;
    if (extra) {
      if (extra.timer !== undefined) clearTimeout(extra.timer);
      if (extra.signal) this.#unwatch(extra.signal, id);
      extra.onSettled?.(answered);
    }
    return entry;
  }

  #watch(signal: AbortSignal, id: RequestId): void {
    let group = this.#signals.get(signal);
    if (!group) {
      const ids = new Set<RequestId>();
      const listener = (): void => {
        const reason: unknown = signal.reason;
        for (const each of [...ids]) this.#cancel(each, reason, reasonText(reason));
      };
      group = { ids, listener };
      this.#signals.set(signal, group);
      signal.addEventListener("abort", listener, { once: true });
    }
    group.ids.add(id);
  }

  #unwatch(signal: AbortSignal, id: RequestId): void {
    const group = this.#signals.get(signal);
    if (!group) return;
    group.ids.delete(id);
    if (group.ids.size === 0) {
      this.#signals.delete(signal);
      signal.removeEventListener("abort", group.listener);
    }
  }
}
