// Security guarantees that cut across layers, each proven against a real child process or socket.
// (Others live beside the code they guard; docs/reliability.md lists them all with their tests.)
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { callTool, connectToServer, disconnectServer, type MCPServerConfig } from "@mcp/client";
import { MCPManager, MemoryPinStore, loadAllMCPConfigs } from "@mcp/manager";
import { DEFAULT_NETWORK_ENV_VARS } from "@mcp/transport-stdio";
import { freePort, startSdkServer } from "mcp-test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { startHttpFault, stopChild } from "./harness.js";

const envServer = fileURLToPath(new URL("./fixtures/env-server.mjs", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "mcp-security-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Self {
  argv: string[];
  env: Record<string, string>;
}
async function selfOf(config: Record<string, unknown>): Promise<Self> {
  const conn = await connectToServer("env", { command: process.execPath, args: [envServer], ...config } as never);
  try {
    const result = await callTool(conn, "self", {});
    return JSON.parse((result.content[0] as { text: string }).text) as Self;
  } finally {
    await disconnectServer(conn);
  }
}

describe("a stdio server's environment and arguments", () => {
  it("sees only the safe base environment plus its env, unless inheritEnv", async () => {
    process.env["MCP_TEST_PARENT_SECRET"] = "parent-secret-value";
    try {
      const plain = await selfOf({ env: { GIVEN: "yes" } });
      expect(plain.env["GIVEN"]).toBe("yes");
      expect(plain.env["MCP_TEST_PARENT_SECRET"]).toBeUndefined();
      expect(Object.values(plain.env)).not.toContain("parent-secret-value");
      // Only the safe names, the proxy and CA variables (and what node itself sets) are there.
      const safe = new Set([
        "HOME",
        "LOGNAME",
        "PATH",
        "SHELL",
        "TERM",
        "USER",
        "TMPDIR",
        "LANG",
        "GIVEN",
        ...DEFAULT_NETWORK_ENV_VARS,
      ]);
      expect(Object.keys(plain.env).filter((name) => !safe.has(name))).toEqual([]);
      const inherited = await selfOf({ inheritEnv: true });
      expect(inherited.env["MCP_TEST_PARENT_SECRET"]).toBe("parent-secret-value");
    } finally {
      delete process.env["MCP_TEST_PARENT_SECRET"];
    }
  });

  it("gets its args literally: no shell, no interpolation", async () => {
    const marker = join(scratch, "pwned");
    const args = [
      `$(touch ${marker})`,
      `\`touch ${marker}\``,
      `; touch ${marker}`,
      `| touch ${marker}`,
      "*",
      "${HOME}",
      "'quoted' \"twice\"",
      "new\nline",
    ];
    const self = await selfOf({ args: [envServer, ...args] });
    expect(self.argv).toEqual(args);
    expect(existsSync(marker)).toBe(false);
  });

  it("a config file cannot make the manager run anything but its command, nor read files through expansion", async () => {
    const home = join(scratch, "home");
    const project = join(scratch, "project");
    mkdirSync(home, { recursive: true });
    mkdirSync(project, { recursive: true });
    const marker = join(scratch, "pwned-by-config");
    writeFileSync(join(scratch, "secret.txt"), "file-secret-contents");
    writeFileSync(
      join(project, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          env: {
            command: process.execPath,
            args: [
              envServer,
              `$(touch ${marker})`,
              "${file:" + join(scratch, "secret.txt") + "}",
              "$(cat " + join(scratch, "secret.txt") + ")",
              "${HOME}",
            ],
            env: {
              FROM_FILE: "${file:" + join(scratch, "secret.txt") + "}",
              CMD: "`cat " + join(scratch, "secret.txt") + "`",
            },
          },
        },
      }),
    );
    const loaded = await loadAllMCPConfigs(project, { home, env: { HOME: home }, platform: "linux" });
    // Approved (a project server is refused until it is; see packages/manager/test/approvals.test.ts): what it runs is the point here.
    const manager = new MCPManager({
      pins: { store: new MemoryPinStore() },
      cache: false,
      approvals: { approve: () => true },
    });
    try {
      const { tools, errors } = await manager.connectServers(loaded.configs);
      expect(errors.size).toBe(0);
      const self = JSON.parse(
        ((await tools.find((t) => t.name === "mcp__env__self")!.call({})) as { content: { text: string }[] })
          .content[0]!.text,
      ) as Self;
      expect(JSON.stringify(self)).not.toContain("file-secret-contents");
      expect(self.argv[0]).toBe(`$(touch ${marker})`);
      expect(self.argv[3]).toBe(home); // ${HOME} is expanded from the environment given, nothing more
      expect(existsSync(marker)).toBe(false);
    } finally {
      await manager.disconnectAll();
    }
  });

  it("project-scope servers can be switched off", async () => {
    const project = join(scratch, "untrusted");
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, ".mcp.json"),
      JSON.stringify({ mcpServers: { evil: { command: "touch", args: [join(scratch, "evil")] } } }),
    );
    const loaded = await loadAllMCPConfigs(project, {
      home: join(scratch, "home"),
      env: {},
      platform: "linux",
      enableProjectConfig: false,
    });
    expect(Object.keys(loaded.configs)).toEqual([]);
  });
});

