// Attacks on the page's config editing (`config` of startInspector, issue 55), with real config
// files in a temporary home and project, loaded by @mcp/manager as the CLI loads them, and raw HTTP
// requests: names that are Object.prototype's keys, a file that does not parse or is not shaped as a
// config (refused, left byte for byte), saves sent at once (none lost), and what held: the gate
// against foreign Host/Origin/Sec-Fetch-Site and form-like bodies, a path in the body, and hidden
// secrets never coming back in an answer.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAllMCPConfigs, MCPManager } from "@mcp/manager";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HIDDEN_VALUE, startInspector, type ConfigSaveAnswer, type Inspector } from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "inspector-config-attack-"));
const home = join(root, "home");
const project = join(root, "project");
const env = { ...process.env, XDG_CONFIG_HOME: join(home, ".config") };
const file = join(home, ".config", "mcp-client", "mcp-client.json");
/** A file the body names: never written. */
const elsewhere = join(root, "elsewhere.json");

const manager = new MCPManager({ cache: false, pins: false });
let inspector: Inspector;

/** A raw request (any Host, Origin, Content-Type), with the inspector's token unless `token` says otherwise (`null`: none). */
function raw(
  path: string,
  body: string,
  headers: Record<string, string> = {},
  token: string | null = inspector.token,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: inspector.port,
        path,
        method: "POST",
        setHost: false,
        headers: {
          host: `127.0.0.1:${inspector.port}`,
          "content-type": "application/json",
          ...(token === null ? {} : { "x-inspector-token": token }),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function api<T>(path: string, body: unknown): Promise<{ status: number; body: T }> {
  const answer = await raw(path, JSON.stringify(body));
  return { status: answer.status, body: JSON.parse(answer.body) as T };
}

const text = (): string => readFileSync(file, "utf8");
const servers = (): Record<string, unknown> => (JSON.parse(text()) as { servers: Record<string, unknown> }).servers;

beforeAll(async () => {
  mkdirSync(project, { recursive: true });
  inspector = await startInspector(manager, {
    config: { file, load: () => loadAllMCPConfigs(project, { home, env }) },
  });
});

beforeEach(() => {
  mkdirSync(join(home, ".config", "mcp-client"), { recursive: true });
  writeFileSync(file, `{\n  "servers": {}\n}\n`);
});

afterAll(async () => {
  await inspector?.close();
  await manager.disconnectAll();
  rmSync(root, { recursive: true, force: true });
});

describe("config editing under attack", () => {
  it("refuses the names of Object.prototype's keys (a 400 naming it, the file unchanged; never a 502 or a false 409/200)", async () => {
    const before = text();
    for (const name of ["constructor", "toString", "hasOwnProperty", "valueOf"]) {
      const saved = await api<{ message: string }>("/api/config/save", { name, config: { command: "true" } });
      expect([saved.status, saved.body.message]).toEqual([400, expect.stringContaining(`"name"`)]);
      const replaced = await api<{ message: string }>("/api/config/save", {
        name,
        config: { command: "true" },
        replace: true,
      });
      expect(replaced.status).toBe(400);
      // Removing one the file does not have: a 400 or 404, never "ok".
      const removed = await api<{ message: string }>("/api/config/remove", { name });
      expect([400, 404]).toContain(removed.status);
    }
    expect(text()).toBe(before);
  });

  it("refuses to write into a file that does not parse, or whose servers are not an object: a 409 (404 for a remove) naming the file, the file left byte for byte", async () => {
    // Removing "a": a 409 when the file does not parse; a 404 when it parses with no servers object.
    const broken: [string, number][] = [
      ["garbage, not JSON\n", 409],
      [`{ "servers": { "a": { "command": "x" } } // unclosed\n`, 409],
      [`{ "servers": [1, 2] }\n`, 404],
      [`[1, 2]\n`, 404],
    ];
    for (const [content, removal] of broken) {
      writeFileSync(file, content);
      const saved = await api<{ message: string }>("/api/config/save", { name: "c", config: { command: "true" } });
      expect([saved.status, saved.body.message]).toEqual([409, expect.stringContaining(file)]);
      expect(readFileSync(file, "utf8")).toBe(content);
      const removed = await api<{ message: string }>("/api/config/remove", { name: "a" });
      expect([removed.status, removed.body.message]).toEqual([removal, expect.stringContaining(file)]);
      expect(readFileSync(file, "utf8")).toBe(content);
    }
  });

  it("loses none of several saves and removes sent at once (each written to the file)", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `s${i}`);
    const answers = await Promise.all(
      names.map((name) =>
        api<ConfigSaveAnswer>("/api/config/save", { name, config: { command: "true", args: [name] } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 200));
    expect(Object.keys(servers()).sort()).toEqual(names);
    const removed = await Promise.all(names.slice(0, 4).map((name) => api("/api/config/remove", { name })));
    expect(removed.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(Object.keys(servers()).sort()).toEqual(names.slice(4));
  });

  it("does not claim to run an entry that loads as a project's (the user's file is the project's file too when the working directory holds it); it never runs", async () => {
    const marker = join(root, "as-project-ran");
    const here = await startInspector(manager, {
      config: { file, load: () => loadAllMCPConfigs(join(home, ".config", "mcp-client"), { home, env }) },
    });
    try {
      const response = await fetch(`http://127.0.0.1:${here.port}/api/config/save`, {
        method: "POST",
        headers: { "x-inspector-token": here.token, "content-type": "application/json" },
        body: JSON.stringify({
          name: "asproject",
          config: {
            command: process.execPath,
            args: ["-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`],
          },
        }),
      });
      const saved = (await response.json()) as ConfigSaveAnswer;
      expect(saved).toEqual({
        saved: true,
        applied: false,
        reason: `${file} is also this project's file here: "asproject" loads as a project server, which runs only once approved (not from here)`,
        warnings: [],
      });
      expect(manager.getConnectionStatus("asproject")).toBeUndefined();
      expect(existsSync(marker)).toBe(false);
    } finally {
      await here.close();
    }
  });

  it("held: no token, a wrong one, a foreign Host (DNS rebinding), an app's or a look-alike Origin, a cross-site fetch, a form's body", async () => {
    const body = JSON.stringify({ name: "intruder", config: { command: "true" } });
    const port = inspector.port;
    const refused: [Record<string, string>, string | null, number][] = [
      [{}, null, 401],
      [{}, "x".repeat(43), 401],
      [{ host: `evil.example:${port}` }, inspector.token, 403],
      [{ host: `127.0.0.1:${port}.evil.example` }, inspector.token, 403],
      [{ host: `app-0123456789ab.localhost:${port}` }, inspector.token, 403],
      [{ host: `127.0.0.1` }, inspector.token, 403],
      [{ origin: `http://app-0123456789ab.localhost:${port}` }, inspector.token, 403],
      [{ origin: `http://127.0.0.1:${port}.evil.example` }, inspector.token, 403],
      [{ origin: `http://127.0.0.1:${port + 1}` }, inspector.token, 403],
      [{ origin: "null" }, inspector.token, 403],
      [{ "sec-fetch-site": "same-site" }, inspector.token, 403],
      [{ "sec-fetch-site": "cross-site" }, inspector.token, 403],
      [{ "content-type": "text/plain" }, inspector.token, 415],
      [{ "content-type": "application/x-www-form-urlencoded" }, inspector.token, 415],
      [{ "content-type": "multipart/form-data; boundary=x" }, inspector.token, 415],
      [{ "content-type": "" }, inspector.token, 415],
    ];
    for (const path of ["/api/config/servers", "/api/config/save", "/api/config/remove"])
      for (const [headers, token, status] of refused)
        expect([path, headers, (await raw(path, body, headers, token)).status]).toEqual([path, headers, status]);
    expect(servers()).toEqual({});
  });

  it("held: a path in the body is not used (only the configured file is written), bad bodies are typed refusals", async () => {
    const saved = await api<ConfigSaveAnswer>("/api/config/save", {
      name: "ok",
      file: elsewhere,
      path: elsewhere,
      config: { command: "true" },
    });
    expect(saved.status).toBe(200);
    expect(Object.keys(servers())).toEqual(["ok"]);
    expect(() => readFileSync(elsewhere)).toThrow();
    const cases: [string, number][] = [
      ["{", 400],
      ["[]", 400],
      ["null", 400],
      [JSON.stringify({ name: "../x", config: { command: "true" } }), 400],
      [JSON.stringify({ name: "__proto__", config: { command: "true" } }), 400],
      [JSON.stringify({ name: "ｘ", config: { command: "true" } }), 400],
      [JSON.stringify({ name: "x".repeat(65), config: { command: "true" } }), 400],
      [JSON.stringify({ name: "x", config: { command: "true" }, pad: "p".repeat(1_100_000) }), 413],
    ];
    for (const [body, status] of cases)
      expect((await raw("/api/config/save", body)).status, body.slice(0, 60)).toBe(status);
    expect(Object.keys(servers())).toEqual(["ok"]);
  });

  it("held: a hidden secret never comes back in an answer (list, save, a refused save), and stays in the file", async () => {
    const secret = "Bearer sk0123456789abcdefghijXYZ";
    writeFileSync(
      file,
      JSON.stringify({
        servers: { s: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: secret } } },
      }),
    );
    const answers = [
      await raw("/api/config/servers", "{}"),
      // Refused: the entry is not one (both url and command), with the secret put back before the check.
      await raw(
        "/api/config/save",
        JSON.stringify({
          name: "s",
          replace: true,
          config: { command: "x", url: "http://127.0.0.1:9/mcp", headers: { Authorization: HIDDEN_VALUE } },
        }),
      ),
      // The placeholder under another name: refused, the value not moved.
      await raw(
        "/api/config/save",
        JSON.stringify({
          name: "t",
          config: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: HIDDEN_VALUE } },
        }),
      ),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 400, 400]);
    for (const answer of answers) expect(answer.body).not.toContain("sk0123456789");
    expect(servers()).toEqual({
      s: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: secret } },
    });
  });
});
