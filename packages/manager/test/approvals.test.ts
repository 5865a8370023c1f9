// A cloned repository's MCP config is untrusted input: the library refuses its servers until an
// approval covers them, as the `mcp` CLI does. A temporary HOME and project directory hold every
// family's project file, each entry a real `sh -c "touch RAN-<family>; exec node server"` (the
// marker proves whether it ran; the SDK fixture behind it lets an approved one connect), and a
// real Streamable HTTP server counts what a project HTTP entry would send.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSdkServer, type SdkServer } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import {
  askingPolicy,
  createApprovalStore,
  defaultApprovalsFile,
  loadAllMCPConfigs,
  MCPManager,
  type ApprovalRequest,
  type LoadOptions,
  type MCPManagerOptions,
} from "../src/index.js";

const fixture = fileURLToPath(new URL("./fixtures/server.mjs", import.meta.url));
const dirs: string[] = [];
const managers: MCPManager[] = [];
const servers: SdkServer[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.disconnectAll()));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every family's project file (in discovery's order) and how it writes a stdio entry. */
const FAMILIES: { family: string; file: string; doc: (name: string, command: string, args: string[]) => object }[] = [
  {
    family: "mcp-client",
    file: "mcp-client.json",
    doc: (name, command, args) => ({ servers: { [name]: { command, args } } }),
  },
  {
    family: "claude-code",
    file: ".mcp.json",
    doc: (name, command, args) => ({ mcpServers: { [name]: { command, args } } }),
  },
  {
    family: "mcp-client-mcp-json",
    file: "mcp.json",
    doc: (name, command, args) => ({ servers: { [name]: { command, args } } }),
  },
  {
    family: "cursor",
    file: ".cursor/mcp.json",
    doc: (name, command, args) => ({ mcpServers: { [name]: { command, args } } }),
  },
  {
    family: "vscode",
    file: ".vscode/mcp.json",
    doc: (name, command, args) => ({ servers: { [name]: { type: "stdio", command, args } } }),
  },
  {
    family: "gemini",
    file: ".gemini/settings.json",
    doc: (name, command, args) => ({ mcpServers: { [name]: { command, args } } }),
  },
  {
    family: "opencode",
    file: "opencode.json",
    doc: (name, command, args) => ({ mcp: { [name]: { type: "local", command: [command, ...args] } } }),
  },
  {
    family: "zed",
    file: ".zed/settings.json",
    doc: (name, command, args) => ({ context_servers: { [name]: { command: { path: command, args } } } }),
  },
];

interface Box {
  home: string;
  repo: string;
  load: LoadOptions;
  /** The marker a family's command creates. */
  marker(family: string): string;
  /** The markers that exist. */
  ran(): string[];
  write(file: string, doc: object): void;
  manager(options?: MCPManagerOptions): MCPManager;
}

/** `sh -c "touch <marker>; exec node <fixture>"`: it leaves a mark, then serves. */
const touching = (marker: string): [string, string[]] => [
  "sh",
  ["-c", `touch '${marker}'; exec "$0" "$@"`, process.execPath, fixture],
];

function box(): Box {
  const root = mkdtempSync(join(tmpdir(), "mcp-approvals-"));
  dirs.push(root);
  const home = join(root, "home");
  const repo = join(root, "repo");
  const marks = join(root, "marks");
  for (const dir of [home, repo, marks]) mkdirSync(dir);
  const load: LoadOptions = { home, env: { HOME: home, PATH: process.env["PATH"] }, platform: "linux" };
  const write = (file: string, doc: object): void => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(doc));
  };
  for (const { family, file, doc } of FAMILIES)
    write(join(repo, file), doc(`repo-${family}`, ...touching(join(marks, `RAN-${family}`))));
  // A user-scope server (the user's own file in the temporary HOME): starts as ever.
  write(join(home, ".config", "mcp-client", "mcp-client.json"), {
    servers: { mine: { command: touching(join(marks, "RAN-user"))[0], args: touching(join(marks, "RAN-user"))[1] } },
  });
  return {
    home,
    repo,
    load,
    marker: (family) => join(marks, `RAN-${family}`),
    ran: () => ["user", ...FAMILIES.map((f) => f.family)].filter((family) => existsSync(join(marks, `RAN-${family}`))),
    write,
    manager: (options = {}) => {
      const m = new MCPManager({ cwd: repo, cache: false, load, ...options });
      managers.push(m);
      return m;
    },
  };
}

