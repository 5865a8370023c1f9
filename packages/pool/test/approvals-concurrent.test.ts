// Many hosts attaching at once, in random orders (seeded): approved and unapproved entries of one
// project file, one under the approved one's name, early leavers. Each host gets its own answers
// only; nothing unapproved ever starts; every process ends with the pool.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApprovalStore, defaultApprovalsFile, loadAllMCPConfigs } from "@mcp/manager";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { ServerPool, fingerprintOf } from "../src/index.js";
import { alive, everything, host } from "./helpers.js";

let home: string;
let project: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "pool-conc-home-"));
  project = mkdtempSync(join(tmpdir(), "pool-conc-project-"));
  vi.stubEnv("HOME", home);
  vi.stubEnv("XDG_CONFIG_HOME", join(home, ".config"));
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(home, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

/** A small seeded generator (mulberry32): a failing order can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

it("hosts attaching at once in random orders: unapproved refused before anything starts, each host its own answers", async () => {
  writeFileSync(
    join(project, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        ok: { command: everything.command, args: everything.args },
        bad: { command: everything.command, args: everything.args, env: { FROM_REPO: "1" } },
      },
    }),
  );
  const loaded = await loadAllMCPConfigs(project, { home });
  const ok = loaded.servers["ok"]!;
  const bad = loaded.servers["bad"]!;
  await createApprovalStore({ file: defaultApprovalsFile({ home, env: process.env }) }).remember(project, [ok]);
  const okFingerprint = fingerprintOf({ ...(ok.config as object), cwd: project } as never);

  const seen = new Set<string>();
  for (const seed of [1, 2, 3]) {
    const next = random(seed);
    const pool = new ServerPool();
    const spawned: { key: string; pid: number }[] = [];
    pool.on("spawned", (event: { key: string; pid: number }) => spawned.push(event));
    const kinds = Array.from({ length: 8 }, () => ["ok", "bad", "bad-as-ok", "leaver"][Math.floor(next() * 4)]!);
    const outcomes = await Promise.all(
      kinds.map(async (kind, i) => {
        // A random pause of zero to a few turns of the event loop: another interleaving per seed.
        for (let turns = Math.floor(next() * 4); turns > 0; turns--) await new Promise((r) => setImmediate(r));
        const entry = kind === "bad" || kind === "bad-as-ok" ? bad : ok;
        const h = host(
          pool,
          undefined,
          kind === "bad-as-ok" ? "ok" : entry.name,
          { ...(entry.config as object), cwd: project },
          { project },
        );
        if (kind === "leaver") {
          h.session.close(); // gone before its opening
          return { kind, i };
        }
        const version = next() < 0.5 ? "2025-06-18" : "2025-03-26";
        const init = await h.initialize({}, version);
        if (init.error) {
          h.session.close();
          return { kind, i, error: init.error };
        }
        const echo = await h.request("tools/call", { name: "echo", arguments: { message: `host ${seed}/${i}` } });
        h.session.close();
        return { kind, i, echo: JSON.stringify(echo.result) };
      }),
    );
    for (const outcome of outcomes) {
      seen.add(outcome.kind);
      if (outcome.kind === "ok") expect(outcome.echo, `seed ${seed}`).toContain(`host ${seed}/${outcome.i}"`);
      if (outcome.kind === "bad" || outcome.kind === "bad-as-ok") {
        expect(outcome.error, `seed ${seed}`).toMatchObject({ code: -32603 });
        expect(outcome.error.message).toMatch(/is not served/);
      }
    }
    // Only the approved program ran: one process per protocol version at most.
    expect(
      spawned.every((s) => s.key.startsWith(okFingerprint)),
      `seed ${seed}`,
    ).toBe(true);
    expect(spawned.length).toBeLessThanOrEqual(2);
    await pool.close();
    expect(spawned.filter((s) => alive(s.pid))).toEqual([]);
  }
  // The seeds gave every kind of host at least once.
  expect([...seen].sort()).toEqual(["bad", "bad-as-ok", "leaver", "ok"]);
}, 120_000);
