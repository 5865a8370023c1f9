// Untied questions spread over a caller's calls: a 2025 stdio server (the probe, SDK 1.x) ties
// none of its questions to the call that asks them, so the gateway hands each one to one of that
// caller's calls in flight — the one handed the fewest so far — never to another caller's, and
// never so many to one call that it passes the SDK v2 client's round limit (10) while its siblings
// get none. Raw 2026-07-28 callers answer each `input_required` round and retry.
import { probeStdioEntry } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mountGateway, type Mounted } from "./app.js";
import { apiKeyCallers, CLIENT_ROUND_LIMIT, probeRounds, secretOf } from "./raw-callers.js";

const CALLERS = apiKeyCallers(["ann", "ben"]);

describe("untied questions of a stdio server spread over the caller's calls in flight", () => {
  let mounted: Mounted;

  beforeAll(async () => {
    mounted = await mountGateway(
      { stdio: { command: process.execPath, args: [probeStdioEntry, "1x"] } },
      CALLERS.gateway,
    );
  });

  afterAll(async () => {
    await mounted?.stop();
  });

  async function call(caller: string, secret: string) {
    const done = await probeRounds({
      url: mounted.url,
      caller,
      key: CALLERS.keyOf(caller),
      server: "stdio",
      secret,
      delayMs: 100,
    });
    return { secret, asked: done.asked, rounds: done.answers.length, answer: done.answer };
  }

  it(
    "no call is handed more than its share, and each question reaches its own caller",
    { timeout: 120_000 },
    async () => {
      const calls = 6;
      const done = await Promise.all([
        ...Array.from({ length: calls }, (_, i) => call("ann", `ann/${i}`)),
        call("ben", "ben/0"),
      ]);
      const counts = done.map((d) => d.asked.length);
      // Each call asks three questions (sampling, elicitation, roots): 18 of ann's over its 6 calls.
      expect(counts.slice(0, calls).reduce((a, b) => a + b, 0)).toBe(3 * calls);
      expect(counts.at(-1)).toBe(3);
      for (const d of done) {
        const caller = d.secret.split("/")[0];
        expect(d.answer.secret).toBe(d.secret);
        for (const q of d.asked) if (secretOf(q) !== undefined) expect(secretOf(q)!.split("/")[0]).toBe(caller);
        expect(String(d.answer.sampled).split(":")[0]).toBe(`by ${caller}`);
        expect(d.answer.roots).toEqual([`file:///${caller}`]);
      }
      // Its share: ann's 18 questions over her 6 calls are 3 each. The call handed the fewest so far
      // gets the next one, so a call gets more only while every sibling in flight has as many; calls
      // ending at their own pace, none gets past twice its share (before: the latest one got them all).
      expect(Math.max(...counts), `questions per call: ${counts.join(", ")}`).toBeLessThanOrEqual(6);
      expect(Math.max(...done.map((d) => d.rounds))).toBeLessThanOrEqual(CLIENT_ROUND_LIMIT);
    },
  );
});
