import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ServerPool } from "../src/index.js";
import { alive, host, nextEvent } from "./helpers.js";

let pool: ServerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe("ServerPool on server-everything", () => {
  it("serves three host sessions from one process, each with its own ids, and ends it when they have all gone and it idled", async () => {
    pool = new ServerPool({ idleMs: 100 });
    const hosts = [host(pool), host(pool), host(pool)];
    const inits = await Promise.all(hosts.map((h) => h.initialize()));
    for (const init of inits) {
      expect(init.result.protocolVersion).toBe("2025-06-18");
      expect(init.result.serverInfo.name).toContain("everything");
    }
    // Each host's request id 2: answered to each with its own text.
    const answers = await Promise.all(
      hosts.map((h, i) => h.request("tools/call", { name: "echo", arguments: { message: `from ${i}` } })),
    );
    answers.forEach((answer, i) => expect(answer.result.content[0].text).toContain(`from ${i}`));
    const [status] = pool.statuses();
    expect(pool.statuses()).toHaveLength(1);
    expect(status!.hosts).toHaveLength(3);
    expect(status!.calls).toBe(3);
    expect(status!.sharing).toBe("shared");
    const pid = status!.pid!;
    expect(alive(pid)).toBe(true);
    if (process.platform === "linux") {
      expect(status!.rssBytes).toBeGreaterThan(1_000_000);
      expect(status!.cpuSeconds).toBeGreaterThan(0); // starting Node alone takes tens of milliseconds
    }
    const reaped = nextEvent(pool, "reaped");
    for (const h of hosts) h.session.close();
    expect(await reaped).toMatchObject({ reason: "idle", pid });
    expect(alive(pid)).toBe(false);
    expect(pool.statuses()).toHaveLength(0);
  });

  it("answers a host asking another protocol version from a process opened with that version", async () => {
    pool = new ServerPool();
    const [a, b, c] = [host(pool), host(pool), host(pool)];
    expect((await a.initialize({}, "2025-06-18")).result.protocolVersion).toBe("2025-06-18");
    expect((await b.initialize({}, "2025-06-18")).result.protocolVersion).toBe("2025-06-18");
    expect((await c.initialize({}, "2024-11-05")).result.protocolVersion).toBe("2024-11-05");
    expect(
      pool
        .statuses()
        .map((s) => s.hosts.length)
        .sort(),
    ).toEqual([1, 2]);
  });

  it("gives a host that declares roots or sampling its own process, and asks only that host", async () => {
    pool = new ServerPool();
    const plain = host(pool);
    const asked: string[] = [];
    const withRoots = host(
      pool,
      (method) => (asked.push(method), method === "roots/list" ? { roots: [{ uri: "file:///tmp/a", name: "a" }] } : {}),
    );
    await plain.initialize();
    await withRoots.initialize({ roots: { listChanged: true } });
    const roots = await withRoots.request("tools/call", { name: "get-roots-list", arguments: {} });
    expect(JSON.stringify(roots.result)).toContain("file:///tmp/a");
    expect(asked).toContain("roots/list");
    expect(
      pool
        .statuses()
        .map((s) => s.sharing)
        .sort(),
    ).toEqual(["dedicated", "shared"]);
    // The shared process declared no roots: the tool is not even listed there.
    const list = await plain.request("tools/list");
    expect(list.result.tools.map((t: { name: string }) => t.name)).not.toContain("get-roots-list");
    const dedicated = pool.statuses().find((s) => s.sharing === "dedicated")!;
    const reaped = nextEvent(pool, "reaped");
    withRoots.session.close();
    expect(await reaped).toMatchObject({ reason: "session ended", pid: dedicated.pid });
  });

  it("sends progress to the host whose call it is, with that host's token", async () => {
    pool = new ServerPool();
    const [a, b] = [host(pool), host(pool)];
    await a.initialize();
    await b.initialize();
    await Promise.all([
      a.request("tools/call", {
        name: "trigger-long-running-operation",
        arguments: { duration: 0.2, steps: 2 },
        _meta: { progressToken: "a-token" },
      }),
      b.request("tools/call", { name: "echo", arguments: { message: "x" } }),
    ]);
    const progress = a.notifications.filter((n) => n.method === "notifications/progress");
    expect(progress.length).toBe(2);
    expect(progress.every((n) => n.params.progressToken === "a-token")).toBe(true);
    expect(b.notifications.filter((n) => n.method === "notifications/progress")).toEqual([]);
  });

  it("fails the call in flight when the server crashes, restarts it once for the hosts still attached, and ends them after a second crash", async () => {
    pool = new ServerPool();
    const [a, b] = [host(pool), host(pool)];
    await a.initialize();
    await b.initialize();
    const first = pool.statuses()[0]!.pid!;
    const spawned = nextEvent(pool, "spawned", (e) => e.pid !== first);
    const inFlight = a.request("tools/call", {
      name: "trigger-long-running-operation",
      arguments: { duration: 20, steps: 200 },
      _meta: { progressToken: 1 },
    });
    await expect.poll(() => a.notifications.some((n) => n.method === "notifications/progress")).toBe(true);
    process.kill(first, "SIGKILL");
    const failed = await inFlight;
    expect(failed.error.message).toMatch(/exited while handling tools\/call; it may have run, so it is not sent again/);
    await spawned;
    const again = await b.request("tools/call", { name: "echo", arguments: { message: "after" } });
    expect(again.result.content[0].text).toContain("after");
    const status = pool.statuses()[0]!;
    expect(status.restarts).toBe(1);
    expect(status.pid).not.toBe(first);
    process.kill(status.pid!, "SIGKILL");
    expect(await a.ended).toMatch(/exited again after its restart/);
    expect(await b.ended).toMatch(/exited again/);
    expect(pool.statuses()).toHaveLength(0);
  });

  it("holds tools/call beyond the concurrent-call cap until one ends", async () => {
    pool = new ServerPool({ maxConcurrentCalls: 1 });
    const [a, b] = [host(pool), host(pool)];
    await a.initialize();
    await b.initialize();
    const long = a.request("tools/call", {
      name: "trigger-long-running-operation",
      arguments: { duration: 0.5, steps: 5 },
      _meta: { progressToken: 1 },
    });
    await expect.poll(() => a.notifications.length).toBeGreaterThan(0);
    const waiting = b.request("tools/call", { name: "echo", arguments: { message: "queued" } });
    await expect.poll(() => pool!.statuses()[0]!.queued).toBe(1);
    expect((await waiting).result.content[0].text).toContain("queued");
    await long;
  });

  it("sends resources/updated only to the subscribed host, and a log during a call only to the caller", async () => {
    pool = new ServerPool();
    const [a, b] = [host(pool), host(pool)];
    await a.initialize();
    await b.initialize();
    const uri = "demo://resource/dynamic/text/1";
    expect((await a.request("resources/subscribe", { uri })).result).toEqual({});
    // B's call starts the updates (one at once) and the logs (one at once, while B's call is in flight).
    await b.request("tools/call", { name: "toggle-subscriber-updates", arguments: {} });
    await expect
      .poll(() => a.notifications.some((n) => n.method === "notifications/resources/updated" && n.params.uri === uri))
      .toBe(true);
    expect(b.notifications.filter((n) => n.method === "notifications/resources/updated")).toEqual([]);
    // The server's log about A's subscribe came while only A's request was in flight: A's alone.
    const logs = (h: typeof a): string[] =>
      h.notifications.filter((n) => n.method === "notifications/message").map((n) => String(n.params.data));
    expect(logs(a).some((data) => data.includes(`Subscribe Resource request for URI: ${uri}`))).toBe(true);
    expect(logs(b).some((data) => data.includes("Subscribe Resource"))).toBe(false);
    a.notifications.length = 0;
    await b.request("tools/call", { name: "toggle-simulated-logging", arguments: {} });
    expect(b.notifications.filter((n) => n.method === "notifications/message").length).toBeGreaterThanOrEqual(1);
    expect(a.notifications.filter((n) => n.method === "notifications/message")).toEqual([]);
    // The last host to unsubscribe unsubscribes the server.
    expect((await a.request("resources/unsubscribe", { uri })).result).toEqual({});
  });

  it("shows, reads and cancels a task only for the host session that created it", async () => {
    pool = new ServerPool();
    const [a, b] = [host(pool), host(pool)];
    await a.initialize({}, "2025-11-25");
    await b.initialize({}, "2025-11-25");
    const created = await a.request("tools/call", {
      name: "simulate-research-query",
      arguments: { topic: "pools" },
      task: { ttl: 60_000 },
    });
    const taskId = created.result.task.taskId as string;
    expect(typeof taskId).toBe("string");
    expect((await a.request("tasks/list")).result.tasks.map((t: { taskId: string }) => t.taskId)).toContain(taskId);
    expect((await b.request("tasks/list")).result.tasks).toEqual([]);
    expect((await b.request("tasks/get", { taskId })).error).toMatchObject({
      code: -32602,
      message: `Invalid params: no task "${taskId}" of this session`,
    });
    expect((await b.request("tasks/cancel", { taskId })).error.code).toBe(-32602);
    expect((await a.request("tasks/get", { taskId })).result.taskId).toBe(taskId);
    expect(b.notifications.filter((n) => n.method === "notifications/tasks/status")).toEqual([]);
  });

  it.skipIf(process.platform !== "linux")(
    "stops a server over the memory cap and tells its hosts how much it used",
    async () => {
      pool = new ServerPool({ maxRssBytes: 1024 * 1024, rssCheckMs: 50 });
      const h = host(pool);
      const reaped = nextEvent(pool, "reaped");
      void h.initialize(); // the server is over 1 MB before it can answer: the session ends instead
      const { pid, reason } = await reaped;
      expect(reason).toBe("over memory cap");
      expect(await h.ended).toMatch(
        /^the pooled server "everything" used \d+ MB, over the pool's memory cap of 1 MB: it was stopped$/,
      );
      expect(alive(pid)).toBe(false);
    },
  );

  it("refuses a request before initialize, and a config without a command", () => {
    pool = new ServerPool();
    expect(() => pool!.attach({ name: "x", config: { command: "" }, send: () => {} })).toThrow(
      /config.command must be a non-empty string \(server "x"\)/,
    );
    const h = host(pool);
    return expect(h.request("tools/list")).resolves.toMatchObject({
      error: { code: -32600, message: "Invalid Request: tools/list before initialize" },
    });
  });

  it("a host that opens with initialize and then sends server/discover leaves no process behind when it goes", async () => {
    pool = new ServerPool({ idleMs: 100 });
    const h = host(pool, () => ({ roots: [] }));
    await h.initialize({ roots: {} });
    const [dedicated] = pool.statuses();
    expect(dedicated).toMatchObject({ sharing: "dedicated" });
    // Refused: the session stays its 2025 process's alone, which ends with it.
    expect(await h.request("server/discover", {})).toMatchObject({
      error: { code: -32600, message: "Invalid Request: server/discover after initialize on this session" },
    });
    expect(pool.statuses().map((s) => s.hosts.length)).toEqual([1]);
    const reaped = nextEvent(pool, "reaped", (value: { pid: number }) => value.pid === dedicated!.pid);
    h.session.close();
    expect(await reaped).toMatchObject({ reason: "session ended" });
    expect(alive(dedicated!.pid!)).toBe(false);
    expect(pool.statuses()).toEqual([]);
  });

  it("passes no server notification naming the pool's own ids to a host: a late progress or a cancelled about a finished call reaches nobody", async () => {
    pool = new ServerPool();
    const config = {
      command: process.execPath,
      args: [fileURLToPath(new URL("./fixtures/late-notes.mjs", import.meta.url))],
    };
    const [a, b] = [host(pool, undefined, "late", config), host(pool, undefined, "late", config)];
    await a.initialize();
    await b.initialize();
    expect(
      (await a.request("tools/call", { name: "x", arguments: { who: "A" }, _meta: { progressToken: "a-token" } }))
        .result.content[0].text,
    ).toBe("done");
    // The server wrote its late notes before this answer: they were routed (or not) by now.
    expect((await b.request("tools/list")).result).toEqual({ tools: [] });
    expect(b.notifications).toEqual([]);
    expect(a.notifications).toEqual([]);
  });

  it("tells a host of a shared process that crashed nothing of its stderr, which is about every host's calls", async () => {
    pool = new ServerPool();
    const config = {
      command: process.execPath,
      args: [fileURLToPath(new URL("./fixtures/late-notes.mjs", import.meta.url))],
    };
    const [a, b] = [host(pool, undefined, "late", config), host(pool, undefined, "late", config)];
    await a.initialize();
    await b.initialize();
    await a.request("tools/call", { name: "x", arguments: { who: "A-private-argument" } });
    const failed = await b.request("tools/call", { name: "x", arguments: { who: "crash" } });
    expect(failed.error.message).toContain('the pooled server "late" exited while handling tools/call');
    expect(JSON.stringify(failed)).not.toContain("A-private-argument");
  });
});
