// Discovery from a temporary HOME and project holding one file of every supported family, each
// written in its host's documented format.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverConfigProblems } from "@mcp/client";
import { loadAllMCPConfigs, type LoadResult } from "../src/index.js";

const problemsOf = (config: unknown): string[] => serverConfigProblems(config).map((p) => p.message);

const root = mkdtempSync(join(tmpdir(), "mcp-discovery-"));
const home = join(root, "home");
const project = join(root, "project");
const env = { API_TOKEN: "t0k3n", SERVER_DIR: "/srv/mcp", EMPTY: "" };

function write(path: string, content: string | object): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
}

beforeAll(() => {
  // Claude Code, user + local scope (~/.claude.json) and project scope (.mcp.json).
  write(join(home, ".claude.json"), {
    mcpServers: {
      "cc-user": { command: "cc-user-server", args: ["--token", "${API_TOKEN}"] },
      shared: { command: "from-claude-user" },
      "cc-ws": { type: "ws", url: "ws://127.0.0.1:9/x" },
    },
    projects: {
      [project]: {
        mcpServers: {
          "cc-local": {
            type: "http",
            url: "http://127.0.0.1:7001/mcp",
            headers: { Authorization: "Bearer ${API_TOKEN}" },
          },
          shared: { command: "from-claude-local" },
        },
        enabledMcpjsonServers: ["cc-project"],
        disabledMcpjsonServers: ["cc-project-off"],
      },
      "/some/other/project": { mcpServers: { "other-project": { command: "never" } } },
    },
  });
  write(join(project, ".mcp.json"), {
    mcpServers: {
      "cc-project": {
        command: "${SERVER_DIR}/bin/server",
        args: ["--dir", "${MISSING_DIR:-/tmp/default}"],
        env: { KEY: "${API_TOKEN}" },
      },
      "cc-project-off": { command: "disabled-one" },
      "cc-alias": { type: "streamable-http", url: "http://127.0.0.1:7002/mcp" },
      "cc-unset": { command: "x", args: ["${NOT_SET_ANYWHERE}"] },
      shared: { command: "from-claude-project" },
    },
  });
  // Claude Desktop (Linux location).
  write(join(home, ".config", "Claude", "claude_desktop_config.json"), {
    mcpServers: { desktop: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] } },
  });
  // Cursor: project and user, with envFile and ${env:}, ${userHome}, ${workspaceFolder}.
  write(join(project, ".env.cursor"), 'FROM_FILE=yes\nQUOTED="a b"\n');
  write(join(project, ".cursor", "mcp.json"), {
    mcpServers: {
      "cursor-project": {
        command: "cursor-server",
        args: ["${workspaceFolder}/data", "${userHome}/cfg"],
        env: { TOKEN: "${env:API_TOKEN}" },
        envFile: ".env.cursor",
      },
      "cursor-remote": { url: "http://127.0.0.1:7003/mcp" },
    },
  });
  write(join(home, ".cursor", "mcp.json"), {
    mcpServers: { "cursor-user": { url: "http://127.0.0.1:7004/sse", type: "sse" } },
  });
  // VS Code: JSONC with comments and trailing commas, `servers`, `inputs`.
  write(
    join(project, ".vscode", "mcp.json"),
    `// VS Code workspace servers
{
  "inputs": [{ "type": "promptString", "id": "github-token", "description": "GitHub token", "password": true }],
  "servers": {
    /* a stdio one */
    "vscode-project": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/server.js"], },
    "vscode-input": { "type": "http", "url": "http://127.0.0.1:7005/mcp", "headers": { "Authorization": "Bearer \${input:github-token}" } },
    "vscode-missing-input": { "type": "http", "url": "http://127.0.0.1:7006/mcp", "headers": { "X-Key": "\${input:not-given}" } },
  },
}
`,
  );
  write(
    join(home, ".config", "Code", "User", "mcp.json"),
    `{ "servers": { "vscode-user": { "command": "vscode-user-server" } } }`,
  );
  // Windsurf.
  write(join(home, ".codeium", "windsurf", "mcp_config.json"), {
    mcpServers: {
      windsurf: { serverUrl: "http://127.0.0.1:7007/mcp" },
      "windsurf-off": { command: "x", disabled: true },
    },
  });
  // Codex TOML.
  write(
    join(home, ".codex", "config.toml"),
    `# Codex
[mcp_servers.codex-stdio]
command = "codex-server"
args = ["--fast"]
env = { LEVEL = "debug" }
startup_timeout_sec = 20
tool_timeout_sec = 90
enabled_tools = ["search", "fetch"]

[mcp_servers.codex-http]
url = "http://127.0.0.1:7008/mcp"
bearer_token_env_var = "API_TOKEN"
http_headers = { "X-Team" = "core" }
disabled_tools = ["delete"]

[mcp_servers.codex-off]
command = "off"
enabled = false
`,
  );
  // Gemini CLI: user and project.
  write(join(home, ".gemini", "settings.json"), {
    mcpServers: {
      "gemini-sse": { url: "http://127.0.0.1:7009/sse" },
      "gemini-http": { httpUrl: "http://127.0.0.1:7010/mcp", timeout: 5000 },
    },
  });
  write(join(project, ".gemini", "settings.json"), {
    mcpServers: {
      "gemini-project": { command: "gemini-server", cwd: "/tmp", includeTools: ["a"], excludeTools: ["b"] },
    },
  });
  // opencode.
  write(join(project, "opencode.json"), {
    $schema: "https://opencode.ai/config.json",
    mcp: {
      "oc-local": { type: "local", command: ["bun", "x", "my-mcp"], environment: { A: "1" }, enabled: true },
      "oc-remote": { type: "remote", url: "http://127.0.0.1:7011/mcp", headers: { Authorization: "Bearer x" } },
      "oc-off": { type: "local", command: ["x"], enabled: false },
    },
  });
  // Zed (user), both command shapes.
  write(
    join(home, ".config", "zed", "settings.json"),
    `{
  // Zed settings
  "context_servers": {
    "zed-old": { "command": { "path": "zed-server", "args": ["-v"], "env": { "Z": "1" } } },
    "zed-new": { "source": "custom", "command": "zed-new-server", "args": [] },
  },
}`,
  );
  // Our own file, project scope, and a broken file beside good ones.
  write(join(project, "mcp-client.json"), {
    servers: { ours: { command: "our-server", includeTools: ["echo"] }, shared: { command: "from-ours" } },
  });
  write(join(home, ".config", "mcp-client", "mcp-client.json"), `{ "servers": { "broken": { "command": "x" }, }`); // unterminated
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("loadAllMCPConfigs", () => {
  let result: LoadResult;
  beforeAll(async () => {
    result = await loadAllMCPConfigs(project, {
      home,
      env,
      platform: "linux",
      inputs: { "github-token": "gh-secret" },
    });
  });

  it("reads every family, recording file and scope", () => {
    const scopes = Object.fromEntries(
      Object.entries(result.servers).map(([name, s]) => [name, `${s.source.family}/${s.source.scope}`]),
    );
    expect(scopes).toMatchObject({
      "cc-user": "claude-code/user",
      "cc-local": "claude-code/local",
      "cc-project": "claude-code/project",
      desktop: "claude-desktop/user",
      "cursor-project": "cursor/project",
      "cursor-user": "cursor/user",
      "vscode-project": "vscode/project",
      "vscode-user": "vscode/user",
      windsurf: "windsurf/user",
      "codex-stdio": "codex/user",
      "codex-http": "codex/user",
      "gemini-sse": "gemini/user",
      "gemini-project": "gemini/project",
      "oc-local": "opencode/project",
      "zed-old": "zed/user",
      "zed-new": "zed/user",
      ours: "mcp-client/project",
    });
    expect(result.sources["cc-local"]).toBe(join(home, ".claude.json"));
    expect(result.sources["cc-project"]).toBe(join(project, ".mcp.json"));
    expect(result.servers["other-project"]).toBeUndefined(); // another project's local entries are not ours
  });

  it("precedence: our project file > Claude Code local > project > user; the whole winning entry is used", () => {
    expect(result.configs["shared"]).toEqual({ command: "from-ours" });
    const losers = result.shadowed
      .filter((s) => s.name === "shared")
      .map((s) => `${s.source.family}/${s.source.scope}`);
    expect(losers).toEqual(["claude-code/local", "claude-code/project", "claude-code/user"]);
  });

  it("normalises each host's format onto one config", () => {
    expect(result.configs["cc-user"]).toEqual({ command: "cc-user-server", args: ["--token", "t0k3n"], cwd: home });
    expect(result.configs["cc-local"]).toEqual({
      type: "http",
      url: "http://127.0.0.1:7001/mcp",
      headers: { Authorization: "Bearer t0k3n" },
    });
    expect(result.configs["cc-alias"]).toEqual({ type: "http", url: "http://127.0.0.1:7002/mcp" });
    expect(result.configs["cursor-remote"]).toEqual({ type: "http", url: "http://127.0.0.1:7003/mcp" });
    expect(result.configs["cursor-user"]).toEqual({ type: "sse", url: "http://127.0.0.1:7004/sse" });
    expect(result.configs["windsurf"]).toEqual({ type: "http", url: "http://127.0.0.1:7007/mcp" });
    expect(result.configs["codex-stdio"]).toEqual({
      command: "codex-server",
      args: ["--fast"],
      env: { LEVEL: "debug" },
      timeout: 20_000,
      cwd: home,
    });
    expect(result.servers["codex-stdio"]).toMatchObject({
      toolTimeoutMs: 90_000,
      tools: { include: ["search", "fetch"] },
    });
    expect(result.configs["codex-http"]).toEqual({
      type: "http",
      url: "http://127.0.0.1:7008/mcp",
      headers: { "X-Team": "core", Authorization: "Bearer t0k3n" },
    });
    expect(result.servers["codex-http"]?.tools).toEqual({ exclude: ["delete"] });
    expect(result.configs["gemini-sse"]).toEqual({ type: "sse", url: "http://127.0.0.1:7009/sse" });
    expect(result.configs["gemini-http"]).toEqual({ type: "http", url: "http://127.0.0.1:7010/mcp", timeout: 5000 });
    expect(result.servers["gemini-project"]?.tools).toEqual({ include: ["a"], exclude: ["b"] });
    expect(result.configs["oc-local"]).toEqual({ command: "bun", args: ["x", "my-mcp"], env: { A: "1" } });
    expect(result.configs["oc-remote"]).toEqual({
      type: "http",
      url: "http://127.0.0.1:7011/mcp",
      headers: { Authorization: "Bearer x" },
    });
    expect(result.configs["zed-old"]).toEqual({ command: "zed-server", args: ["-v"], env: { Z: "1" }, cwd: home });
    expect(result.configs["zed-new"]).toEqual({ command: "zed-new-server", args: [], cwd: home });
    expect(result.servers["ours"]?.tools).toEqual({ include: ["echo"] });
  });

  it("expands ${VAR}, ${VAR:-default}, ${env:VAR}, ${userHome}, ${workspaceFolder}, ${input:id} and envFile", () => {
    expect(result.configs["cc-project"]).toEqual({
      command: "/srv/mcp/bin/server",
      args: ["--dir", "/tmp/default"],
      env: { KEY: "t0k3n" },
    });
    expect(result.configs["cursor-project"]).toEqual({
      command: "cursor-server",
      args: [`${project}/data`, `${home}/cfg`],
      env: { FROM_FILE: "yes", QUOTED: "a b", TOKEN: "t0k3n" },
    });
    expect(result.configs["vscode-project"]).toEqual({
      type: "stdio",
      command: "node",
      args: [`${project}/server.js`],
    });
    expect(result.configs["vscode-input"]).toMatchObject({ headers: { Authorization: "Bearer gh-secret" } });
  });

  it("keeps each entry as its file writes it (variables unexpanded, envFile as named) beside the expanded config", () => {
    expect(result.servers["cc-project"]?.written).toEqual({
      config: {
        command: "${SERVER_DIR}/bin/server",
        args: ["--dir", "${MISSING_DIR:-/tmp/default}"],
        env: { KEY: "${API_TOKEN}" },
      },
    });
    expect(result.servers["cursor-project"]?.written).toEqual({
      config: {
        command: "cursor-server",
        args: ["${workspaceFolder}/data", "${userHome}/cfg"],
        env: { TOKEN: "${env:API_TOKEN}" },
      },
      envFile: ".env.cursor",
    });
    expect(result.servers["cc-local"]?.written?.config).toMatchObject({
      headers: { Authorization: "Bearer ${API_TOKEN}" },
    });
    expect(JSON.stringify(result.servers["cc-project"]?.written)).not.toContain("t0k3n");
  });

  it("honours Claude Code's project approvals and the hosts' enabled flags", () => {
    expect(result.servers["cc-project"]).toMatchObject({ enabled: true, approved: true });
    expect(result.servers["cc-alias"]?.approved).toBeUndefined();
    expect(result.servers["cc-project-off"]).toMatchObject({ enabled: false, approved: false });
    for (const off of ["cc-project-off", "windsurf-off", "codex-off", "oc-off"]) {
      expect(result.servers[off]?.enabled, off).toBe(false);
      expect(result.configs[off], off).toBeUndefined();
    }
  });

  it("reports per-server and per-file errors, naming the file, the line, the variable or the input; the rest still load", () => {
    const byServer = Object.fromEntries(result.errors.filter((e) => e.server).map((e) => [e.server, e.message]));
    expect(byServer["cc-unset"]).toBe(
      `MCP server "cc-unset" in ${join(project, ".mcp.json")}: environment variable "NOT_SET_ANYWHERE" is not set and has no default`,
    );
    expect(byServer["cc-ws"]).toContain('server type "ws" is not supported');
    expect(byServer["vscode-missing-input"]).toContain('input "not-given" has no value');
    const broken = result.errors.find((e) => e.server === undefined);
    expect(broken).toMatchObject({ file: join(home, ".config", "mcp-client", "mcp-client.json"), line: 1 });
    expect(broken?.message).toMatch(/mcp-client\.json:1:\d+: invalid JSON/);
    expect(Object.keys(result.configs).length).toBeGreaterThan(20);
  });

  it("an input callback is asked for what the file defines", async () => {
    const asked: unknown[] = [];
    const again = await loadAllMCPConfigs(project, {
      home,
      env,
      platform: "linux",
      families: ["vscode"],
      inputs: (input) => (asked.push(input), input.id === "github-token" ? "from-callback" : undefined),
    });
    expect(again.configs["vscode-input"]).toMatchObject({ headers: { Authorization: "Bearer from-callback" } });
    expect(asked).toContainEqual(
      expect.objectContaining({ id: "github-token", password: true, description: "GitHub token" }),
    );
  });

  it("enableProjectConfig: false ignores everything from the project directory", async () => {
    const untrusted = await loadAllMCPConfigs(project, { home, env, platform: "linux", enableProjectConfig: false });
    const scopes = new Set(Object.values(untrusted.servers).map((s) => s.source.scope));
    expect(scopes.has("project")).toBe(false);
    expect(untrusted.configs["cc-local"]).toBeDefined(); // local entries live in the user's own file
    expect(untrusted.configs["shared"]).toEqual({ command: "from-claude-local" });
  });

  it("families and scopes select what is read", async () => {
    const codexOnly = await loadAllMCPConfigs(project, { home, env, platform: "linux", families: ["codex"] });
    expect(Object.keys(codexOnly.configs).sort()).toEqual(["codex-http", "codex-stdio"]);
    const userOnly = await loadAllMCPConfigs(project, { home, env, platform: "linux", scopes: ["user"] });
    expect(Object.values(userOnly.servers).every((s) => s.source.scope === "user")).toBe(true);
  });

  it("an invalid entry never hides a valid one of the same name", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-shadow-"));
    try {
      write(join(dir, "project", "mcp-client.json"), { servers: { svc: { type: "http" } } }); // no url
      write(join(dir, "home", ".claude.json"), { mcpServers: { svc: { command: "the-valid-one" } } });
      const r = await loadAllMCPConfigs(join(dir, "project"), { home: join(dir, "home"), env: {}, platform: "linux" });
      expect(r.configs["svc"]).toEqual({ command: "the-valid-one", cwd: join(dir, "home") });
      expect(r.errors.map((e) => e.message)).toContainEqual(
        expect.stringContaining('http server requires "url" field'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("macOS and Windows locations", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-os-"));
    try {
      write(join(dir, "Library", "Application Support", "Claude", "claude_desktop_config.json"), {
        mcpServers: { mac: { command: "m" } },
      });
      write(join(dir, "Library", "Application Support", "Code - Insiders", "User", "mcp.json"), {
        servers: { insiders: { command: "i" } },
      });
      write(join(dir, "AppData", "Roaming", "Claude", "claude_desktop_config.json"), {
        mcpServers: { win: { command: "w" } },
      });
      const mac = await loadAllMCPConfigs(dir, { home: dir, env: {}, platform: "darwin", scopes: ["user"] });
      expect(Object.keys(mac.configs).sort()).toEqual(["insiders", "mac"]);
      const win = await loadAllMCPConfigs(dir, { home: dir, env: {}, platform: "win32", scopes: ["user"] });
      expect(Object.keys(win.configs)).toEqual(["win"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("config problems, as the loader reports them (serverConfigProblems of @mcp/client)", () => {
  it("says what is wrong, in the design document's words", () => {
    expect(problemsOf({ command: "x", url: "http://y" })[0]).toMatch(/^both "command" and "url" are set/);
    expect(problemsOf({})).toEqual(['stdio server requires "command" field']);
    expect(problemsOf({ type: "sse" })).toEqual(['sse server requires "url" field']);
    expect(problemsOf({ type: "grpc", url: "x" })[0]).toMatch(/^Unknown server type: grpc; expected "stdio"/);
    expect(problemsOf({ command: "x", args: "y" })).toEqual(['"args" must be an array of strings']);
    expect(problemsOf({ type: "http", url: "ftp://x" })).toEqual(['"url" must be http or https, got ftp:']);
    expect(problemsOf({ command: "x", timeout: -1 })).toEqual([
      '"timeout" must be a positive number of milliseconds (or Infinity for none); got -1',
    ]);
    expect(problemsOf({ url: "http://x" })).toEqual([
      '"url" is set but "type" is not; add "type": "http" (Streamable HTTP) or "type": "sse" (HTTP+SSE, the 2024-11-05 transport)',
    ]);
    expect(problemsOf({ command: "x" })).toEqual([]);
  });
});