const projectNames = FAMILIES.map(({ family }) => `repo-${family}`);

describe("project servers are refused until approved, by the library", () => {
  it("discoverAndConnect runs no project file's command (every family), says why and what approves it; a user-scope server starts", async () => {
    const b = box();
    const m = b.manager();
    const result = await m.discoverAndConnect();
    expect(b.ran()).toEqual(["user"]);
    expect(result.connectedServers).toEqual(["mine"]);
    expect(m.getConnectionStatus("mine")).toMatchObject({ state: "connected", scope: "user" });
    for (const { family, file } of FAMILIES) {
      const name = `repo-${family}`;
      expect(m.getConnectionStatus(name), family).toMatchObject({
        state: "not-approved",
        scope: "project",
        source: join(b.repo, file),
        refusal: {
          reason: "not approved yet",
          approve: `mcp config approve "${name}" in this project, or the approvals option of MCPManager`,
        },
      });
      expect(result.errors.get(name), family).toBe(
        `project server not approved yet (approve it: mcp config approve "${name}" in this project, or the approvals option of MCPManager)`,
      );
    }
    // Nothing starts one: a wait, a list, a reconnect, startServers; none is in the tool list.
    await expect(m.waitForConnection("repo-cursor")).rejects.toMatchObject({
      code: "server_unavailable",
      state: "not-approved",
      message: 'MCP server "repo-cursor" is not approved: not approved yet',
    });
    await expect(m.listPrompts("repo-vscode")).rejects.toMatchObject({ code: "server_unavailable" });
    await expect(m.reconnectServer("repo-claude-code")).rejects.toMatchObject({ code: "server_unavailable" });
    await m.startServers(projectNames);
    expect(m.getTools().map((t) => t.serverName)).toEqual(["mine"]);
    expect(b.ran()).toEqual(["user"]);
  });

  it("a project entry the file marks disabled is listed, and a reconnect of it (the inspector's button) starts nothing until approved", async () => {
    const b = box();
    const [command, args] = touching(b.marker("disabled"));
    b.write(join(b.repo, ".cursor", "mcp.json"), { mcpServers: { off: { command, args, disabled: true } } });
    const m = b.manager();
    await m.discoverAndConnect();
    expect(m.getConnectionStatus("off")).toMatchObject({ state: "disabled", scope: "project" });
    await expect(m.reconnectServer("off")).rejects.toMatchObject({ code: "server_unavailable", state: "not-approved" });
    await expect(m.waitForConnection("off")).rejects.toMatchObject({ code: "server_unavailable" });
    expect(existsSync(b.marker("disabled")), "the disabled project server was spawned").toBe(false);
  });

  it("every other way in checks too: loadAllMCPConfigs' configs alone, addServers then startServers", async () => {
    const b = box();
    const loaded = await loadAllMCPConfigs(b.repo, b.load);
    const direct = b.manager();
    await direct.connectServers(loaded.configs); // the entries' own objects: still known as discovered
    expect(direct.getConnectionStatus("repo-zed")).toMatchObject({
      state: "not-approved",
      source: join(b.repo, ".zed/settings.json"),
    });
    const lazy = b.manager();
    await lazy.addServers(loaded.configs, loaded.servers);
    await lazy.startServers();
    expect(
      lazy
        .getStatuses()
        .filter((s) => s.state === "not-approved")
        .map((s) => s.name)
        .sort(),
    ).toEqual([...projectNames].sort());
    expect(b.ran()).toEqual(["user"]);
  });

  it("an approval in the approvals file (as `mcp config approve` writes it) starts that server as it is, and asks again once its env changes", async () => {
    const b = box();
    const store = createApprovalStore({ file: defaultApprovalsFile(b.load) });
    const loaded = await loadAllMCPConfigs(b.repo, b.load);
    await store.remember(b.repo, [loaded.servers["repo-cursor"]!]);
    const m = b.manager();
    await m.discoverAndConnect();
    expect(m.getConnectionStatus("repo-cursor")?.state).toBe("connected");
    expect(b.ran()).toEqual(["user", "cursor"]);
    await m.disconnectAll();
    rmSync(b.marker("cursor"));

    const [command, args] = touching(b.marker("cursor"));
    b.write(join(b.repo, ".cursor", "mcp.json"), {
      mcpServers: { "repo-cursor": { command, args, env: { NODE_OPTIONS: "--require ./evil.cjs" } } },
    });
    const again = b.manager();
    await again.discoverAndConnect();
    expect(again.getConnectionStatus("repo-cursor")).toMatchObject({
      state: "not-approved",
      refusal: { reason: "changed since it was approved: env" },
    });
    expect(existsSync(b.marker("cursor"))).toBe(false);
  });

  it("an approved entry rewritten to look pooled runs nothing new: a foreign program in front of the shim's words, or shim options besides --from, ask again", async () => {
    const b = box();
    const store = createApprovalStore({ file: defaultApprovalsFile(b.load) });
    const loaded = await loadAllMCPConfigs(b.repo, b.load);
    await store.remember(b.repo, [loaded.servers["repo-cursor"]!]);
    const [command, args] = touching(b.marker("cursor"));
    // The repository's own program, run with the approved entry's words after `daemon stdio … --`.
    const evil = join(b.repo, "evil.sh");
    writeFileSync(evil, `#!/bin/sh\ntouch '${b.marker("evil")}'\nexec "${process.execPath}" "${fixture}"\n`, {
      mode: 0o755,
    });
    b.write(join(b.repo, ".cursor", "mcp.json"), {
      mcpServers: {
        "repo-cursor": {
          command: evil,
          args: ["daemon", "stdio", "repo-cursor", "--from", "cursor:project", "--", command, ...args],
        },
      },
    });
    const m = b.manager();
    await m.discoverAndConnect();
    expect(m.getConnectionStatus("repo-cursor")).toMatchObject({
      state: "not-approved",
      refusal: { reason: expect.stringContaining("changed since it was approved") as unknown },
    });
    expect(existsSync(b.marker("evil")), "the repository's program ran under the original's approval").toBe(false);
    // The real shim, given another config file to serve from: not what was approved either.
    b.write(join(b.repo, ".cursor", "mcp.json"), {
      mcpServers: {
        "repo-cursor": {
          command: "mcp",
          args: ["daemon", "stdio", "repo-cursor", "--config", "./evil.json", "--", command, ...args],
        },
      },
    });
    const again = b.manager();
    await again.discoverAndConnect();
    expect(again.getConnectionStatus("repo-cursor")).toMatchObject({
      state: "not-approved",
      refusal: { reason: expect.stringContaining("changed since it was approved") as unknown },
    });
  });

  it("a policy's approve is asked once about all of them; its answer starts those it names, and what it remembers holds for the next manager", async () => {
    const b = box();
    const asked: ApprovalRequest[][] = [];
    const m = b.manager({
      approvals: {
        approve: async (requests, { project, store }) => {
          asked.push([...requests]);
          const chosen = requests.filter((r) => r.server.name === "repo-gemini").map((r) => r.server);
          await store.remember(project, chosen);
          return chosen.map((s) => s.name);
        },
        howToApprove: (server) => `the settings page (${server.name})`,
      },
    });
    await m.discoverAndConnect();
    expect(asked).toHaveLength(1);
    expect(asked[0]!.map((r) => [r.server.name, r.reason, r.changedParts, r.declined])).toEqual(
      projectNames.map((name) => [name, "not approved yet", undefined, false]),
    );
    expect(asked[0]!.every((r) => typeof r.fingerprint["command"] === "string")).toBe(true);
    expect(b.ran()).toEqual(["user", "gemini"]);
    expect(m.getConnectionStatus("repo-zed")?.refusal).toEqual({
      reason: "not approved yet",
      approve: "the settings page (repo-zed)",
    });

    rmSync(b.marker("gemini"));
    const next = b.manager(); // the default policy: the approvals file only
    await next.discoverAndConnect();
    expect(next.getConnectionStatus("repo-gemini")?.state).toBe("connected");
    expect(b.ran()).toEqual(["user", "gemini"]);
  });

  it("askingPolicy asks once about all of them: no declines them for the project (never asked again), yes starts them and is remembered", async () => {
    const b = box();
    const store = createApprovalStore({ file: join(b.home, "approvals.json") });
    const asked: string[][] = [];
    const answering = (yes: boolean): MCPManagerOptions["approvals"] =>
      askingPolicy({ store, ask: (requests) => (asked.push(requests.map((r) => r.server.name)), yes) });
    await b.manager({ approvals: answering(false) }).discoverAndConnect();
    expect(asked).toEqual([projectNames]);
    expect(b.ran()).toEqual(["user"]);
    const again = b.manager({ approvals: answering(true) });
    await again.discoverAndConnect();
    expect(asked).toHaveLength(1); // declined in this project: not asked again
    expect(again.getConnectionStatus("repo-zed")?.refusal?.reason).toContain("declined");
    expect(b.ran()).toEqual(["user"]);

    const other = box();
    const yesStore = createApprovalStore({ file: join(other.home, "approvals.json") });
    await other.manager({ approvals: askingPolicy({ store: yesStore, ask: () => true }) }).discoverAndConnect();
    expect(other.ran()).toEqual(["user", ...FAMILIES.map((f) => f.family)]);
    const next = other.manager({ approvals: { store: yesStore } }); // remembered: no one asked
    await next.discoverAndConnect();
    expect(next.getConnectionStatus("repo-zed")?.state).toBe("connected");
  });

  it("Claude Code's enabledMcpjsonServers (in ~/.claude.json) approves its .mcp.json entry by name; the rest stay refused", async () => {
    const b = box();
    b.write(join(b.home, ".claude.json"), { projects: { [b.repo]: { enabledMcpjsonServers: ["repo-claude-code"] } } });
    const m = b.manager();
    await m.discoverAndConnect();
    expect(m.getConnectionStatus("repo-claude-code")?.state).toBe("connected");
    expect(b.ran()).toEqual(["user", "claude-code"]);
  });

  it("disconnectAll while the policy is still deciding: its later yes starts nothing; a policy that throws approves nothing and says why", async () => {
    const b = box();
    let answer: (yes: boolean) => void = () => {};
    let askedNow: () => void = () => {};
    const asked = new Promise<void>((resolve) => (askedNow = resolve));
    const m = b.manager({
      approvals: { approve: () => new Promise<boolean>((resolve) => ((answer = resolve), askedNow())) },
    });
    const pending = m.discoverAndConnect();
    await asked;
    await m.disconnectAll();
    answer(true);
    expect((await pending).connectedServers).toEqual([]);
    expect(b.ran()).toEqual([]);
    expect(m.getStatuses()).toEqual([]);

    const failing = b.manager({ approvals: { approve: () => Promise.reject(new Error("the dialog was closed")) } });
    const result = await failing.discoverAndConnect();
    expect(result.connectedServers).toEqual(["mine"]);
    expect(failing.getConnectionStatus("repo-vscode")?.refusal?.reason).toBe(
      "not approved yet; asking failed: the dialog was closed",
    );
    expect(b.ran()).toEqual(["user"]);
  });

  it("a project HTTP server is not fetched and its headersHelper not run; a config passed in code starts as given", async () => {
    const b = box();
    const server = await startSdkServer();
    servers.push(server);
    const helperMark = b.marker("helper");
    b.write(join(b.repo, "mcp-client.json"), {
      servers: { remote: { type: "http", url: server.url, headersHelper: `touch '${helperMark}'; echo '{}'` } },
    });
    const m = b.manager();
    await m.discoverAndConnect();
    expect(m.getConnectionStatus("remote")?.state).toBe("not-approved");
    expect(server.requests).toHaveLength(0);
    expect(existsSync(helperMark)).toBe(false);

    // The program's own config (not discovered from a file) is the program's decision.
    const [command, args] = touching(b.marker("code"));
    await m.connectServers({ coded: { command, args } });
    expect(m.getConnectionStatus("coded")?.state).toBe("connected");
    expect(existsSync(b.marker("code"))).toBe(true);
  });
});
