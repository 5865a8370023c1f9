// A host that never reads its stdout floods a pooled server with small requests whose answers are
// large (server-everything's tools/list): the daemon must not go on serving that host's requests
// into a buffer nobody reads. What the pool started for that host is what `mcp --json ps` reports
// (hosts[].calls), not the daemon's RSS. The answers of the requests already in service are bounded
// too: past MCP_POOL_MAX_UNREAD_MB (16 MiB) unread, the daemon ends that host's session, says why in
// its log and in `mcp --json ps` (`ended`), and the shim exits.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bin } from "./helpers.js";
import { initialize, poolSandbox, psJson, script } from "./pool-helpers.js";
import { shimBash } from "./shim-bash.js";

interface Ps {
  servers: { hosts: { info: { shimPid: number }; calls: number; queuedBytes: number; heldBytes: number }[] }[];
  maxUnreadBytes: number;
  peakUnreadBytes: number;
  ended: { shimPid: number; server: string; reason: string; unreadBytes: number }[];
}

/** The daemon's log (its stderr, appended to `daemon.log` in the cache folder). */
function daemonLog(home: string): string {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name === "daemon.log") found.push(join(dir, entry.name));
    }
  };
  walk(join(home, ".cache"));
  return found.map((file) => readFileSync(file, "utf8")).join("");
}

/** 2.2 MiB of requests in one go; first 5000 small tools/list (~38 MB of answers), then requests of 1 KiB. */
function flood(): { lines: string; count: number } {
  const pad = "x".repeat(960);
  let lines = "";
  for (let id = 2; lines.length < 2.2 * 1024 * 1024; id++) {
    const params = id < 5002 ? {} : { _meta: { pad } };
    lines += `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params })}\n`;
  }
  return { lines, count: lines.split("\n").length - 1 };
}

describe.skipIf(process.platform !== "linux")("a host that never reads its stdout", () => {
  const box = poolSandbox();

  it.each(["node", "light"] as const)(
    "through the %s shim: the pool starts none of its held requests while its answers wait unread",
    async (shim) => {
      const b = box();
      // A bound above the ~38 MB of answers in service here: this case is about the held requests.
      b.env["MCP_POOL_MAX_UNREAD_MB"] = "64";
      const child =
        shim === "light"
          ? spawn(shimBash, [script, "daemon", "stdio", "ev"], { cwd: b.project, env: b.env, stdio: "pipe" })
          : spawn(process.execPath, [bin, "daemon", "stdio", "ev"], { cwd: b.project, env: b.env, stdio: "pipe" });
      child.stderr.resume();
      let text = "";
      const answered = new Map<number, number>();
      let opened: () => void = () => {};
      const open = new Promise<void>((resolve) => (opened = resolve));
      child.stdout.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n")) {
          const id = (JSON.parse(text.slice(0, end)) as { id?: unknown }).id;
          text = text.slice(end + 1);
          if (typeof id === "number") answered.set(id, (answered.get(id) ?? 0) + 1);
          if (id === 1) opened();
        }
      });
      child.stdin.write(initialize(1));
      await open;
      // From now on the host reads nothing it is sent.
      child.stdout.pause();
      // 2.2 MiB of requests in one go: the pool's mark (1 MiB) in service at once, the rest held past
      // it. First 5000 small tools/list, whose answers (the whole tool list, ~7.7 KB each: ~38 MB) are
      // more than any buffer between the daemon and the host holds; then requests of 1 KiB.
      const { lines, count: COUNT } = flood();
      child.stdin.write(lines);
      const ps = async (): Promise<Ps["servers"][number]["hosts"][number] | undefined> =>
        (await psJson<Ps>(b)).servers[0]?.hosts.find((h) => h.info.shimPid === child.pid);
      // The requests in service are all answered (into buffers the host does not read): none is in service.
      await expect.poll(async () => (await ps())?.queuedBytes, { timeout: 120_000, interval: 500 }).toBe(0);
      const host = (await ps())!;
      // Nothing held was started while the host read none of its answers: what was in service when its
      // output backed up was served, what was held past the mark still waits, unstarted.
      expect(host.heldBytes, JSON.stringify(host)).toBeGreaterThan(0);
      // The host reads again: every request is answered, exactly once.
      child.stdout.resume();
      await expect.poll(() => answered.size, { timeout: 120_000 }).toBe(COUNT + 1);
      expect([...answered.values()].every((n) => n === 1)).toBe(true);
      const exit = new Promise((resolve) => child.once("exit", resolve));
      child.stdin.end();
      await exit;
    },
    300_000,
  );

  it.each(["node", "light"] as const)(
    "through the %s shim: past the bound of answers left unread, its session is ended, said in the log and mcp ps",
    async (shim) => {
      const b = box();
      const child =
        shim === "light"
          ? spawn(shimBash, [script, "daemon", "stdio", "ev"], { cwd: b.project, env: b.env, stdio: "pipe" })
          : spawn(process.execPath, [bin, "daemon", "stdio", "ev"], { cwd: b.project, env: b.env, stdio: "pipe" });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      let text = "";
      const opened = new Promise<void>((resolve) =>
        child.stdout.on("data", function first(chunk: Buffer) {
          text += chunk.toString();
          if (!text.includes("\n")) return;
          child.stdout.off("data", first);
          resolve();
        }),
      );
      child.stdin.write(initialize(1));
      await opened;
      child.stdout.pause();
      child.stdin.write(flood().lines);
      // The daemon ends the session once more than 16 MiB waits unread for it: the shim's output ends.
      await expect
        .poll(async () => (await psJson<Ps>(b)).ended.map((e) => e.shimPid), { timeout: 120_000, interval: 500 })
        .toContain(child.pid);
      const ps = await psJson<Ps>(b);
      const ended = ps.ended.find((e) => e.shimPid === child.pid)!;
      expect(ended.reason).toMatch(/bytes of answers unread .*over the daemon's limit of 16777216/);
      expect(ps.maxUnreadBytes).toBe(16 * 1024 * 1024);
      // The bound and one answer (~7.7 KB), never the ~38 MB of answers in service.
      expect(ps.peakUnreadBytes).toBeLessThan(16 * 1024 * 1024 + 64 * 1024);
      expect(ps.servers.flatMap((s) => s.hosts.map((h) => h.info.shimPid))).not.toContain(child.pid);
      expect(daemonLog(b.home)).toContain(`ended the session of shim ${child.pid}`);
      // The host reads again (its stdin still open): the shim reads what was on its way, then exits. The
      // Node shim says the daemon went away (exit 1); the light shim's cat ends with its connection.
      child.stdout.resume();
      const code = await exited;
      if (shim === "node") expect([code, stderr]).toEqual([1, expect.stringContaining("the mcp daemon went away")]);
      child.stdin.destroy();
    },
    300_000,
  );
});
