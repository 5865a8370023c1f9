// Several 2026-07-28 callers that can be asked (sampling, elicitation, roots declared in each
// request's envelope) calling at once through one gateway, on its fast path (unless the run turns
// it off: then the same property holds on the SDK's path). Their questions come back as
// `input_required` rounds, which each raw caller answers and retries. Whatever calls and
// interleaving fast-check picks, every question reaches only its own call's caller: that very call
// when the server ties the question to it (the probe over Streamable HTTP), one of its caller's
// calls when it cannot (the probe over stdio, where each caller has a process of its own).
import fc from "fast-check";
import { buildProbe1x, probeStdioEntry, startSdkServer, type ProbeAnswer, type SdkServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Caller } from "../src/index.js";
import { mountGateway, type Mounted } from "./app.js";
import type * as Fast from "../src/fast.js";

/** How many calls the fast path served. */
const served = vi.hoisted(() => ({ calls: 0 }));
vi.mock("../src/fast.js", async (importOriginal) => {
  const original = await importOriginal<typeof Fast>();
  return {
    ...original,
    serveFast: (...args: Parameters<typeof original.serveFast>): ReturnType<typeof original.serveFast> => {
      served.calls++;
      return original.serveFast(...args);
    },
  };
});

const USERS = new Map<string, Caller>(
  ["ann", "ben", "cyd"].map((name) => [`key-${name}-0123456789`, { id: `u-${name}`, name }]),
);
const KEYS = [...USERS.keys()];

type Message = Record<string, unknown>;
type Question = { method: string; params: Message };

describe("2026-07-28 callers asked at once: each question reaches only its own call's caller", () => {
  let probe: SdkServer;
  let mounted: Mounted;

  beforeAll(async () => {
    probe = await startSdkServer({ build: buildProbe1x });
    mounted = await mountGateway(
      {
        http: { type: "http", url: probe.url },
        stdio: { command: process.execPath, args: [probeStdioEntry, "1x"] },
      },
      { authenticate: (req) => USERS.get(String(req.headers["x-api-key"])), callers: [...USERS.values()] },
    );
  });

  afterAll(async () => {
    await mounted?.stop();
    await probe?.stop();
  });

  /** The secret a question carries ("sample <secret>", "elicit <secret>"), or undefined (roots). */
  const secretOf = (q: Question): string | undefined => {
    if (q.method === "sampling/createMessage")
      return String((q.params["messages"] as { content: { text: string } }[])[0]!.content.text).replace(/^sample /, "");
    if (q.method === "elicitation/create") return String(q.params["message"]).replace(/^elicit /, "");
    return undefined;
  };

  /** One call of `caller`, round after round: the questions it was asked and the probe's answer. */
  async function call(caller: string, server: string, secret: string, delayMs: number, maxRounds: number) {
    const key = KEYS.find((k) => USERS.get(k)!.name === caller)!;
    const name = `${server}__probe`;
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { sampling: {}, elicitation: {}, roots: {} },
      "io.modelcontextprotocol/clientInfo": { name: caller, version: "1" },
    };
    const asked: Question[] = [];
    let retry: Message = {};
    for (let round = 1; round <= maxRounds; round++) {
      const response = await fetch(mounted.url, {
        method: "POST",
        headers: {
          "x-api-key": key,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": name,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: round,
          method: "tools/call",
          params: { name, arguments: { secret, steps: 1, delayMs }, _meta: meta, ...retry },
        }),
      });
      const body = (await response.json()) as { result?: Message; error?: unknown };
      const result = body.result;
      if (!result) throw new Error(`${secret}: ${JSON.stringify(body)}`);
      if (result["resultType"] !== "input_required") {
        const answer = JSON.parse((result["content"] as { text: string }[])[0]!.text) as ProbeAnswer;
        return { asked, answer };
      }
      const inputResponses: Message = {};
      for (const [k, q] of Object.entries(result["inputRequests"] as Record<string, Question>)) {
        asked.push(q);
        // Each answer names who gave it and the question's secret.
        const by = `by ${caller}:${secretOf(q)}`;
        inputResponses[k] =
          q.method === "sampling/createMessage"
            ? { role: "assistant", content: { type: "text", text: by }, model: "m" }
            : q.method === "elicitation/create"
              ? { action: "accept", content: { answer: by } }
              : { roots: [{ uri: `file:///${caller}` }] };
      }
      retry = { inputResponses, requestState: result["requestState"] };
    }
    throw new Error(`${secret}: still input_required after ${maxRounds} rounds`);
  }

  it("whatever the calls and their interleaving", { timeout: 180_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            caller: fc.constantFrom("ann", "ben", "cyd"),
            server: fc.constantFrom("http", "stdio"),
            delayMs: fc.integer({ min: 0, max: 10 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (ops) => {
          run++;
          const before = served.calls;
          const done = await Promise.all(
            ops.map(async (op, i) => {
              const secret = `${op.caller}/${op.server}/${run}.${i}`;
              // A liveness bound, not a routing claim: each round answers at least one question, and an
              // untied server's questions (stdio) may all reach the same one of the caller's calls, so a
              // call may see every question its caller's untied calls ask (three each) before its result.
              const untied = ops.filter((o) => o.caller === op.caller && o.server === "stdio").length;
              const maxRounds = 3 * (op.server === "stdio" ? untied : 1) + 2;
              return { op, secret, ...(await call(op.caller, op.server, secret, op.delayMs, maxRounds)) };
            }),
          );
          for (const { op, secret, asked, answer } of done) {
            expect(answer.secret).toBe(secret);
            // Tied to the call: asked on that call; untied: on one of its caller's calls.
            for (const q of asked) {
              const of = secretOf(q);
              if (of === undefined) continue;
              if (op.server === "http") expect(of).toBe(secret);
              else expect(of.split("/")[0]).toBe(op.caller);
            }
            for (const by of [answer.sampled, answer.elicited]) {
              if (op.server === "http") expect(by).toBe(`by ${op.caller}:${secret}`);
              else expect(String(by).split(":")[0]).toBe(`by ${op.caller}`);
            }
            expect(answer.roots).toEqual([`file:///${op.caller}`]);
          }
          // Each call's sampling and elicitation were asked exactly once, somewhere.
          const asked = done.flatMap((d) => d.asked.map(secretOf).filter((s) => s !== undefined)).sort();
          expect(asked).toEqual(done.flatMap((d) => [d.secret, d.secret]).sort());
          // Every first round took the fast path (retries take the SDK's).
          expect(served.calls - before).toBe(process.env["MCP_GATEWAY_TEST_PATH"] === "sdk" ? 0 : ops.length);
        },
      ),
      { numRuns: 10 },
    );
  });
});
