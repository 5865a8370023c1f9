// Servers added, edited and removed from the page's API (`config` of startInspector), with real
// config files in a temporary home and project, loaded by @mcp/manager as the CLI loads them, and a
// real stdio server on the official SDK: only the user's file is written, what is saved runs at
// once (no restart), a project's entry of the same name is never run from here, removing stops it,
// and nothing of it answers without the token or from another origin.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MCPServerConfig } from "@mcp/client";
import { MCPManager, type DiscoveredServer } from "@mcp/manager";
import { waitFor } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  HIDDEN_VALUE,
  inspectorHooks,
  startInspector,
  userConfigEditing,
  type ConfigSaveAnswer,
  type ConfigServersAnswer,
  type Inspector,
  type InspectorState,
} from "../src/index.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/no-templates-server.mjs", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "inspector-config-"));
const home = join(root, "home");
const project = join(root, "project");
const env = { ...process.env, XDG_CONFIG_HOME: join(home, ".config") };
const file = join(home, ".config", "mcp-client", "mcp-client.json");
/** Written only if the project's server ever runs. */
const marker = join(root, "project-server-ran");

const hooks = inspectorHooks();
const manager = new MCPManager({ ...hooks, cache: false, pins: false });
let inspector: Inspector;
let bare: Inspector;
const changes: string[] = [];
/** The tool's own record of its servers, which the inspector keeps in step (`config.found`). */
const found: { configs: Record<string, MCPServerConfig>; servers: Record<string, DiscoveredServer> } = {
  configs: {},
  servers: {},
};
/** The command that loaded `found`: the project's folder and the home, as userConfigEditing takes them. */
const loaded = Object.assign(found, { cwd: project, home });

