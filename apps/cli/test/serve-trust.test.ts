// `mcp serve` with several callers: each caller's questions, logs, progress and answers stay its
// own. The upstreams are the probe on both official SDKs over stdio and HTTP (trust-helpers.ts);
// the callers are the official SDK clients of both eras over the HTTP front, over stdio fronts of
// their own, and through two replicas sharing a real redis-server.
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { startRedis, type TestRedis } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBalancer, type Balancer } from "./balancer.js";
import { startHttpServe, type HttpServe } from "./serve-helpers.js";
import { caller2025, caller2026, PROBES, probeBox, secretsIn, tiesQuestions, type Probe, type ProbeBox, type TrustCaller } from "./trust-helpers.js";

const NAMES = ["alice", "bob", "carol", "dave"] as const;

function forget(callers: readonly TrustCaller[]): void {
  for (const c of callers) c.seen.questions.length = c.seen.logs.length = c.seen.progress.length = 0;
}

/** No caller saw a secret of another's: not in a question, a log message or a progress message. */
function expectOwnOnly(callers: readonly TrustCaller[]): void {
  for (const c of callers) {
    const all = [...c.seen.questions, ...c.seen.logs, ...c.seen.progress];
    expect(all.flatMap(secretsIn).filter((secret) => !secret.startsWith(`${c.name}:`)), `${c.name} saw another's: ${JSON.stringify(all)}`).toEqual([]);
  }
}

/**
 * The property: whatever calls the callers make at once, to whichever upstream, each call is
 * answered by its own caller, a caller whose server ties its questions to the call is asked them,
 * and nobody sees anything of another's.
 */
async function trafficProperty(callers: readonly TrustCaller[], numRuns: number): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ caller: fc.nat({ max: callers.length - 1 }), probe: fc.constantFrom<Probe>(...PROBES), steps: fc.integer({ min: 1, max: 3 }), delayMs: fc.integer({ min: 0, max: 60 }), startMs: fc.integer({ min: 0, max: 60 }) }), { minLength: 2, maxLength: 8 }),
      async (plan) => {
        run++;
        forget(callers);
        const answers = await Promise.all(
          plan.map(async (step, i) => {
            await new Promise((r) => setTimeout(r, step.startMs));
            const caller = callers[step.caller]!;
            const secret = `${caller.name}:${run * 100 + i}`;
            return { step, caller, secret, answer: await caller.probe(step.probe, secret, step) };
          }),
        );
        for (const { step, caller, secret, answer } of answers) {
          expect(answer).toEqual({ secret, sampled: `sampled-by-${caller.name}`, elicited: `elicited-by-${caller.name}`, roots: [`file:///${caller.name}`] });
          if (tiesQuestions(step.probe)) expect(caller.seen.questions).toEqual(expect.arrayContaining([`sample ${secret}`, `elicit ${secret}`]));
        }
        expectOwnOnly(callers);
      },
    ),
    { numRuns, endOnFailure: true },
  );
}

describe("mcp serve: one caller never sees another's traffic", () => {
  let probes: ProbeBox;
  let serve: HttpServe;
  let callers: TrustCaller[];
  let viaStdio: TrustCaller[];

  beforeAll(async () => {
    probes = await probeBox();
    serve = await startHttpServe(probes.box, ["--callers", probes.callersFile(NAMES)]);
    // Two callers of each era on the HTTP front; two more with a stdio gateway of their own each.
    callers = await Promise.all(NAMES.map((name, i) => (i % 2 === 0 ? caller2025 : caller2026)(name, serve.url)));
    viaStdio = await Promise.all([caller2025("erin", probes.box), caller2026("frank", probes.box)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([...(callers ?? []), ...(viaStdio ?? [])].map((c) => c.close()));
    await serve?.stop();
    await probes?.stop();
  });

  it.each(PROBES)("%s: a question asked while another caller's call is in flight goes to the caller whose call asked it", async (probe) => {
    const [alice, bob] = [callers[0]!, callers[1]!];
    forget([alice, bob]);
    // Alice's call asks its questions a while after its first progress; Bob's call starts on that
    // progress and is still in flight when Alice's questions come: they must not go to the caller
    // with the latest request (Bob).
    let bobsCall: Promise<unknown> | undefined;
    const answer = await alice.probe(probe, "alice:1", { steps: 1, delayMs: 1500, onProgress: () => void (bobsCall ??= bob.probe(probe, "bob:1", { steps: 1, delayMs: 3000 })) });
    expect(answer).toEqual({ secret: "alice:1", sampled: "sampled-by-alice", elicited: "elicited-by-alice", roots: ["file:///alice"] });
    expect(await bobsCall).toEqual({ secret: "bob:1", sampled: "sampled-by-bob", elicited: "elicited-by-bob", roots: ["file:///bob"] });
    expectOwnOnly([alice, bob]);
    for (const c of [alice, bob]) expect(c.seen.questions).toEqual(expect.arrayContaining([`sample ${c.name}:1`, `elicit ${c.name}:1`]));
  }, 60_000);

  it("as a property: random interleavings of calls by six callers (both eras; HTTP and stdio fronts) to every upstream kind", async () => {
    await trafficProperty([...callers, ...viaStdio], 12);
    // Nothing warned of a leak on the way (listeners piling up on a signal, say).
    expect(serve.stderr()).not.toMatch(/Warning/);
  }, 300_000);
});

describe("two mcp serve replicas on Redis: one caller never sees another's traffic", () => {
  let redis: TestRedis;
  let probes: ProbeBox;
  let replicas: HttpServe[];
  let lb: Balancer;
  let callers: TrustCaller[];

  beforeAll(async () => {
    redis = await startRedis();
    probes = await probeBox();
    const file = probes.callersFile(NAMES);
    // One key for both replicas: upstream OAuth tokens in Redis are encrypted with it.
    const key = randomBytes(32).toString("base64");
    replicas = await Promise.all([0, 1].map(() => startHttpServe(probes.box, ["--callers", file, "--redis", redis.url], { MCP_REDIS_KEY: key })));
    // 2025 sessions stay on their replica; 2026-07-28 callers on theirs (their retries must reach
    // the replica holding the upstream call): see docs/scaling.md.
    lb = await startBalancer(replicas.map((r) => r.url), { sticky: true, byCaller: true });
    callers = await Promise.all(NAMES.map((name, i) => (i % 2 === 0 ? caller2025 : caller2026)(name, lb.url)));
  }, 60_000);

  afterAll(async () => {
    await Promise.all((callers ?? []).map((c) => c.close()));
    await lb?.stop();
    await Promise.all((replicas ?? []).map((r) => r.stop()));
    await probes?.stop();
    await redis?.stop();
  });

  it("as a property: random interleavings of calls by four callers of both eras, spread over both replicas", async () => {
    const from = lb.served.length;
    await trafficProperty(callers, 8);
    expect(new Set(lb.served.slice(from).map((s) => s.replica))).toEqual(new Set([0, 1]));
  }, 300_000);
});
