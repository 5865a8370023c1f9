// A server whose process dies while `mcp call` (or `mcp read`) waits for its answer (issue 58): the error's first
// line names the cause its stderr gives and how the process ended, never `Transport closed`; its
// stderr follows once. The server is a real child on the official SDK (fixtures/crash-mid-call.mjs).
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { mcp, sandboxes, userConfig } from "./helpers.js";

const crashing = fileURLToPath(new URL("./fixtures/crash-mid-call.mjs", import.meta.url));
const { box, removeAll } = sandboxes();
afterAll(removeAll);

const lines = (text: string): string[] => text.trimEnd().split("\n");

describe("a server that dies during a call", () => {
  it("a crash: the headline names the error the server's stderr reports and its exit code; the stderr follows once", async () => {
    const run = await mcp(box(), ["--stdio", `"${process.execPath}" "${crashing}"`, "call", "crash"], {
      MCP_NO_DAEMON: "1",
    });
    expect(run.code).toBe(1);
    const [headline, ...rest] = lines(run.stderr);
    expect(headline).toBe(
      "error: calling stdio.crash: the server stopped during the call: the database connection was lost (the process exited with code 1). Check whether it took effect before calling it again.",
    );
    expect(run.stderr).not.toContain("Transport closed");
    // Node's report, stack frames left out, once.
    expect(rest[0]).toBe("    stderr: Error: the database connection was lost");
    expect(run.stderr.split("the database connection was lost").length - 1).toBe(2);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it("a kill with nothing on stderr: the headline names the signal", async () => {
    const run = await mcp(box(), ["--stdio", `"${process.execPath}" "${crashing}"`, "call", "crash", "how=kill"], {
      MCP_NO_DAEMON: "1",
    });
    expect(run.code).toBe(1);
    expect(lines(run.stderr)[0]).toBe(
      "error: calling stdio.crash: the server stopped during the call: the process was killed by SIGKILL. Check whether it took effect before calling it again.",
    );
    expect(run.stderr).not.toContain("Transport closed");
  });

  it("a crash while a resource is read: the same cause, not Transport closed", async () => {
    const run = await mcp(box(), ["--stdio", `"${process.execPath}" "${crashing}"`, "read", "stdio", "crash://now"]);
    expect(run.code).toBe(1);
    expect(lines(run.stderr)[0]).toBe(
      'error: server "stdio" could not read crash://now: the server stopped during the read: the database connection was lost (the process exited with code 1)',
    );
    expect(run.stderr).not.toContain("Transport closed");
  });

  it.skipIf(process.platform === "win32")(
    "through the daemon: the same headline",
    async () => {
      const b = box();
      userConfig(b, { db: { command: process.execPath, args: [crashing] } });
      expect((await mcp(b, ["daemon", "start"])).code).toBe(0);
      try {
        const run = await mcp(b, ["call", "db.crash"]);
        expect(run.code).toBe(1);
        expect(run.stderr).not.toContain("starting the server here instead");
        expect(lines(run.stderr)[0]).toBe(
          "error: calling db.crash: the server stopped during the call: the database connection was lost (the process exited with code 1). Check whether it took effect before calling it again.",
        );
      } finally {
        await mcp(b, ["daemon", "stop"]);
      }
    },
    60_000,
  );
});
