// Where the socket lives and whether a client may trust it: MCP_DAEMON_SOCKET, the cache folder,
// a path too long for a socket; a folder others may enter is refused by the daemon and the client.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  checkSocket,
  claimSocketFolder,
  daemonRequest,
  daemonSocketPath,
  DaemonError,
  DaemonUntrusted,
  startDaemon,
} from "../src/index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-daemon-place-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("daemonSocketPath", () => {
  it("is MCP_DAEMON_SOCKET when set, else daemon/daemon.sock in the cache folder", () => {
    expect(daemonSocketPath(join(dir, "cache"), { MCP_DAEMON_SOCKET: "/x/y.sock" })).toBe("/x/y.sock");
    expect(daemonSocketPath(join(dir, "cache"), {})).toBe(join(dir, "cache", "daemon", "daemon.sock"));
  });

  it("a cache folder too long for a socket: a folder of its own in the temp folder, named for this user", () => {
    const long = join(dir, "c".repeat(120));
    const path = daemonSocketPath(long, {});
    expect(path.startsWith(join(tmpdir(), `mcp-cli-${process.getuid!()}-`))).toBe(true);
    expect(Buffer.byteLength(path)).toBeLessThan(100);
  });
});

describe("the socket's folder", () => {
  it("claimSocketFolder makes it with mode 700; one others may enter is refused with a DaemonError saying why", () => {
    const socket = join(dir, "mine", "daemon.sock");
    expect(claimSocketFolder(join(dir, "cache"), socket)).toBe(socket);
    expect(checkSocket(socket)).toEqual({ state: "absent" });
    const open = join(dir, "open");
    mkdirSync(open);
    chmodSync(open, 0o755);
    const error = (() => {
      try {
        claimSocketFolder(join(dir, "cache"), join(open, "daemon.sock"));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DaemonError);
    expect((error as Error).message).toContain(`the folder ${open} has mode 755, not 700 (other users may enter it)`);
  });

  it("a client sends nothing to a socket in a folder others may enter", async () => {
    const open = join(dir, "open");
    mkdirSync(open, { mode: 0o700 });
    const socket = join(open, "daemon.sock");
    let connected = false;
    const server = createServer(() => (connected = true));
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    chmodSync(open, 0o755);
    try {
      expect(checkSocket(socket)).toEqual({
        state: "foreign",
        problem: `the folder ${open} has mode 755, not 700 (other users may enter it)`,
      });
      await expect(daemonRequest(socket, "status", {})).rejects.toBeInstanceOf(DaemonUntrusted);
      expect(connected).toBe(false);
      // Nor does a daemon start there.
      await expect(startDaemon({ socket, home: join(dir, "home") })).rejects.toBeInstanceOf(DaemonError);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
