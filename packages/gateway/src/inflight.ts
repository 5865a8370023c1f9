// Which caller a server→client message belongs to. Each request the gateway forwards upstream
// carries its Asker as the request's `relatedTo`; a question, log or roots request that arrives
// tied to that request (its SSE stream, its `input_required` rounds) comes back with it. A
// message nothing ties to a request belongs to the owner of the connection it came on, when it
// has one (a caller's own upstream connection, or the gateway's only caller), and to nobody else:
// to one of the owner's calls in flight that has no result yet — a question to the one handed the
// fewest untied questions so far (ties: the latest), so none collects its siblings' rounds; a log
// to the latest.

import type { LogMessage } from "@mcp/client";
import type { Caller } from "./policy.js";
import { CallEndedError } from "./rounds.js";

/** How one in-flight request reaches back to its caller. */
export interface Asker {
  caller: Caller;
  /** Whether the caller declared the capability `method` needs. */
  can(method: string): boolean;
  /** Sends `method` (`sampling/createMessage`, `elicitation/create`, `roots/list`) to the caller and resolves with its answer. */
  ask(method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
  /** A `notifications/message` of the upstream server, for this caller. */
  log(server: string, message: LogMessage): void;
  /** Whether the call has its result (what is untied goes to another call then); never, when absent. */
  ended?(): boolean;
}

/** A request in flight, and how many untied questions it was handed. */
interface Entry {
  asker: Asker;
  handed: number;
}

const live = (entry: Entry): boolean => entry.asker.ended?.() !== true;

/** The askers of the requests in flight, per upstream server and caller, latest last. */
export class InFlight {
  readonly #lists = new Map<string, Entry[]>();
  /** Per caller id: its requests in flight, to every server. */
  readonly #counts = new Map<string, number>();
  #total = 0;

  /** How many requests are in flight upstream now, of every caller. */
  get size(): number {
    return this.#total;
  }

  /** Registers `asker` while a request to `server` runs; call the returned function when it ends. */
  enter(server: string, asker: Asker): () => void {
    const key = `${asker.caller.id}\n${server}`;
    let list = this.#lists.get(key);
    if (!list) this.#lists.set(key, (list = []));
    const entry: Entry = { asker, handed: 0 };
    list.push(entry);
    const id = asker.caller.id;
    this.#counts.set(id, (this.#counts.get(id) ?? 0) + 1);
    this.#total++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#total--;
      list.splice(list.indexOf(entry), 1);
      if (list.length === 0 && this.#lists.get(key) === list) this.#lists.delete(key);
      const count = (this.#counts.get(id) ?? 1) - 1;
      if (count > 0) this.#counts.set(id, count);
      else this.#counts.delete(id);
    };
  }

  /** How many requests of `caller` are in flight (to any server; a 2026-07-28 call waiting for its caller's answer counts). */
  countOf(caller: Caller): number {
    return this.#counts.get(caller.id) ?? 0;
  }

  /**
   * The latest request of `caller` to `server` in flight without its result yet: where an untied
   * log on a connection only that caller uses goes (its requests all share that connection).
   */
  latestOf(server: string, caller: Caller): Asker | undefined {
    return this.#lists.get(`${caller.id}\n${server}`)?.findLast(live)?.asker;
  }

  /**
   * The request of `caller` to `server` in flight without its result yet that was handed the fewest
   * untied questions (ties: the latest), counted as handed one more: where an untied question goes.
   */
  untiedOf(server: string, caller: Caller): Asker | undefined {
    const list = this.#lists.get(`${caller.id}\n${server}`) ?? [];
    let chosen: Entry | undefined;
    for (let i = list.length - 1; i >= 0; i--)
      if (live(list[i]!) && (chosen === undefined || list[i]!.handed < chosen.handed)) chosen = list[i];
    if (chosen) chosen.handed++;
    return chosen?.asker;
  }
}

/**
 * Asks a server's request (a question, `roots/list`) of the call `next()` names: the call it is
 * tied to, or else one of the connection owner's calls in flight. An untied request handed to a call
 * that ended before it reached its caller (`CallEndedError`) goes to the call `next()` names then,
 * the owner's next one. Resolves with the answer, or undefined when no call is left to ask (none in
 * flight, or each one tried); rejects as the asked call did otherwise.
 */
export async function askCall(
  next: () => Asker | undefined,
  tied: boolean,
  ask: (asker: Asker) => Promise<unknown>,
): Promise<{ answer: unknown } | undefined> {
  const tried = new Set<Asker>();
  for (let asker = next(); asker !== undefined && !tried.has(asker); asker = next()) {
    tried.add(asker);
    try {
      return { answer: await ask(asker) };
    } catch (error) {
      if (tied || !(error instanceof CallEndedError)) throw error;
    }
  }
  return undefined;
}
