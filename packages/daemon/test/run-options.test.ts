// A daemon's settings from a command line's units and the environment (what `mcp daemon run` gives
// startDaemon), and the arguments that pass the same flags to a daemon started in the background.
import { describe, expect, it } from "vitest";
import { DaemonError, daemonRunArgs, daemonRunOptions } from "../src/client.js";

const MINUTE = 60_000;

describe("daemonRunOptions", () => {
  it("defaults: an hour idle, servers stopped after 10 minutes, the pool's 10 minutes and 16 calls, no memory cap", () => {
    expect(daemonRunOptions({}, {})).toEqual({
      idleMs: 60 * MINUTE,
      serverIdleMs: 10 * MINUTE,
      keepAlive: [],
      poolIdleMs: 10 * MINUTE,
      poolMaxCalls: 16,
      poolMaxRssBytes: undefined,
      poolMaxUnreadBytes: undefined,
    });
  });

  it("flags in minutes and megabytes win over the environment", () => {
    const env = { MCP_POOL_IDLE_MS: "5", MCP_POOL_MAX_CALLS: "3", MCP_POOL_MAX_RSS_MB: "7" };
    expect(
      daemonRunOptions(
        { idle: 1.5, serverIdle: 2, keepAlive: ["a"], poolIdle: 0.5, poolMaxCalls: 4, poolMaxRss: 64 },
        env,
      ),
    ).toEqual({
      idleMs: 90_000,
      serverIdleMs: 2 * MINUTE,
      keepAlive: ["a"],
      poolIdleMs: 30_000,
      poolMaxCalls: 4,
      poolMaxRssBytes: 64 * 1024 * 1024,
      poolMaxUnreadBytes: undefined,
    });
  });

  it("the environment fills the pool's settings: ms, calls rounded down and at least 1, MB (0: no cap)", () => {
    expect(
      daemonRunOptions(
        {},
        { MCP_POOL_IDLE_MS: "250", MCP_POOL_MAX_CALLS: "2.9", MCP_POOL_MAX_RSS_MB: "32", MCP_POOL_MAX_UNREAD_MB: "2" },
      ),
    ).toMatchObject({
      poolIdleMs: 250,
      poolMaxCalls: 2,
      poolMaxRssBytes: 32 * 1024 * 1024,
      poolMaxUnreadBytes: 2 * 1024 * 1024,
    });
    expect(
      daemonRunOptions({}, { MCP_POOL_MAX_CALLS: "0", MCP_POOL_MAX_RSS_MB: "0", MCP_POOL_IDLE_MS: "" }),
    ).toMatchObject({
      poolIdleMs: 10 * MINUTE,
      poolMaxCalls: 1,
      poolMaxRssBytes: undefined,
    });
  });

  it.each([
    ["MCP_POOL_MAX_RSS_MB", "lots"],
    ["MCP_POOL_IDLE_MS", "-1"],
    ["MCP_POOL_MAX_CALLS", "Infinity"],
    ["MCP_POOL_MAX_UNREAD_MB", "-2"],
  ])("%s=%s is a usage error naming the variable", (name, value) => {
    let error: unknown;
    try {
      daemonRunOptions({}, { [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DaemonError);
    expect(error).toMatchObject({
      message: `${name} must be a non-negative number; got ${JSON.stringify(value)}`,
      exitCode: 2,
    });
  });

  it("a variable whose flag is given is not read", () => {
    expect(daemonRunOptions({ poolMaxCalls: 5 }, { MCP_POOL_MAX_CALLS: "lots" }).poolMaxCalls).toBe(5);
  });
});

describe("daemonRunArgs", () => {
  it("gives back the flags given, in the daemon's spelling, and nothing else", () => {
    expect(daemonRunArgs({})).toEqual([]);
    expect(
      daemonRunArgs({ idle: 5, serverIdle: 1, keepAlive: ["a", "b"], poolIdle: 2, poolMaxCalls: 3, poolMaxRss: 0 }),
    ).toEqual([
      "--idle",
      "5",
      "--server-idle",
      "1",
      "--keep-alive",
      "a,b",
      "--pool-idle",
      "2",
      "--pool-max-calls",
      "3",
      "--pool-max-rss",
      "0",
    ]);
    expect(daemonRunArgs({ keepAlive: [] })).toEqual([]);
  });
});