async function api<T>(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  on: Inspector = inspector,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`http://127.0.0.1:${on.port}${path}`, {
    method: "POST",
    headers: { "x-inspector-token": on.token, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

const written = (): Record<string, unknown> =>
  (JSON.parse(readFileSync(file, "utf8")) as { servers: Record<string, unknown> }).servers;
/** The server's row in the page's list, if it is there. */
async function row(name: string): Promise<InspectorState["servers"][number] | undefined> {
  const response = await fetch(`http://127.0.0.1:${inspector.port}/api/state`, {
    headers: { "x-inspector-token": inspector.token },
  });
  return ((await response.json()) as InspectorState).servers.find((s) => s.name === name);
}

beforeAll(async () => {
  mkdirSync(project, { recursive: true });
  // The project's file has "shadow" (it would write the marker), unapproved: it comes before the user's file.
  writeFileSync(
    join(project, "mcp-client.json"),
    JSON.stringify({
      servers: {
        shadow: {
          command: process.execPath,
          args: ["-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`],
        },
      },
    }),
  );
  inspector = await startInspector(manager, {
    hooks,
    // The user's file under `home` ($XDG_CONFIG_HOME of env), loaded again as the project's folder loads it.
    config: {
      ...userConfigEditing(loaded, env),
      onChange: (name, config) => changes.push(`${name}: ${config ? "set" : "removed"}`),
    },
  });
  bare = await startInspector(manager, {});
});

afterAll(async () => {
  await inspector?.close();
  await bare?.close();
  await manager.disconnectAll();
  rmSync(root, { recursive: true, force: true });
});

describe("servers from the page (the user's config file)", () => {
  it("adds a server to the user's file and starts it at once; edits it (restarted with the new entry)", async () => {
    expect((await api<ConfigServersAnswer>("/api/config/servers", {})).body).toEqual({ file, servers: [] });
    const saved = await api<ConfigSaveAnswer>("/api/config/save", {
      name: "plain",
      config: { command: process.execPath, args: [FIXTURE], env: { MARK: "one" } },
    });
    expect(saved).toEqual({ status: 200, body: { saved: true, applied: true, warnings: [] } });
    expect(written()).toEqual({ plain: { command: process.execPath, args: [FIXTURE], env: { MARK: "one" } } });
    await waitFor(async () => (await row("plain"))?.status === "connected", 20_000);
    expect((await row("plain"))?.source).toBe(file);
    expect(changes).toEqual(["plain: set"]);
    expect(found.configs["plain"]).toMatchObject({ command: process.execPath, args: [FIXTURE] });
    expect(found.servers["plain"]?.source.file).toBe(file);

    // Saved again without replace: refused, the file unchanged.
    const again = await api<{ message: string }>("/api/config/save", { name: "plain", config: { command: "x" } });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('already has "plain"');
    const edited = await api<ConfigSaveAnswer>("/api/config/save", {
      name: "plain",
      config: { command: process.execPath, args: [FIXTURE], env: { MARK: "two" } },
      replace: true,
    });
    expect(edited.body.applied).toBe(true);
    await waitFor(
      async () =>
        (manager.getServerConfig("plain") as { env?: Record<string, string> } | undefined)?.env?.["MARK"] === "two" &&
        (await row("plain"))?.status === "connected",
      20_000,
    );
  }, 60_000);

  it("hides a written secret from the page, warns of it, and keeps it when the hidden value is saved back", async () => {
    const secret = "sk-abcdefghij0123456789XYZ";
    const saved = await api<ConfigSaveAnswer>("/api/config/save", {
      name: "plain",
      config: { command: process.execPath, args: [FIXTURE], env: { API_KEY: secret } },
      replace: true,
    });
    expect(saved.body.warnings).toEqual([
      `"API_KEY" holds what looks like a secret, now written in ${file}: write \${VARIABLE} instead`,
    ]);
    const listed = await api<ConfigServersAnswer>("/api/config/servers", {});
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(listed.body.servers).toEqual([
      { name: "plain", config: { command: process.execPath, args: [FIXTURE], env: { API_KEY: HIDDEN_VALUE } } },
    ]);
    await api<ConfigSaveAnswer>("/api/config/save", {
      name: "plain",
      config: { command: process.execPath, args: [FIXTURE, "--again"], env: { API_KEY: HIDDEN_VALUE } },
      replace: true,
    });
    expect(written()["plain"]).toEqual({
      command: process.execPath,
      args: [FIXTURE, "--again"],
      env: { API_KEY: secret },
    });
    // A placeholder with no value behind it is refused.
    const orphan = await api<{ message: string }>("/api/config/save", {
      name: "plain",
      config: { command: process.execPath, env: { OTHER: HIDDEN_VALUE } },
      replace: true,
    });
    expect(orphan.status).toBe(400);
    expect(orphan.body.message).toContain('"config.env.OTHER" is the hidden placeholder');
  }, 30_000);

  it("writes a name a project's file also has, but never runs the project's (unapproved) entry", async () => {
    const saved = await api<ConfigSaveAnswer>("/api/config/save", {
      name: "shadow",
      config: { command: process.execPath, args: [FIXTURE] },
    });
    expect(saved.body.applied).toBe(false);
    expect(saved.body.reason).toBe(
      `${join(project, "mcp-client.json")}'s "shadow" comes first; the inspector does not run it from here`,
    );
    expect(written()["shadow"]).toEqual({ command: process.execPath, args: [FIXTURE] });
    expect(manager.getConnectionStatus("shadow")).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
    // Nor can it be removed from the project's file here: only the user's file's entries.
    expect((await api("/api/config/remove", { name: "shadow" })).status).toBe(200);
    expect((await api<{ message: string }>("/api/config/remove", { name: "shadow" })).status).toBe(404);
    expect(readFileSync(join(project, "mcp-client.json"), "utf8")).toContain('"shadow"');
  });

  it("removes a server from the file: it stops and leaves the page's list", async () => {
    expect((await api("/api/config/remove", { name: "plain" })).body).toEqual({ ok: true });
    expect(written()).toEqual({});
    expect(manager.getConnection("plain")).toBeUndefined();
    expect(await row("plain")).toBeUndefined();
    expect(changes.at(-1)).toBe("plain: removed");
    expect([Object.keys(found.configs), Object.keys(found.servers)]).toEqual([[], []]);
    // No other route starts it again (the manager keeps it, stopped).
    const again = await api<{ message: string }>("/api/servers/reconnect", { server: "plain" });
    expect([again.status, again.body.message]).toEqual([404, 'no server named "plain" is managed here']);
    expect(manager.getConnection("plain")).toBeUndefined();
  });

  it("refuses bad input with a status and a message naming it", async () => {
    const cases: [string, unknown, number, string][] = [
      ["/api/config/save", { name: "../x", config: { command: "x" } }, 400, '"name" must be 1-64 letters'],
      ["/api/config/save", { name: "x", config: "npx server" }, 400, '"config" must be a JSON object'],
      ["/api/config/save", { name: "x", config: { command: "x", url: "http://127.0.0.1:9/" } }, 400, '"config" is not'],
      ["/api/config/remove", { name: "nothing" }, 404, 'no server named "nothing"'],
    ];
    for (const [path, body, status, message] of cases) {
      const answer = await api<{ message: string }>(path, body);
      expect([answer.status, answer.body.message]).toEqual([status, expect.stringContaining(message)]);
    }
    expect(written()).toEqual({});
  });

  it("answers none of it without the token, from another origin or cross-site; without `config` there is none", async () => {
    const config = { command: process.execPath, args: [FIXTURE] };
    for (const path of ["/api/config/servers", "/api/config/save", "/api/config/remove"]) {
      const body = { name: "intruder", config };
      expect((await api(path, body, { "x-inspector-token": "wrong-token-wrong-token" })).status).toBe(401);
      expect((await api(path, body, { origin: "http://app-0123456789ab.localhost:4000" })).status).toBe(403);
      expect((await api(path, body, { "sec-fetch-site": "cross-site" })).status).toBe(403);
      expect((await api(path, body, {}, bare)).status).toBe(404);
    }
    expect(written()).toEqual({});
    expect(manager.getConnectionStatus("intruder")).toBeUndefined();
  });
});
