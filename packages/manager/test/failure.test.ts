// Why a server failed, found by the manager's helpers from what real crashed children left in
// their status: a Node server that throws at start, and one that dies after its handshake.
import { fileURLToPath } from "node:url";
import type { MCPServerConfig } from "@mcp/client";
import { waitFor } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { crashReportLines, failureCause, failureError, MCPManager, MemoryPinStore, stderrCause } from "../src/index.js";

const fixture = fileURLToPath(new URL("./fixtures/server.mjs", import.meta.url));
const managers: MCPManager[] = [];
function manager(options: ConstructorParameters<typeof MCPManager>[0] = {}): MCPManager {
  const m = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false, ...options });
  managers.push(m);
  return m;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.disconnectAll()));
});

// A server whose start throws inside a nested call: Node prints the error, its stack and a cause.
const THROWS = [
  "function connectDb() { throw new Error('cannot reach the database', { cause: new TypeError('fetch failed') }); }",
  "function main() { connectDb(); }",
  "main();",
].join("\n");

describe("why a server failed", () => {
  it("a Node server that throws at start: the innermost cause and how the process ended, stack frames left out", async () => {
    const m = manager();
    const crashing: MCPServerConfig = { command: process.execPath, args: ["-e", THROWS], timeout: 15_000 };
    await m.connectServers({ crashing });
    const status = m.getConnectionStatus("crashing")!;
    expect(status.state).toBe("failed");
    expect(status.stderrTail).toContain("at connectDb"); // the raw tail has the stack…
    expect(stderrCause(status.stderrTail)).toBe("TypeError: fetch failed");
    expect(failureCause(status)).toBe("TypeError: fetch failed (the process exited with code 1)");
    const lines = crashReportLines(status.stderrTail);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((line) => line.includes("cannot reach the database"))).toBe(true);
    expect(lines.filter((line) => /^\s*at\s/.test(line))).toEqual([]); // …the lines shown have none
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(crashReportLines(status.stderrTail, { whole: true }).some((line) => /^\s*at\s/.test(line))).toBe(true);
    expect(failureError(status)).not.toContain("\nstderr:");
  });

  it("a server that dies after its handshake and names no error: its own last words are shown, and the error says how it ended", async () => {
    const m = manager({ reconnect: { initialDelayMs: 20, maxDelayMs: 50, maxAttempts: 1, windowMs: 30_000 } });
    await m.connectServers({
      flaky: { command: process.execPath, args: [fixture, "--exit-after", "50"], timeout: 15_000 },
    });
    await waitFor(() => m.getConnectionStatus("flaky")?.state === "failed", 20_000);
    const status = m.getConnectionStatus("flaky")!;
    expect(stderrCause(status.stderrTail)).toBeUndefined(); // "oops: …" is not shaped like an error report
    expect(crashReportLines(status.stderrTail)).toContain("oops: lost the connection to the backend");
    expect(failureCause(status)).toMatch(/exited with code 3/);
    expect(failureCause(status)).not.toContain("stderr:");
  });

  it("a command that is not there: the error without the manager's 'Failed to start' prefix", async () => {
    const m = manager();
    await m.connectServers({ missing: { command: "no-such-mcp-binary-xyz" } });
    const status = m.getConnectionStatus("missing")!;
    expect(failureCause(status)).toMatch(/^command "no-such-mcp-binary-xyz": command not found/);
    expect(failureCause({ lastError: undefined, stderrTail: undefined })).toBe("unknown error");
  });
});
