// Server→client requests for 2026-07-28 callers. That revision has no server→client channel: a
// request that needs the caller's input returns `input_required` with `requestState`, and the
// caller sends the request again with `inputResponses`. The upstream request keeps running
// meanwhile; its questions wait here, keyed by the state handed out, until the retry answers
// them (or the caller goes away: then the upstream request is cancelled).

import { randomUUID } from "node:crypto";
import { ProtocolError, type ServerContext } from "@modelcontextprotocol/server";

/** How long an upstream request waits for the caller's retry before it is cancelled. */
export const ROUND_TTL_MS = 5 * 60_000;

/**
 * A question given to a call that ended before the question reached its caller (a call to which an
 * untied question was handed): whoever asked may give it to another call of the same caller.
 */
export class CallEndedError extends Error {
  constructor() {
    super("the call this question was given to has ended");
    this.name = "CallEndedError";
  }
}

interface Question {
  key: string;
  method: string;
  params: unknown;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** One upstream request in progress for a 2026-07-28 caller, across its rounds. */
class PendingCall {
  readonly id = randomUUID();
  /** Who may come back with this call's state: the caller, endpoint, method and subject that opened it. */
  readonly binding: string;
  readonly controller = new AbortController();
  /** Questions not yet handed to the caller. */
  readonly fresh: Question[] = [];
  /** Questions handed out, awaiting the retry. */
  readonly asked = new Map<string, Question>();
  /** The round being served now: progress and logs go to it. */
  ctx: ServerContext | undefined;
  /** The arguments the call runs with: its first round's (a retry's own are not what runs). */
  args: unknown;
  outcome: Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> | undefined;
  wake: (() => void) | undefined;
  expiry: NodeJS.Timeout | undefined;
  /** The call has its result: no question reaches its caller any more. */
  ended = false;
  #next = 0;

  constructor(binding: string) {
    this.binding = binding;
  }

  question(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    if (this.ended) return Promise.reject(new CallEndedError());
    return new Promise((resolve, reject) => {
      const key = `${method.replace(/\W/g, "-")}-${++this.#next}`;
      const q: Question = { key, method, params, resolve, reject };
      signal.addEventListener(
        "abort",
        () => reject(signal.reason instanceof Error ? signal.reason : new Error("cancelled")),
        { once: true },
      );
      this.fresh.push(q);
      this.wake?.();
    });
  }

  /** The call's result is in: questions still waiting here (another call's, handed to this one) go back to their asker. */
  end(): void {
    this.ended = true;
    for (const q of [...this.fresh.splice(0), ...this.asked.values()]) q.reject(new CallEndedError());
    this.asked.clear();
  }
}

/** The pending upstream requests of 2026-07-28 callers. */
export class Rounds {
  readonly #pending = new Map<string, PendingCall>();

  /**
   * Serves one round of a request. The first round starts `start` (given a way to ask the caller,
   * the round's context getter and the upstream signal); a retry with the `requestState` handed
   * out answers the questions asked and waits for the next ones or the result. `binding` names
   * who asks for what: a retry must come with the binding of the round that got the state.
   * `noted.args` (the audit log's) is the first round's arguments on every round: what ran.
   */
  async serve(
    ctx: ServerContext,
    binding: string,
    start: (
      ask: (method: string, params: unknown, signal: AbortSignal) => Promise<unknown>,
      round: () => ServerContext,
      signal: AbortSignal,
    ) => Promise<unknown>,
    noted: { args?: unknown } = {},
  ): Promise<unknown> {
    const state: unknown = ctx.mcpReq.requestState();
    let call: PendingCall;
    if (typeof state === "string" && state !== "") {
      const found = this.#pending.get(state);
      if (!found)
        throw new ProtocolError(
          -32602,
          "Invalid or expired requestState (the gateway no longer holds this request; send it again without requestState)",
        );
      // Only the caller that was handed the state, on the same endpoint and for the same request,
      // may answer its questions: anyone else is refused and the call stays its owner's.
      if (found.binding !== binding)
        throw new ProtocolError(
          -32602,
          "This requestState belongs to another request (another caller, endpoint or name); send your request without it",
        );
      call = found;
      if (call.args !== undefined) noted.args = call.args;
      clearTimeout(call.expiry);
      const responses = ctx.mcpReq.inputResponses ?? {};
      for (const [key, q] of call.asked) {
        if (key in responses) q.resolve(responses[key]);
        else q.reject(new Error(`the caller did not answer input request "${key}"`));
      }
      call.asked.clear();
    } else {
      call = new PendingCall(binding);
      call.args = noted.args;
      const current = call;
      call.outcome = Promise.resolve()
        .then(() =>
          start(
            (m, p, s) => current.question(m, p, s),
            () => current.ctx ?? ctx,
            current.controller.signal,
          ),
        )
        .then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        );
    }
    call.ctx = ctx;
    this.#pending.delete(call.id);
    const onAbort = (): void => call.controller.abort(ctx.mcpReq.signal.reason);
    ctx.mcpReq.signal.addEventListener("abort", onAbort, { once: true });
    try {
      const next = await Promise.race([
        call.outcome!,
        new Promise<"asked">((resolve) => {
          call.wake = () => setImmediate(() => resolve("asked"));
          if (call.fresh.length > 0) call.wake();
        }),
      ]);
      call.wake = undefined;
      if (next !== "asked") {
        call.end();
        if (next.ok) return next.value;
        throw next.error;
      }
      const inputRequests: Record<string, { method: string; params: unknown }> = {};
      for (const q of call.fresh.splice(0)) {
        call.asked.set(q.key, q);
        inputRequests[q.key] = { method: q.method, params: q.params };
      }
      this.#pending.set(call.id, call);
      call.expiry = setTimeout(() => this.#expire(call), ROUND_TTL_MS);
      call.expiry.unref();
      return { resultType: "input_required", inputRequests, requestState: call.id };
    } finally {
      ctx.mcpReq.signal.removeEventListener("abort", onAbort);
    }
  }

  /** How many upstream requests wait for their caller's answer. */
  get size(): number {
    return this.#pending.size;
  }

  #expire(call: PendingCall): void {
    this.#pending.delete(call.id);
    for (const q of call.asked.values()) q.reject(new Error("the caller did not come back with its answer"));
    call.controller.abort(new Error("the caller did not come back within the round's time"));
  }

  /** Cancels every pending upstream request (the gateway is closing). */
  close(): void {
    for (const call of this.#pending.values()) {
      clearTimeout(call.expiry);
      call.controller.abort(new Error("the gateway closed"));
    }
    this.#pending.clear();
  }
}
