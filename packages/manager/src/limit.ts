// Concurrency (a semaphore) and the reconnection backoff policy.
import { setMaxListeners } from "node:events";

/** At most `size` tasks at a time; the rest wait their turn in order. */
export class Semaphore {
  #free: number;
  readonly #queue: (() => void)[] = [];

  constructor(size: number) {
    this.#free = Math.max(1, Math.floor(size));
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#queue.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.#queue.shift();
      if (next) next();
      else this.#free++;
    }
  }
}

/** How a dead server is brought back. */
export interface ReconnectPolicy {
  /** Delay before the first attempt, in ms. Default 500. */
  initialDelayMs: number;
  /** Longest delay between attempts, in ms. Default 30000. */
  maxDelayMs: number;
  /** Each delay is the previous one times this. Default 2. */
  factor: number;
  /** Each delay varies by up to ± this fraction, so many clients do not retry in step. Default 0.25. */
  jitter: number;
  /** More failures than this within `windowMs` and the server is marked `failed`. Default 5. */
  maxAttempts: number;
  /** The window failures are counted in, in ms. Default 60000. */
  windowMs: number;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: 0.25,
  maxAttempts: 5,
  windowMs: 60_000,
};

/** The delay before attempt `n` (1-based): exponential, capped, with jitter. */
export function backoffDelay(policy: ReconnectPolicy, attempt: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** Math.max(0, attempt - 1));
  return Math.max(0, Math.round(base * (1 + policy.jitter * (random() * 2 - 1))));
}

/**
 * Runs `task` with one listener on the caller's `signal` for its many waits: it gets a signal of
 * our own that aborts with the caller's (ours, so many listeners on it are expected, not a leak:
 * twelve servers waited for would otherwise warn `MaxListenersExceededWarning`).
 */
export async function fanOut<T>(
  signal: AbortSignal | undefined,
  waits: number,
  task: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!signal) return task(undefined);
  const own = new AbortController();
  setMaxListeners(Math.max(10, waits + 1), own.signal);
  const forward = (): void => own.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener("abort", forward, { once: true });
  try {
    return await task(own.signal);
  } finally {
    signal.removeEventListener("abort", forward);
  }
}
