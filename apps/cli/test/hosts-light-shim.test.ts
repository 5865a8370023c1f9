// `mcp hosts pool` writes the light shim (`mcp-shim`) where it works (on PATH, bash with /dev/tcp),
// unpool restores the file byte for byte, and an approved project server pooled that way is served
// through the script without a new approval.
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildChildEnv } from "@mcp/transport-stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { everythingEntry } from "mcp-test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mcp, sandbox, type Sandbox } from "./helpers.js";
import { linkShimBash } from "./shim-bash.js";

const script = fileURLToPath(new URL("../shim/mcp-shim", import.meta.url));

describe.skipIf(process.platform !== "linux")("mcp hosts pool with the light shim", () => {
  let box: Sandbox;
  beforeEach(() => {
    box = sandbox();
    // `mcp-shim` on PATH, a link to the package's script as a global install makes it (no `mcp` beside it: the script finds the CLI through its link).
    const bin = join(box.home, "bin");
    mkdirSync(bin);
    symlinkSync(script, join(bin, "mcp-shim"));
    linkShimBash(bin); // `bash` here is MCP_SHIM_BASH when set (the script's #!/usr/bin/env bash, pool's /dev/tcp check)
    box.env["PATH"] = `${bin}:${box.env["PATH"]}`;
  });
  afterEach(async () => {
    await mcp(box, ["daemon", "stop"]);
    box.remove();
  });

  it("writes mcp-shim, serves the approved project server through it, and unpool restores the file byte for byte", async () => {
    const original = `{
  // the project's servers
  "mcpServers": {
    "proj": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(everythingEntry)}, "stdio"] }
  }
}
`;
    const file = box.write(join(box.project, ".cursor", "mcp.json"), original);
    const approved = await mcp(box, ["config", "approve", "proj"]);
    expect(approved.code, approved.stderr).toBe(0);
    const pooled = await mcp(box, ["hosts", "pool", "cursor", "--scope", "project"]);
    expect(pooled.code, pooled.stderr).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text).toContain(
      `"command": "mcp-shim", "args": ["daemon", "stdio", "proj", "--from", "cursor:project", "--", `,
    );

    // The host runs the entry as written (mcp-shim found on PATH): the original is served, no new approval asked.
    const client = new Client({ name: "sdk-host", version: "1.0.0" }, { capabilities: {} });
    await client.connect(
      new StdioClientTransport({
        command: "mcp-shim",
        args: ["daemon", "stdio", "proj", "--from", "cursor:project", "--", process.execPath, everythingEntry, "stdio"],
        env: buildChildEnv(box.env, false),
        cwd: box.project,
        stderr: "pipe",
      }),
    );
    const result = (await client.callTool({ name: "echo", arguments: { message: "pooled" } })) as {
      content: { text: string }[];
    };
    expect(result.content[0]?.text).toContain("pooled");
    await client.close();

    const unpooled = await mcp(box, ["hosts", "unpool", "cursor", "--scope", "project"]);
    expect(unpooled.code, unpooled.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(original);
  }, 90_000);

  it("writes mcp when --shim mcp says so", async () => {
    const file = box.write(join(box.home, ".cursor", "mcp.json"), {
      mcpServers: { ev: { command: process.execPath, args: [everythingEntry, "stdio"] } },
    });
    const pooled = await mcp(box, ["hosts", "pool", "cursor", "--scope", "user", "--shim", "mcp"]);
    expect(pooled.code, pooled.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).mcpServers.ev.command).toBe("mcp");
  }, 60_000);
});
