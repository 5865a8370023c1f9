// One tracked request's record for the pending-request tracker: a small entry per request, what few requests use kept apart.
import type { Progress, RequestId, RequestOptions } from "./types.js";

/**
 * What few requests use (a total budget, progress, a signal, a related value, a settle hook, a
 * timer of their own, a label): one object, made only for a request that has any of it, so a plain
 * request's entry stays small (a pipelined burst keeps thousands alive at once).
 */
export class EntryExtra {
  readonly maxTotalTimeout: number | undefined;
  readonly resetOnProgress: boolean;
  /** When it started (ms since epoch): read only for `maxTotalTimeout`, so taken only then. */
  readonly startedAt: number;
  readonly onProgress: ((progress: Progress) => void) | undefined;
  readonly relatedTo: unknown;
  readonly signal: AbortSignal | undefined;
  readonly onSettled: ((answered: boolean) => void) | undefined;
  timer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** Names the clock in the timeout message (`<label> timeout after <n>ms`). */
  timeoutLabel = "Request";

  constructor(options: RequestOptions, onSettled: ((answered: boolean) => void) | undefined) {
    const maxTotal = options.maxTotalTimeout;
    this.maxTotalTimeout = maxTotal !== undefined && Number.isFinite(maxTotal) ? maxTotal : undefined;
    this.resetOnProgress = options.resetTimeoutOnProgress === true;
    this.startedAt = this.maxTotalTimeout === undefined ? 0 : Date.now();
    this.onProgress = options.onProgress;
    this.relatedTo = options.relatedTo;
    this.signal = options.signal;
    this.onSettled = onSettled;
  }
}

/** Whether a request's options need an {@link EntryExtra} (any of what a plain request never sets). */
export function needsExtra(options: RequestOptions, onSettled: ((answered: boolean) => void) | undefined): boolean {
  return (
    onSettled !== undefined ||
    options.signal !== undefined ||
    options.onProgress !== undefined ||
    options.relatedTo !== undefined ||
    options.maxTotalTimeout !== undefined ||
    options.resetTimeoutOnProgress === true
  );
}

/**
 * One request in flight. A class, so every entry has one shape; what a plain request never uses
 * is in {@link EntryExtra}, made only when needed.
 */
export class Entry {
  readonly id: RequestId;
  readonly method: string;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly timeout: number;
  /** When the entry waits in a shared bucket (see `PendingRequests`): its deadline (ms since the tracker's epoch), its bucket and neighbours there. */
  deadline = 0;
  bucket: Bucket | undefined = undefined;
  previous: Entry | undefined = undefined;
  next: Entry | undefined = undefined;
  extra: EntryExtra | undefined;

  constructor(
    id: RequestId,
    method: string,
    resolve: (value: unknown) => void,
    reject: (error: unknown) => void,
    timeout: number,
    extra: EntryExtra | undefined,
  ) {
    this.id = id;
    this.method = method;
    this.resolve = resolve;
    this.reject = reject;
    this.timeout = timeout;
    this.extra = extra;
  }
}

/**
 * Requests with the same plain timeout, in deadline order (= insertion order), under one timer:
 * a list linked through the entries (`previous`/`next`), so adding and removing one is a few
 * pointer writes.
 */
export interface Bucket {
  readonly timeout: number;
  head: Entry | undefined;
  tail: Entry | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** The options of an {@link EntryExtra} made later, for a timer or a label alone. */
export const NO_OPTIONS: RequestOptions = {};
