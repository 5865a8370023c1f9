// `mcp serve` with several callers: each caller's questions, logs, progress and answers stay its
// own. The upstreams are the probe on both official SDKs over stdio and HTTP (trust-helpers.ts);
// the callers are the official SDK clients of both eras over the HTTP front, over stdio fronts of
// their own, and through two replicas sharing a real redis-server.
import { randomBytes } from "node:crypto";
import { startRedis, type TestRedis } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBalancer, type Balancer } from "./balancer.js";
import { startHttpServe, type HttpServe } from "./serve-helpers.js";
import {
  caller2025,
  caller2026,
  expectOwnOnly,
  forget,
  PROBES,
  probeBox,
  trafficProperty,
  type ProbeBox,
  type TrustCaller,
} from "./trust-helpers.js";

const NAMES = ["alice", "bob", "carol", "dave"] as const;

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

  it.each(PROBES)(
    "%s: a question asked while another caller's call is in flight goes to the caller whose call asked it",
    async (probe) => {
      const [alice, bob] = [callers[0]!, callers[1]!];
      forget([alice, bob]);
      // Alice's call asks its questions a while after its first progress; Bob's call starts on that
      // progress and is still in flight when Alice's questions come: they must not go to the caller
      // with the latest request (Bob).
      let bobsCall: Promise<unknown> | undefined;
      const answer = await alice.probe(probe, "alice:1", {
        steps: 1,
        delayMs: 1500,
        onProgress: () => void (bobsCall ??= bob.probe(probe, "bob:1", { steps: 1, delayMs: 3000 })),
      });
      expect(answer).toEqual({
        secret: "alice:1",
        sampled: "sampled-by-alice",
        elicited: "elicited-by-alice",
        roots: ["file:///alice"],
      });
      expect(await bobsCall).toEqual({
        secret: "bob:1",
        sampled: "sampled-by-bob",
        elicited: "elicited-by-bob",
        roots: ["file:///bob"],
      });
      expectOwnOnly([alice, bob]);
      for (const c of [alice, bob])
        expect(c.seen.questions).toEqual(expect.arrayContaining([`sample ${c.name}:1`, `elicit ${c.name}:1`]));
    },
    60_000,
  );

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
    replicas = await Promise.all(
      [0, 1].map(() => startHttpServe(probes.box, ["--callers", file, "--redis", redis.url], { MCP_REDIS_KEY: key })),
    );
    // 2025 sessions stay on their replica; 2026-07-28 callers on theirs (their retries must reach
    // the replica holding the upstream call): see docs/scaling.md.
    lb = await startBalancer(
      replicas.map((r) => r.url),
      { sticky: true, byCaller: true },
    );
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
