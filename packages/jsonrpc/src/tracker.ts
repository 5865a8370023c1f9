import { RequestTimeoutError, checkTimeout, timeoutProblem } from "./errors.js";
import { RpcError } from "./rpc-error.js";
import type { JsonRpcResponse, Progress, RequestId, RequestOptions } from "./types.js";

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

interface Entry {
  readonly id: RequestId;
  readonly method: string;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly timeout: number;
  readonly maxTotalTimeout: number | undefined;
  readonly resetOnProgress: boolean;
  readonly startedAt: number;
  readonly onProgress: ((progress: Progress) => void) | undefined;
  readonly relatedTo: unknown;
  readonly signal: AbortSignal | undefined;
  readonly onSettled: ((answered: boolean) => void) | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** When the entry waits in a shared bucket (see #buckets): its deadline (ms since epoch). */
  deadline: number;
  bucket: Bucket | undefined;
  /** Names the clock in the timeout message (`<label> timeout after <n>ms`). */
  timeoutLabel: string;
}

/** Requests with the same plain timeout, in deadline order (= insertion order), under one timer. */
interface Bucket {
  readonly timeout: number;
  readonly entries: Set<Entry>;
  timer: ReturnType<typeof setTimeout> | undefined;
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
    return this.#entries.get(id)?.relatedTo;
  }

  /** Whether `id` is in flight. */
  has(id: RequestId): boolean {
    return this.#entries.has(id);
  }

  /** Starts tracking `id`. The promise settles exactly once; see the class notes for clean-up. */
  track<T = unknown>(id: RequestId, method: string, options: RequestOptions = {}, hooks: TrackHooks = {}): Promise<T> {
    if (this.#entries.has(id)) return Promise.reject(new Error(`Request id ${String(id)} is already in flight`));
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    for (const field of ["timeout", "maxTotalTimeout"] as const) {
      const problem = timeoutProblem(options[field], `RequestOptions.${field}`);
      if (problem !== undefined) return Promise.reject(new RangeError(problem));
    }

    return new Promise<T>((resolve, reject) => {
      const timeout = options.timeout ?? this.#defaultTimeout;
      const entry: Entry = {
        id,
        method,
        resolve: resolve as (value: unknown) => void,
        reject,
        timeout,
        maxTotalTimeout: options.maxTotalTimeout !== undefined && Number.isFinite(options.maxTotalTimeout) ? options.maxTotalTimeout : undefined,
        resetOnProgress: options.resetTimeoutOnProgress === true,
        startedAt: Date.now(),
        onProgress: options.onProgress,
        relatedTo: options.relatedTo,
        signal,
        onSettled: hooks.onSettled,
        timer: undefined,
        deadline: 0,
        bucket: undefined,
        timeoutLabel: "Request",
      };
      this.#entries.set(id, entry);
      this.#arm(id, entry, timeout);
      if (!this.#entries.has(id)) return; // a zero budget already ended it
      if (signal) this.#watch(signal, id);
    });
  }

  /**
   * Names the clock in this request's timeout message: `<label> timeout after <n>ms`
   * (`"Request"` by default; the HTTP transport uses `"SSE response"` once a response streams).
   */
  setTimeoutLabel(id: RequestId, label: string): void {
    const entry = this.#entries.get(id);
    if (entry) entry.timeoutLabel = label;
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
    if (!entry?.onProgress || typeof progress !== "number") return false;

    if (entry.resetOnProgress) {
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      entry.timer = undefined;
      this.#arm(progressToken, entry, entry.timeout);
      if (!this.#entries.has(progressToken)) return true; // the total budget ran out
    }
    const update: Progress = { progress };
    if (typeof total === "number") update.total = total;
    if (typeof message === "string") update.message = message;
    try {
      entry.onProgress(update);
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
    if (entry.maxTotalTimeout === undefined && !entry.resetOnProgress && timeout > 0 && timeout <= MAX_TIMER_DELAY) {
      this.#enqueue(entry, timeout);
      return;
    }
    let delay = timeout;
    let reported = timeout;
    if (entry.maxTotalTimeout !== undefined) {
      const left = entry.maxTotalTimeout - (Date.now() - entry.startedAt);
      if (left <= delay) {
        delay = left;
        reported = entry.maxTotalTimeout;
      }
    }
    if (delay <= 0) {
      this.#timeout(id, entry, reported);
      return;
    }
    if (delay > MAX_TIMER_DELAY) return;
    entry.timer = setTimeout(() => this.#timeout(id, entry, reported), delay);
  }

  #enqueue(entry: Entry, timeout: number): void {
    let bucket = this.#buckets.get(timeout);
    if (!bucket) {
      bucket = { timeout, entries: new Set(), timer: undefined };
      this.#buckets.set(timeout, bucket);
    }
    entry.deadline = Date.now() + timeout;
    entry.bucket = bucket;
    bucket.entries.add(entry);
    if (bucket.timer === undefined) this.#armBucket(bucket, timeout);
  }

  #armBucket(bucket: Bucket, delay: number): void {
    bucket.timer = setTimeout(() => {
      bucket.timer = undefined;
      const now = Date.now();
      for (const entry of bucket.entries) {
        if (entry.deadline > now) break;
        this.#timeout(entry.id, entry, bucket.timeout); // removes it from the bucket
      }
      const head = bucket.entries.values().next();
      if (!head.done && this.#buckets.get(bucket.timeout) === bucket) this.#armBucket(bucket, Math.max(1, head.value.deadline - now));
    }, delay);
  }

  #timeout(id: RequestId, entry: Entry, reported: number): void {
    const error = new RequestTimeoutError(reported, { label: entry.timeoutLabel, method: entry.method });
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
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    const bucket = entry.bucket;
    if (bucket) {
      bucket.entries.delete(entry);
      if (bucket.entries.size === 0) {
        if (bucket.timer !== undefined) clearTimeout(bucket.timer);
        this.#buckets.delete(bucket.timeout);
      }
    }
    if (entry.signal) this.#unwatch(entry.signal, id);
    entry.onSettled?.(answered);
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
