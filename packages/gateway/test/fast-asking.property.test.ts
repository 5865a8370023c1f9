// Several 2026-07-28 callers that can be asked (sampling, elicitation, roots declared in each
// request's envelope) and ask for progress and logs, calling at once through one gateway, on its
// fast path (unless the run turns it off: then the same property holds on the SDK's path). Their
// questions come back as `input_required` rounds, which each raw caller answers and retries.
// Whatever calls and interleaving fast-check picks, every question and log reaches only its own
// call's caller — that very call when the server ties it to it (the probe over Streamable HTTP),
// one of its caller's calls when it cannot (the probe over stdio, where each caller has a process
// of its own) — and its progress only that call, by its token.
import fc from "fast-check";
import { buildProbe1x, probeStdioEntry, startSdkServer, type SdkServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mountGateway, type Mounted } from "./app.js";
import type * as Fast from "../src/fast.js";
import { messagesOf, type Question } from "./raw-call.js";
import { apiKeyCallers, probeRounds, secretOf } from "./raw-callers.js";

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

const CALLERS = apiKeyCallers(["ann", "ben", "cyd"]);

type Message = Record<string, unknown>;

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
      CALLERS.gateway,
    );
  });

  afterAll(async () => {
    await mounted?.stop();
    await probe?.stop();
  });

  /** One call of `caller`, round after round: the questions it was asked and the probe's answer. */
  async function call(caller: string, server: string, secret: string, delayMs: number) {
    // Each answer names who gave it and the question's secret (answerAs).
    const done = await probeRounds({
      url: mounted.url,
      caller,
      key: CALLERS.keyOf(caller),
      server,
      secret,
      delayMs,
      clientInfo: { name: caller, version: "1" },
      // Its progress and logs too, on the call's own stream.
      meta: { progressToken: secret, "io.modelcontextprotocol/logLevel": "info" },
    });
    const answer = done.answer;
    const told = done.answers.flatMap(messagesOf).filter((m) => m["method"] !== undefined);
    return { asked: done.asked as Question[], answer, rounds: done.answers.length, told };
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
              // Within the SDK v2 client's own round limit: an untied server's questions (stdio) are spread
              // over the caller's calls in flight, never piled on one.
              return { op, secret, ...(await call(op.caller, op.server, secret, op.delayMs)) };
            }),
          );
          for (const { op, secret, asked, answer, told } of done) {
            expect(answer.secret).toBe(secret);
            // Its progress (tied by its token) is its own; its logs its own (tied) or its caller's (untied).
            for (const m of told) {
              const params = m["params"] as Message;
              if (m["method"] === "notifications/progress") {
                expect(params["progressToken"]).toBe(secret);
                expect(params["message"]).toBe(`progress ${secret}`);
              } else {
                expect(m["method"]).toBe("notifications/message");
                const of = String(params["data"]).replace(/^log /, "");
                if (op.server === "http") expect(of).toBe(secret);
                else expect(of.split("/")[0]).toBe(op.caller);
              }
            }
            // Its one step, before its own first question; untied, a sibling's question may close its round
            // first, and progress that comes between two rounds (no round open to carry it) is not kept.
            const steps = told.filter((m) => m["method"] === "notifications/progress").length;
            if (op.server === "http") expect(steps).toBe(1);
            else expect(steps).toBeLessThanOrEqual(1);
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
          // Every round, first or retry, took the fast path.
          const rounds = done.reduce((sum, d) => sum + d.rounds, 0);
          expect(served.calls - before).toBe(process.env["MCP_GATEWAY_TEST_PATH"] === "sdk" ? 0 : rounds);
        },
      ),
      { numRuns: 10 },
    );
  });
});
