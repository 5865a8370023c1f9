// A 2026-07-28 caller that declared sampling, elicitation or roots, on the fast path (fast.ts) and
// on the SDK's: two gateways over one manager (parity.ts), one with the fast path and one without,
// get the same raw calls. An upstream that asks (the probe, SDK 1.x over Streamable HTTP: a
// sampling, an elicitation and a roots question, one after the other; the v2 server's `ask-name`,
// itself an `input_required` round) makes the gateway answer `input_required`; the raw caller
// answers each round's questions and sends the call again with `inputResponses` and `requestState`,
// to the end. The whole exchange — every round's status, content type and body — must be the same
// bytes on both (the gateway's `requestState`, random, aside), and their audit entries the same.
// Every round, first or retry, must have taken the fast path.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditedCalls, startParityPair, tokenOf, type Kind, type ParityPair } from "./parity.js";
import type * as Fast from "../src/fast.js";
import { callRounds } from "./raw-call.js";
import { callerAnswer, roundsText } from "./raw-callers.js";

/** How many calls the fast path served: a parity case proves nothing unless it took that path. */
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

const ASKING = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

describe("a 2026-07-28 caller that can be asked: the fast path answers its rounds as the SDK server does", () => {
  let pair: ParityPair;

  beforeAll(async () => {
    pair = await startParityPair();
  });

  afterAll(async () => {
    await pair?.stop();
  });

  const token = tokenOf("alice");

  /** The call sent round after round (each round's questions answered) until it is no longer `input_required`. */
  async function rounds(kind: Kind, name: string, args: unknown, capabilities: unknown): Promise<string> {
    const done = await callRounds(
      { url: pair.urls[kind], headers: { authorization: `Bearer ${token}` }, name, args, capabilities },
      callerAnswer,
      6,
    );
    return roundsText(done.answers);
  }

  const cases: [string, string, unknown, unknown, string][] = [
    [
      "the probe: a sampling, an elicitation and a roots question, a round each",
      "p1h__probe",
      { secret: "s1", steps: 1 },
      ASKING,
      '\\"roots\\":[\\"file:///caller-root\\"]',
    ],
    [
      "the probe, to a caller that declared roots only: its sampling refused by the gateway",
      "p1h__probe",
      { secret: "s2", steps: 1 },
      { roots: {} },
      "does not support sampling/createMessage",
    ],
    [
      "a 2026-07-28 upstream's own input_required round (the v2 server's ask-name)",
      "v2__ask-name",
      {},
      { elicitation: {} },
      "Hello, Ann",
    ],
    [
      "a form elicitation for a caller that declared URL elicitation only: refused as the SDK refuses it (-32021)",
      "v2__ask-name",
      {},
      { elicitation: { url: {} } },
      "-32021",
    ],
    ["a call that asks nothing, of a caller that can be asked", "odd__echo", { text: "r" }, ASKING, '"text":"r"'],
    ["a tool error of such a caller", "v2__add", { a: "x" }, ASKING, '"isError":true'],
  ];

  it.each(cases)("%s", async (_label, name, args, capabilities, expected) => {
    const before = served.count;
    const fast = await rounds("fast", name, args, capabilities);
    // Every round, retries included, took the fast path.
    expect(served.count).toBe(before + fast.split(/^\d{3} /m).length - 1);
    const sdk = await rounds("sdk", name, args, capabilities);
    expect(fast).toBe(sdk);
    // A question the caller cannot be asked is refused with HTTP 400, as the SDK server refuses it.
    expect(fast).toMatch(expected === "-32021" ? /^400 / : /^200 /);
    expect(fast).toContain(expected);
  });

  it("the same audit entries, but for their times", () => {
    expect(auditedCalls(pair.audits.fast).length).toBeGreaterThanOrEqual(cases.length);
    expect(auditedCalls(pair.audits.fast)).toEqual(auditedCalls(pair.audits.sdk));
  });
});
