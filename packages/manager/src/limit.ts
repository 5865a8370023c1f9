// Concurrency (a semaphore) and the reconnection backoff policy.
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

export const DEFAULT_RECONNECT: ReconnectPolicy = { initialDelayMs: 500, maxDelayMs: 30_000, factor: 2, jitter: 0.25, maxAttempts: 5, windowMs: 60_000 };

/** The delay before attempt `n` (1-based): exponential, capped, with jitter. */
export function backoffDelay(policy: ReconnectPolicy, attempt: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** Math.max(0, attempt - 1));
  return Math.max(0, Math.round(base * (1 + policy.jitter * (random() * 2 - 1))));
}
