// The user's own `npx -y @modelcontextprotocol/server-everything`, with `mcp` run from inside a
// repository that ships its own node_modules/@modelcontextprotocol/server-everything (and no MCP
// config): the CLI, the daemon and the gateway (`mcp serve`) all start the user's server, never the
// repository's. Real peers: the built CLI and its daemon, real npx (offline: the package is
// installed in the home), server-everything, and the official SDK client in front of the gateway.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { EVERYTHING_PACKAGE, hostileRepository, installEverything, type HostileRepository } from "mcp-test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";
import { stdioParams } from "./serve-helpers.js";

const offline = {
  npm_config_offline: "true",
  npm_config_update_notifier: "false",
  npm_config_audit: "false",
  npm_config_fund: "false",
};

describe.skipIf(process.platform === "win32")(
  "the user's npx server, with mcp run inside a repository that ships a package of the same name",
  () => {
    let box: Sandbox;
    let repo: HostileRepository;
    const hijacked = (): string =>
      existsSync(repo.marker) ? `the repository's own bin ran: ${readFileSync(repo.marker, "utf8")}` : "";

    beforeAll(() => {
      box = sandbox();
      installEverything(box.home);
      repo = hostileRepository(box.project);
      userConfig(box, {
        everything: { command: "npx", args: ["-y", EVERYTHING_PACKAGE], env: offline, timeout: 45_000 },
        local: { command: "./bin/server" },
      });
    });

    afterEach(() => rmSync(repo.marker, { force: true })); // each test answers for itself

    afterAll(async () => {
      await mcp(box, ["daemon", "stop"]);
      box?.remove();
    });

    it("mcp servers and mcp call connect the real server; a relative command in the user's config is refused, naming it", async () => {
      const listed = await mcp(box, ["servers", "--json"], { MCP_NO_DAEMON: "1" });
      expect(hijacked()).toBe("");
      const rows = JSON.parse(listed.stdout) as { name: string; status: string; tools: number; lastError?: string }[];
      expect(
        rows.find((row) => row.name === "everything"),
        listed.stderr,
      ).toMatchObject({ status: "connected" });
      expect(rows.find((row) => row.name === "everything")?.tools).toBeGreaterThan(10);
      const local = rows.find((row) => row.name === "local");
      expect(local?.status).toBe("invalid");
      expect(local?.lastError).toContain(
        `MCP server "local" in ${box.home}/.config/mcp-client/mcp-client.json: "command" "./bin/server" is a relative path, which would run whatever the current project has there`,
      );
      const call = await mcp(box, ["call", "everything.echo", "message=mine"], { MCP_NO_DAEMON: "1" });
      expect(call.code, call.stderr).toBe(0);
      expect(call.stdout).toContain("Echo: mine");
      expect(hijacked()).toBe("");
    }, 120_000);

    it("through the daemon: the call is served by it and reaches the real server", async () => {
      const started = await mcp(box, ["daemon", "start"]);
      expect(started.code, started.stderr).toBe(0);
      const call = await mcp(box, ["call", "everything.echo", "message=daemon"]);
      expect(call.code, call.stderr).toBe(0);
      expect(call.stderr).not.toMatch(/mcp daemon:/);
      expect(call.stdout).toContain("Echo: daemon");
      const status = JSON.parse((await mcp(box, ["--json", "daemon", "status"])).stdout) as { calls: number };
      expect(status.calls).toBeGreaterThanOrEqual(1);
      expect(hijacked()).toBe("");
    }, 120_000);

    it("mcp run by the project's package manager (its node_modules/.bin, which ships an npx, first on PATH) still starts the user's npx", async () => {
      const path = `${box.project}/node_modules/.bin:${box.project}/.venv/bin:${box.env["PATH"]}`;
      const call = await mcp(box, ["call", "everything.echo", "message=npm-run"], { MCP_NO_DAEMON: "1", PATH: path });
      expect(hijacked()).toBe("");
      expect(call.code, call.stderr).toBe(0);
      expect(call.stdout).toContain("Echo: npm-run");
      // The same through the daemon (started by the test before; without it the CLI calls itself).
      const again = await mcp(box, ["call", "everything.echo", "message=npm-run-daemon"], { PATH: path });
      expect(hijacked()).toBe("");
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain("Echo: npm-run-daemon");
    }, 120_000);

    it("through the gateway (mcp serve --stdio): the SDK client sees the real server's tools", async () => {
      const client = new Client({ name: "trust-caller", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ ...stdioParams(box), env: { ...box.env, MCP_NO_DAEMON: "1" } }));
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toContain("everything__echo");
        const result = (await client.callTool({ name: "everything__echo", arguments: { message: "gateway" } })) as {
          content: { text?: string }[];
        };
        expect(result.content[0]?.text).toBe("Echo: gateway");
      } finally {
        await client.close();
      }
      expect(hijacked()).toBe("");
    }, 120_000);
  },
);
