// Which caller a server→client request belongs to. An upstream server asks for sampling,
// elicitation or roots while it serves a request; the gateway forwards the question to the
// caller whose request to that server is in flight (the latest one when several are).

import type { LogMessage } from "@mcp/client";
import type { Caller } from "./policy.js";

/** How one in-flight request reaches back to its caller. */
export interface Asker {
  caller: Caller;
  /** Whether the caller declared the capability `method` needs. */
  can(method: string): boolean;
  /** Sends `method` (`sampling/createMessage`, `elicitation/create`, `roots/list`) to the caller and resolves with its answer. */
  ask(method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
  /** A `notifications/message` of the upstream server, for this caller. */
  log(server: string, message: LogMessage): void;
}

/** The askers of the requests in flight, per upstream server, latest last. */
export class InFlight {
  readonly #byServer = new Map<string, Asker[]>();
  #all: Asker[] = [];

  /** Registers `asker` while a request to `server` runs; call the returned function when it ends. */
  enter(server: string, asker: Asker): () => void {
    const list = this.#byServer.get(server) ?? [];
    list.push(asker);
    this.#byServer.set(server, list);
    this.#all.push(asker);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      list.splice(list.indexOf(asker), 1);
      if (list.length === 0) this.#byServer.delete(server);
      this.#all = this.#all.filter((a) => a !== asker);
    };
  }

  /** The latest asker of a request to `server`, or of any request when `server` is undefined. */
  latest(server?: string): Asker | undefined {
    const list = server === undefined ? this.#all : this.#byServer.get(server);
    return list?.[list.length - 1];
  }
}
