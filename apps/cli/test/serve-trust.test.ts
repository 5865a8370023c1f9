// `mcp serve` with several callers: each caller's questions, logs, progress and answers stay its
// own. The upstreams are the probe on both official SDKs over stdio and HTTP (trust-helpers.ts);
// the callers are the official SDK clients of both eras over the HTTP front.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServe, type HttpServe } from "./serve-helpers.js";
import { caller2025, caller2026, PROBES, probeBox, secretsIn, tiesQuestions, type Probe, type ProbeBox, type TrustCaller } from "./trust-helpers.js";

const NAMES = ["alice", "bob", "carol", "dave"] as const;

describe("mcp serve --http: one caller never sees another's traffic", () => {
  let probes: ProbeBox;
  let serve: HttpServe;
  let callers: TrustCaller[];

  beforeAll(async () => {
    probes = await probeBox();
    serve = await startHttpServe(probes.box, ["--callers", probes.callersFile(NAMES)]);
    // Two callers of each era.
    callers = await Promise.all(NAMES.map((name, i) => (i % 2 === 0 ? caller2025 : caller2026)(name, serve.url)));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(callers.map((c) => c.close()));
    await serve?.stop();
    await probes?.stop();
  });

  it.each(PROBES)("%s: a question asked while another caller's call is in flight goes to the caller whose call asked it", async (probe) => {
    const [alice, bob] = [callers[0]!, callers[1]!];
    for (const c of [alice, bob]) c.seen.questions.length = c.seen.logs.length = c.seen.progress.length = 0;
    // Alice's call asks its questions a while after its first progress; Bob's call starts on that
    // progress and is still in flight when Alice's questions come (the gateway used to give them
    // to the caller with the latest request: Bob).
    let bobsCall: Promise<unknown> | undefined;
    const alices = alice.probe(probe, "alice:1", { steps: 1, delayMs: 1500, onProgress: () => void (bobsCall ??= bob.probe(probe, "bob:1", { steps: 1, delayMs: 3000 })) });
    const answer = await alices;
    expect(answer).toEqual({ secret: "alice:1", sampled: "sampled-by-alice", elicited: "elicited-by-alice", roots: ["file:///alice"] });
    expect(await bobsCall).toEqual({ secret: "bob:1", sampled: "sampled-by-bob", elicited: "elicited-by-bob", roots: ["file:///bob"] });
    for (const c of [alice, bob]) {
      const all = [...c.seen.questions, ...c.seen.logs, ...c.seen.progress];
      expect(all.flatMap(secretsIn).every((secret) => secret.startsWith(`${c.name}:`)), `${c.name} saw ${JSON.stringify(all)}`).toBe(true);
      expect(c.seen.questions).toEqual(expect.arrayContaining([`sample ${c.name}:1`, `elicit ${c.name}:1`]));
    }
  }, 60_000);

  it("as a property: random interleavings of calls by four callers of both eras to every upstream kind", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ caller: fc.nat({ max: NAMES.length - 1 }), probe: fc.constantFrom<Probe>(...PROBES), steps: fc.integer({ min: 1, max: 3 }), delayMs: fc.integer({ min: 0, max: 60 }), startMs: fc.integer({ min: 0, max: 60 }) }), { minLength: 2, maxLength: 8 }),
        async (plan) => {
          run++;
          for (const c of callers) c.seen.questions.length = c.seen.logs.length = c.seen.progress.length = 0;
          const answers = await Promise.all(
            plan.map(async (step, i) => {
              await new Promise((r) => setTimeout(r, step.startMs));
              const caller = callers[step.caller]!;
              const secret = `${caller.name}:${run * 100 + i}`;
              return { step, caller, secret, answer: await caller.probe(step.probe, secret, step) };
            }),
          );
          for (const { step, caller, secret, answer } of answers) {
            // Its own call, answered by itself.
            expect(answer).toEqual({ secret, sampled: `sampled-by-${caller.name}`, elicited: `elicited-by-${caller.name}`, roots: [`file:///${caller.name}`] });
            // Where the server ties its questions to the call, the caller was asked them itself.
            if (tiesQuestions(step.probe)) expect(caller.seen.questions).toEqual(expect.arrayContaining([`sample ${secret}`, `elicit ${secret}`]));
          }
          for (const c of callers) {
            const all = [...c.seen.questions, ...c.seen.logs, ...c.seen.progress];
            expect(all.flatMap(secretsIn).filter((secret) => !secret.startsWith(`${c.name}:`)), `${c.name} saw another's`).toEqual([]);
          }
        },
      ),
      { numRuns: 12, endOnFailure: true },
    );
  }, 240_000);
});
