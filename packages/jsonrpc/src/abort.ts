// A cheap abort handle for hot paths, and a delay that an abort ends.
/**
 * An abort that costs next to nothing until it fires. A real `AbortSignal` is an EventTarget: making
 * one and adding and removing a listener costs microseconds and weighs on the garbage collector, which
 * a pipelined burst of thousands of requests feels. Transports that must end an exchange when its
 * request fails take an {@link AbortHandle} instead, and turn it into a real signal only where an API
 * needs one (`fetch`).
 */
export interface AbortHandle {
  /** True once aborted. */
  readonly aborted: boolean;
  /** Why it aborted (a standard `AbortError` when no reason was given); `undefined` before. */
  readonly reason: unknown;
  /** Runs `listener` once when it aborts (at once, synchronously, if it already has). */
  onAbort(listener: (reason: unknown) => void): void;
  /** Removes a listener added with {@link AbortHandle.onAbort}; a no-op for an unknown one. */
  offAbort(listener: (reason: unknown) => void): void;
  /** A real `AbortSignal` that aborts with this handle; made on first use. */
  readonly signal: AbortSignal;
}

function abortError(): DOMException {
  return new DOMException("This operation was aborted", "AbortError");
}

/** An {@link AbortHandle} you abort yourself, like an `AbortController`. */
export class AbortLatch implements AbortHandle {
  #aborted = false;
  #reason: unknown;
  // Most handles get one listener: an array only when a second arrives.
  #listener: ((reason: unknown) => void) | undefined = undefined;
  #more: ((reason: unknown) => void)[] | undefined = undefined;
  #controller: AbortController | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts with `reason` (default: an `AbortError`), running every listener once. Later calls do nothing. */
  abort(reason: unknown = abortError()): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const first = this.#listener;
    const more = this.#more;
    this.#listener = undefined;
    this.#more = undefined;
    first?.(reason);
    if (more) for (const listener of more) listener(reason);
  }

  onAbort(listener: (reason: unknown) => void): void {
    if (this.#aborted) {
      listener(this.#reason);
      return;
    }
    if (this.#listener === undefined) this.#listener = listener;
    else (this.#more ??= []).push(listener);
  }

  offAbort(listener: (reason: unknown) => void): void {
    if (this.#listener === listener) {
      this.#listener = this.#more?.shift();
      return;
    }
    const at = this.#more?.indexOf(listener) ?? -1;
    if (at !== -1) this.#more!.splice(at, 1);
  }
}

/** An {@link AbortHandle} that follows a real `AbortSignal` (for long-lived or caller-given signals). */
export function abortHandleOf(signal: AbortSignal): AbortHandle {
  const wrappers = new Map<(reason: unknown) => void, () => void>();
  const reasonOf = (): unknown => {
    const reason: unknown = signal.reason;
    return reason ?? abortError();
  };
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason(): unknown {
      return signal.aborted ? reasonOf() : undefined;
    },
    signal,
    onAbort(listener) {
      if (signal.aborted) {
        listener(reasonOf());
        return;
      }
      const wrapper = (): void => {
        wrappers.delete(listener);
        listener(reasonOf());
      };
      wrappers.set(listener, wrapper);
      signal.addEventListener("abort", wrapper, { once: true });
    },
    offAbort(listener) {
      const wrapper = wrappers.get(listener);
      if (wrapper === undefined) return;
      wrappers.delete(listener);
      signal.removeEventListener("abort", wrapper);
    },
  };
}

/**
 * Waits `ms`, or rejects with the abort's reason as soon as it aborts (at once if it already has).
 * Leaves no timer or listener behind either way.
 */
export function delay(ms: number, abort?: AbortHandle): Promise<void> {
  return new Promise((resolve, reject) => {
    if (abort?.aborted) {
      reject(abort.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abort!.reason);
    };
    const timer = setTimeout(() => {
      abort?.offAbort(onAbort);
      resolve();
    }, ms);
    abort?.onAbort(onAbort);
  });
}
