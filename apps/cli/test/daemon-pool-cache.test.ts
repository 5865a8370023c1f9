// Start on first use through `mcp daemon stdio`: a host's initialize and tools/list are answered
// from the list the daemon's pool read live before, with no server process; its first call starts it.
import { readFileSync } from "node:fs";
import { processTree } from "@mcp/pool";
import { buildChildEnv } from "@mcp/transport-stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { v2StdioEntry } from "mcp-test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bin, mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";

interface PsJson {
  servers: { name: string; pid?: number; state: string; hosts: unknown[] }[];
}

async function ps(box: Sandbox): Promise<PsJson> {
  const run = await mcp(box, ["--json", "ps"]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as PsJson;
}

/** The daemon's processes that run the SDK v2 server fixture (from /proc): the upstream, if any. */
async function upstreams(box: Sandbox): Promise<number[]> {
  const status = await mcp(box, ["--json", "daemon", "status"]);
  const daemon = (JSON.parse(status.stdout) as { pid: number }).pid;
  return processTree(daemon).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(v2StdioEntry);
    } catch {
      return false; // gone meanwhile
    }
  });
}

async function sdkHost(box: Sandbox): Promise<Client> {
  const client = new Client({ name: "sdk-host", version: "1.0.0" }, { capabilities: {} });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, "daemon", "stdio", "v2"],
      env: buildChildEnv(box.env, false),
      cwd: box.project,
      stderr: "pipe",
    }),
  );
  return client;
}

describe.skipIf(process.platform !== "linux")("mcp daemon stdio: start on first use", () => {
  let box: Sandbox;
  beforeEach(() => {
    box = sandbox();
    box.env["MCP_POOL_IDLE_MS"] = "200";
    userConfig(box, { v2: { command: process.execPath, args: [v2StdioEntry, "serve"] } });
  });
  afterEach(async () => {
    await mcp(box, ["daemon", "stop"]);
    box.remove();
  });

  it("answers a host's initialize and tools/list with no server process once one host listed it live; tools/call starts it", async () => {
    // The first host ever: the server starts at initialize, and its live list is remembered.
    const first = await sdkHost(box);
    const live = await first.listTools();
    await first.close();
    await expect.poll(async () => (await ps(box)).servers, { timeout: 20_000 }).toEqual([]);
    expect(await upstreams(box)).toEqual([]);

    const host = await sdkHost(box);
    expect(host.getServerVersion()).toMatchObject({ name: "sdk-v2-test-server" });
    expect(await host.listTools()).toEqual(live);
    const [cached] = (await ps(box)).servers;
    expect(cached).toMatchObject({ name: "v2", state: "cached", hosts: [expect.anything()] });
    expect(cached!.pid).toBeUndefined();
    expect(await upstreams(box)).toEqual([]);

    const sum = await host.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    expect((sum.content as { text: string }[])[0]!.text).toBe("42");
    const [running] = (await ps(box)).servers;
    expect(running).toMatchObject({ state: "ready", pid: expect.any(Number) });
    expect(await upstreams(box)).toEqual([running!.pid]);
    await host.close();
  }, 90_000);
});
