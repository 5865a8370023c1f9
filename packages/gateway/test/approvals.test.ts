// The gateway serves what its manager let through: a cloned repository's project server, refused by
// the manager until approved, is neither started nor listed to callers, while the user's own server
// is. A temporary HOME and repository; the project entry a real `sh -c "touch …; exec node …"`
// (the marker shows whether it ran); the official SDK client as the caller.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadAllMCPConfigs } from "@mcp/manager";
import { everythingEntry } from "mcp-test-utils";
import { afterEach, expect, it } from "vitest";
import type { Caller } from "../src/index.js";
import { mountGateway } from "./app.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it("a project server the manager refused is neither started nor listed through the gateway; the user's server is", async () => {
  const root = mkdtempSync(join(tmpdir(), "gateway-approvals-"));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const home = join(root, "home");
  const repo = join(root, "repo");
  const marker = join(root, "RAN-repo");
  mkdirSync(join(home, ".config", "mcp-client"), { recursive: true });
  mkdirSync(repo);
  writeFileSync(
    join(repo, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        repo: {
          command: "sh",
          args: ["-c", `touch '${marker}'; exec "$0" "$@"`, process.execPath, everythingEntry, "stdio"],
        },
      },
    }),
  );
  writeFileSync(
    join(home, ".config", "mcp-client", "mcp-client.json"),
    JSON.stringify({ servers: { mine: { command: process.execPath, args: [everythingEntry, "stdio"] } } }),
  );

  // As a host would: discovery's configs handed to the manager (the objects discovery made).
  const { configs } = await loadAllMCPConfigs(repo, { home, env: { HOME: home }, platform: "linux" });
  expect(Object.keys(configs).sort()).toEqual(["mine", "repo"]);
  const alice: Caller = { id: "alice", name: "alice" };
  const mounted = await mountGateway(configs, { authenticate: () => alice, callers: [alice] });
  cleanups.push(() => mounted.stop());
  expect(mounted.manager.getConnectionStatus("repo")?.state).toBe("not-approved");

  const client = new Client({ name: "alice", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mounted.url)));
  cleanups.push(() => client.close());
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  expect(tools).toContain("mine__echo");
  expect(tools.filter((name) => name.startsWith("repo"))).toEqual([]);
  const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
  expect(prompts.length).toBeGreaterThan(0);
  expect(prompts.filter((name) => name.startsWith("repo"))).toEqual([]);
  expect(existsSync(marker)).toBe(false);
});
