// What one call sends its caller, in the order its server sent it. Progress, logs and questions
// about a call reach the gateway by different routes (a progress callback, the log handler, the
// question handlers with their own hops), so each is put in the call's outbox: it goes out once
// everything the server sent before it has gone out. A question holds up what follows it only
// until it is sent, never until it is answered.

import type { Asker } from "./inflight.js";

const ignore = (): void => {};

/** One call's messages to its caller, sent in order. */
export class Outbox {
  #tail: Promise<unknown> = Promise.resolve();
  #finished = false;

  /** Sends after everything before it; what follows waits until `write`'s promise settles. */
  send(write: () => unknown): void {
    this.#tail = this.#tail.then(write).then(ignore, ignore);
  }

  /** Asks after everything before it was sent; resolves with the answer (what follows waits only for the asking). */
  ask<T>(ask: () => Promise<T>): Promise<T> {
    // The answer in a box: the tail waits for the question to be sent, not for its answer.
    const asked = this.#tail.then(() => ({ answer: ask() }));
    this.#tail = asked.then(ignore, ignore);
    return asked.then(({ answer }) => answer);
  }

  /** Settles once everything sent so far has gone out. */
  drained(): Promise<unknown> {
    return this.#tail;
  }

  /** The call has its result: nothing untied is handed to it from now on. Settles as {@link drained}. */
  finish(): Promise<unknown> {
    this.#finished = true;
    return this.#tail;
  }

  /** `asker` with its questions and logs sent through this outbox. */
  ordered(asker: Asker): Asker {
    return {
      caller: asker.caller,
      can: (method) => asker.can(method),
      ask: (method, params, signal) => this.ask(() => asker.ask(method, params, signal)),
      log: (server, message) => this.send(() => asker.log(server, message)),
      ended: () => this.#finished || asker.ended?.() === true,
    };
  }
}
