// Who the raw 2026-07-28 calls of raw-call.ts come from, in the suites whose upstream asks its
// caller (sampling, elicitation, roots): callers known by API key, the answers a caller gives, a
// probe call round after round to its end, and each round's bytes for a byte-for-byte comparison.
import type { ProbeAnswer } from "mcp-test-utils";
import type { IncomingMessage } from "node:http";
import type { Caller } from "../src/index.js";
import { callRounds, type Question, type RawAnswer, type Rounds } from "./raw-call.js";

type Message = Record<string, unknown>;

/** The SDK v2 client's limit of `input_required` rounds for one call. */
export const CLIENT_ROUND_LIMIT = 10;

/** Every question a caller can be asked, declared in a call's envelope. */
export const ASKED_ALL = { sampling: {}, elicitation: {}, roots: {} };

/** Callers named `names`, each known by the API key `key-<name>-0123456789` (header `x-api-key`). */
export function apiKeyCallers(names: readonly string[]): {
  users: Map<string, Caller>;
  /** The API key of the caller named `name`. */
  keyOf(name: string): string;
  /** What `mountGateway` needs to know them: `authenticate` by the key, and the callers. */
  gateway: { authenticate(req: IncomingMessage): Caller | undefined; callers: Caller[] };
} {
  const users = new Map<string, Caller>(names.map((name) => [`key-${name}-0123456789`, { id: `u-${name}`, name }]));
  return {
    users,
    keyOf: (name) => [...users].find(([, caller]) => caller.name === name)![0],
    gateway: { authenticate: (req) => users.get(String(req.headers["x-api-key"])), callers: [...users.values()] },
  };
}

/** The caller's one answer to every question of its kind (the parity suites'). */
export function callerAnswer(question: { method: string }): unknown {
  if (question.method === "sampling/createMessage")
    return { role: "assistant", content: { type: "text", text: "sampled-by-caller" }, model: "m" };
  if (question.method === "elicitation/create")
    return { action: "accept", content: { answer: "elicited-by-caller", name: "Ann" } };
  return { roots: [{ uri: "file:///caller-root", name: "root" }] };
}

/** The secret a probe's question carries ("sample <secret>", "elicit <secret>"), or undefined (roots). */
export function secretOf(q: Question): string | undefined {
  if (q.method === "sampling/createMessage")
    return String((q.params["messages"] as { content: { text: string } }[])[0]!.content.text).replace(/^sample /, "");
  if (q.method === "elicitation/create") return String(q.params["message"]).replace(/^elicit /, "");
  return undefined;
}

/** How `caller` answers a probe's question: naming itself and the question's secret (roots: `file:///<caller>`). */
export function answerAs(caller: string): (q: Question) => unknown {
  return (q) => {
    const by = `by ${caller}:${secretOf(q)}`;
    return q.method === "sampling/createMessage"
      ? { role: "assistant", content: { type: "text", text: by }, model: "m" }
      : q.method === "elicitation/create"
        ? { action: "accept", content: { answer: by } }
        : { roots: [{ uri: `file:///${caller}` }] };
  };
}

/** One probe call of a caller known by API key: what it sends, and on which gateway. */
export interface ProbeCall {
  url: string;
  caller: string;
  key: string;
  /** The upstream's name on the gateway: the tool is `<server>__probe`. */
  server: string;
  secret: string;
  delayMs: number;
  clientInfo?: { name: string; version: string } | undefined;
  meta?: Message | undefined;
}

/** A `<server>__probe` call (one step), round after round as its caller answers (answerAs), to its end: the rounds and the probe's answer. */
export async function probeRounds(call: ProbeCall): Promise<Rounds & { answer: ProbeAnswer }> {
  const done = await callRounds(
    {
      url: call.url,
      headers: { "x-api-key": call.key },
      name: `${call.server}__probe`,
      args: { secret: call.secret, steps: 1, delayMs: call.delayMs },
      capabilities: ASKED_ALL,
      clientInfo: call.clientInfo,
      meta: call.meta,
    },
    answerAs(call.caller),
    CLIENT_ROUND_LIMIT,
  );
  const result = done.last["result"] as Message | undefined;
  if (!result) throw new Error(`${call.secret}: ${JSON.stringify(done.last)}`);
  return { ...done, answer: JSON.parse((result["content"] as { text: string }[])[0]!.text) as ProbeAnswer };
}

/** Every round of an exchange as `<status> <content type>` and its body, the `requestState` handed out (random) made `<state>`. */
export function roundsText(answers: readonly RawAnswer[]): string {
  return answers
    .map(({ status, contentType, text }) => {
      const state = /"requestState":"([^"]*)"/.exec(text)?.[1];
      return `${status} ${contentType}\n${state === undefined ? text : text.replaceAll(state, "<state>")}`;
    })
    .join("\n");
}