describe("headers the transport owns", () => {
  it("a config cannot set the MCP session or protocol headers", async () => {
    const server = await startSdkServer();
    try {
      for (const name of [
        "Mcp-Session-Id",
        "MCP-Protocol-Version",
        "Mcp-Method",
        "Mcp-Name",
        "Mcp-Param-X",
        "Last-Event-ID",
      ]) {
        const error = await connectToServer("h", {
          type: "http",
          url: server.url,
          headers: { [name]: "forged" },
        }).catch((e: unknown) => e);
        expect(error, name).toMatchObject({ name: "InvalidConfigError", field: `headers.${name}` });
      }
      expect(server.requests).toEqual([]); // refused before anything was sent
      const conn = await connectToServer("h", {
        type: "http",
        url: server.url,
        headers: { "Content-Type": "text/plain", "X-Custom": "kept" },
      });
      await disconnectServer(conn);
      expect(server.requests.some((r) => r.method === "POST")).toBe(true); // the checks below are not of an empty list
      expect(
        server.requests.every((r) => r.method !== "POST" || r.headers["content-type"] === "application/json"),
      ).toBe(true);
      expect(server.requests.every((r) => r.headers["x-custom"] === "kept")).toBe(true);
    } finally {
      await server.stop();
    }
  });
});

describe("a redirect never carries a secret to another origin", () => {
  it("through connectToServer: a 307 to a real MCP server elsewhere is refused, and that server sees nothing", async () => {
    const elsewhere = await startSdkServer();
    const front = createServer((_req, res) => void res.writeHead(307, { location: elsewhere.url }).end());
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(front.address() as { port: number }).port}/mcp`;
      const headers = {
        "X-Api-Key": "SECRET-KEY-1",
        "Private-Token": "SECRET-KEY-2",
        Authorization: "Bearer SECRET-KEY-3",
      };
      const error = await connectToServer("redirected", { type: "http", url, headers }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "HttpError", status: 307, location: elsewhere.url });
      expect((error as Error).message).toContain("not followed: it points to another origin");
      expect(elsewhere.requests).toEqual([]);
    } finally {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await elsewhere.stop();
    }
  });
});

describe("secrets never appear in errors, statuses or printed objects", () => {
  const SECRETS = ["Bearer-SECRET-TOKEN-1", "SECRET-PASSWORD-2", "SECRET-QUERY-3", "SECRET-ENV-4"];
  function expectClean(what: string, value: unknown): void {
    const texts = [
      typeof value === "string" ? value : "",
      inspect(value, { depth: 8 }),
      JSON.stringify(value, Object.getOwnPropertyNames(value ?? {})) ?? "",
    ];
    if (value instanceof Error) texts.push(value.message, String(value.stack), inspect(value.cause, { depth: 8 }));
    for (const text of texts)
      for (const secret of SECRETS) expect(text, `${what} shows ${secret}`).not.toContain(secret);
  }

  it("over HTTP failures (401, 5xx, refused) and stdio failures (spawn, exit)", async () => {
    const refused = await freePort();
    const failing = await startHttpFault("401");
    const broken = await startHttpFault("5xx");
    const manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false, reconnect: false });
    try {
      const headers = { Authorization: "Bearer Bearer-SECRET-TOKEN-1", "X-Api-Key": "SECRET-QUERY-3" };
      const configs: Record<string, MCPServerConfig> = {
        refused: {
          type: "http",
          url: `http://user:SECRET-PASSWORD-2@127.0.0.1:${refused}/mcp?token=SECRET-QUERY-3`,
          headers,
        },
        unauthorized: {
          type: "http",
          url: `http://user:SECRET-PASSWORD-2@${failing.origin.slice(7)}/mcp?api_key=SECRET-QUERY-3`,
          headers,
        },
        overloaded: { type: "http", url: `${broken.origin}/mcp?token=SECRET-QUERY-3`, headers },
        missing: { command: "/nonexistent/mcp-server-not-here", env: { KEY: "SECRET-ENV-4" } },
        dies: { command: process.execPath, args: ["-e", "process.exit(7)"], env: { KEY: "SECRET-ENV-4" } },
      };
      const { tools, errors } = await manager.connectServers(configs);
      for (const [name, message] of errors) expectClean(`connect error of ${name}`, message);
      for (const status of manager.getStatuses()) expectClean(`status of ${status.name}`, status);
      for (const tool of tools.filter((t) => t.name.endsWith("__fault"))) {
        const error = await tool.call({}).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(Error);
        expectClean(`error of ${tool.name}`, error);
      }
      expectClean("the manager", manager);
      // A connection and its transport print without them too.
      const conn = await connectToServer("printed", {
        type: "http",
        url: `${broken.origin}/mcp?token=SECRET-QUERY-3`,
        headers,
      });
      expectClean("a connection", conn);
      expectClean("its transport", conn.transport);
      await disconnectServer(conn);
    } finally {
      await manager.disconnectAll();
      await stopChild(failing.child);
      await stopChild(broken.child);
    }
  });
});
