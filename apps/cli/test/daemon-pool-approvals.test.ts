// The daemon's pool checks approvals on the same file `mcp config approve` writes: an approved
// project server is served through the shim (both checks let it through), an edit refuses it again.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { buildChildEnv } from "@mcp/transport-stdio";
import { everythingEntry } from "mcp-test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bin, mcp, sandbox, type Sandbox } from "./helpers.js";

/** A raw host: the shim as its server's command, one initialize; its answer, or the shim's exit and stderr. */
function initializeThroughShim(
  box: Sandbox,
  server: string,
  extraEnv: Record<string, string> = {},
): Promise<{ answer?: any; code?: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, "daemon", "stdio", server], {
    env: { ...buildChildEnv(box.env, false), ...extraEnv },
    cwd: box.project,
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } })}\n`,
  );
  return new Promise((resolve) => {
    let answer: unknown;
    createInterface({ input: child.stdout }).once("line", (line) => {
      answer = JSON.parse(line);
      child.stdin.end(); // the host is done: the shim exits
    });
    child.once("close", (code) => resolve(answer === undefined ? { code, stderr } : { answer, stderr }));
  });
}

describe.skipIf(process.platform !== "linux")("approvals through mcp daemon stdio", () => {
  let box: Sandbox;
  beforeEach(() => {
    box = sandbox();
  });
  afterEach(async () => {
    await mcp(box, ["daemon", "stop"]);
    box.remove();
  });

  it("serves a project server once mcp config approve approved it, and refuses it after the file changes", async () => {
    const write = (env?: Record<string, string>) =>
      writeFileSync(
        join(box.project, ".mcp.json"),
        JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [everythingEntry, "stdio"], env } } }),
      );
    write();
    expect((await mcp(box, ["config", "approve", "proj"])).code).toBe(0);
    const served = await initializeThroughShim(box, "proj");
    expect(served).toMatchObject({ answer: { result: expect.anything() } });
    expect(served.answer?.result?.serverInfo?.name).toContain("everything");

    write({ NODE_OPTIONS: "--require ./x.cjs" });
    const refused = await initializeThroughShim(box, "proj");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/project server "proj" is not served: changed since it was approved: env/);
  }, 60_000);
  it("serves an approved project server whose entry uses a ${VAR} the daemon was started without", async () => {
    writeFileSync(
      join(box.project, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          proj: { command: process.execPath, args: [everythingEntry, "stdio"], env: { TOKEN: "${MY_TOKEN}" } },
        },
      }),
    );
    // The daemon runs already, started where MY_TOKEN is not set (another host, another terminal).
    expect((await mcp(box, ["daemon", "start"])).code).toBe(0);
    const shell = { ...box, env: { ...box.env, MY_TOKEN: "from-this-shell" } };
    expect((await mcp(shell, ["config", "approve", "proj"])).code).toBe(0);
    const served = await initializeThroughShim(box, "proj", { MY_TOKEN: "from-this-shell" });
    expect(served.stderr).toBe("");
    expect(served.answer?.result?.serverInfo?.name).toContain("everything");
    // Another value in another shell is not what was approved.
    const other = await initializeThroughShim(box, "proj", { MY_TOKEN: "another" });
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/project server "proj" is not served: changed since it was approved: env/);
  }, 60_000);
});
