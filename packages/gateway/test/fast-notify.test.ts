// A 2026-07-28 `tools/call` that asks for progress (`_meta.progressToken`) or logs (the envelope's
// `io.modelcontextprotocol/logLevel`), on the fast path (fast.ts) and on the SDK's: two gateways
// over one manager (parity.ts), one with the fast path and one without, get the same raw calls,
// round after round (a caller that can be asked answers each `input_required` and retries). The
// whole exchange — every round's status, content type and body, its progress and log events in
// their order — must be the same bytes on both (the gateway's random `requestState` aside), and the
// audit entries the same. Upstreams: the probe (SDK 1.x over Streamable HTTP: progress, logs and
// questions tied to the call), the probe on SDK v2 over stdio (2026-07-28: its own rounds) and
// server-everything over stdio (its long-running operation's progress).
import { everythingEntry, probeStdioEntry } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditedCalls, startParityPair, tokenOf, type Kind, type ParityPair } from "./parity.js";
import { callRounds, messagesOf } from "./raw-call.js";
import { ASKED_ALL as ASKING, callerAnswer, roundsText } from "./raw-callers.js";
import type * as Fast from "../src/fast.js";

/** How many requests the fast path served: a parity case proves nothing unless it took that path. */
const served = vi.hoisted(() => ({ count: 0 }));
vi.mock("../src/fast.js", async (importOriginal) => {
  const original = await importOriginal<typeof Fast>();
  return {
    ...original,
    serveFast: (...args: Parameters<typeof original.serveFast>): ReturnType<typeof original.serveFast> => {
      served.count++;
      return original.serveFast(...args);
    },
  };
});

const LEVEL = "io.modelcontextprotocol/logLevel";

describe("a 2026-07-28 call asking for progress or logs: the fast path streams it as the SDK server does", () => {
  let pair: ParityPair;

  beforeAll(async () => {
    pair = await startParityPair({
      pv2: { command: process.execPath, args: [probeStdioEntry, "v2"] },
      everything: { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 },
    });
  }, 60_000);

  afterAll(async () => {
    await pair?.stop();
  });

  const token = tokenOf("alice");

  /** The call, round after round: every round's status, content type and body (the state handed out made `<state>`). */
  async function exchange(
    kind: Kind,
    name: string,
    args: unknown,
    capabilities: unknown,
    meta: Record<string, unknown>,
  ) {
    const done = await callRounds(
      { url: pair.urls[kind], headers: { authorization: `Bearer ${token}` }, name, args, capabilities, meta },
      callerAnswer,
      6,
    );
    const text = roundsText(done.answers);
    const methods = done.answers.flatMap(messagesOf).map((m) => (m["method"] as string | undefined) ?? "answer");
    return { text, methods, rounds: done.answers.length };
  }

  const progress = "notifications/progress";
  const log = "notifications/message";
  const cases: [string, string, unknown, unknown, Record<string, unknown>, string[]][] = [
    [
      "the probe (1.x, HTTP): progress and logs, then a round of each question",
      "p1h__probe",
      { secret: "s1", steps: 2 },
      ASKING,
      { progressToken: "tok-1", [LEVEL]: "info" },
      [progress, log, progress, log, "answer", "answer", "answer", "answer"],
    ],
    [
      "the probe to a caller asking for progress only (a numeric token): no log",
      "p1h__probe",
      { secret: "s2", steps: 2 },
      ASKING,
      { progressToken: 7 },
      [progress, progress, "answer", "answer", "answer", "answer"],
    ],
    [
      "logs at debug, to a caller that can be asked nothing",
      "p1h__flood",
      { count: 3 },
      {},
      { [LEVEL]: "debug" },
      [log, log, log, "answer"],
    ],
    [
      "logs below the level asked for: none, and a JSON answer",
      "p1h__flood",
      { count: 2 },
      {},
      { [LEVEL]: "error" },
      ["answer"],
    ],
    ["a progress token and nothing to report", "odd__echo", { text: "p" }, {}, { progressToken: "quiet" }, ["answer"]],
    [
      "the probe on SDK v2 over stdio: its progress, its own input_required round",
      "pv2__probe",
      { secret: "s3", steps: 2 },
      ASKING,
      { progressToken: "tok-3", [LEVEL]: "info" },
      // Its logs stay with the gateway: its request carries the caller's level, but stdio ties no log to a
      // call, and with two callers (alice, bob) an untied message on the shared connection is nobody's
      // (upstream-log-level.test.ts: one caller gets them).
      [progress, progress, "answer", "answer", "answer", progress, progress, "answer"],
    ],
    [
      "server-everything over stdio: a long-running operation's progress",
      "everything__trigger-long-running-operation",
      { duration: 0.03, steps: 3 },
      {},
      { progressToken: "tok-4", [LEVEL]: "debug" },
      [progress, progress, progress, "answer"],
    ],
  ];

  it.each(cases)("%s", { timeout: 60_000 }, async (_label, name, args, capabilities, meta, methods) => {
    const before = served.count;
    const fast = await exchange("fast", name, args, capabilities, meta);
    // Every round took the fast path.
    expect(served.count).toBe(before + fast.rounds);
    const sdk = await exchange("sdk", name, args, capabilities, meta);
    expect(fast.text).toBe(sdk.text);
    expect(fast.methods).toEqual(methods);
  });

  it("a log level that is none of the eight: the SDK's path answers it, on both", async () => {
    const before = served.count;
    const fast = await exchange("fast", "p1h__flood", { count: 1 }, {}, { [LEVEL]: "verbose" });
    expect(served.count).toBe(before);
    const sdk = await exchange("sdk", "p1h__flood", { count: 1 }, {}, { [LEVEL]: "verbose" });
    expect(fast.text).toBe(sdk.text);
    expect(fast.text).toMatch(/^400 /);
  });

  it("the same audit entries, but for their times", () => {
    expect(auditedCalls(pair.audits.fast).length).toBeGreaterThanOrEqual(cases.length);
    expect(auditedCalls(pair.audits.fast)).toEqual(auditedCalls(pair.audits.sdk));
  });
});
