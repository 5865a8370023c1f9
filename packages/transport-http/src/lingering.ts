// Streams whose answer has arrived, each given a moment to end by itself before it is cut.
import type { ExchangeResponse } from "./exchange.js";

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
