// MCP Apps in `mcp inspect`, without a browser: the API that opens an app and takes its messages
// holds the extension's rules (an app calls only its own server's tools that let apps call them),
// logs what it sends, and gives each app a sandbox origin of its own that serves the proxy page only.
import { request } from "node:http";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { appPolicy, type AppMessageAnswer, type AppOpenAnswer, type InspectorState } from "@mcp/inspector";
import { waitFor } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandbox, userConfig, type Sandbox } from "./helpers.js";
import { startInspect, type RunningInspector } from "./inspect-helpers.js";

const appsServer = fileURLToPath(new URL("./fixtures/apps-server.mjs", import.meta.url));

/** A GET to 127.0.0.1:`port` under the Host `hostname:port` (a sandbox's `app-<id>.localhost`, which only browsers resolve). */
function raw(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  hostname = "127.0.0.1",
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, headers: { host: `${hostname}:${port}`, ...headers } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

let box: Sandbox;
let inspector: RunningInspector;

async function api<T>(path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`http://127.0.0.1:${inspector.port}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "x-inspector-token": inspector.token, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

const refused = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });

beforeAll(async () => {
  box = sandbox();
  userConfig(box, { apps: { command: process.execPath, args: [appsServer] } });
  inspector = await startInspect(box);
  await waitFor(async () => (await api<InspectorState>("/api/state")).body.servers[0]?.status === "connected", 20_000);
});

afterAll(async () => {
  await inspector?.stop();
  box?.remove();
});

describe("mcp inspect: MCP Apps", () => {
  it("lists each tool's app and opens it, checked, on an origin of its own that serves only the proxy", async () => {
    const { tools } = (await api<InspectorState>("/api/state")).body;
    expect(Object.fromEntries(tools.map((t) => [t.tool, t.ui]))).toEqual({
      show: { resourceUri: "ui://fixture/app.html", visibility: ["model", "app"] },
      "model-only": { resourceUri: "ui://fixture/app.html", visibility: ["model"] },
      "app-only": { resourceUri: "ui://fixture/app.html", visibility: ["app"] },
    });
    const { status, body: app } = await api<AppOpenAnswer>("/api/app/open", { tool: "mcp__apps__show" });
    expect(status).toBe(200);
    expect(app.html).toContain("fixture app");
    expect(app.csp).toEqual({ connectDomains: ["https://api.example.com"] });
    expect(app.ignored).toEqual([
      'csp.connectDomains: "https://evil.example.com; script-src *" is not an origin (scheme://host[:port])',
    ]);
    expect(app.prefersBorder).toBe(true);
    const sandboxUrl = new URL(app.sandbox);
    const port = Number(sandboxUrl.port);
    // A site of its own (a hostname of its own: Chromium gives each site a process), on a port of its own.
    const host = sandboxUrl.hostname;
    expect(host).toMatch(/^app-[0-9a-f]{12}\.localhost$/);
    expect(port).not.toBe(inspector.port);

    const page = await raw(port, "/sandbox", {}, host);
    expect(page.status).toBe(200);
    // Under another name (the loopback address, localhost, a rebinding page's) it serves nothing.
    expect((await raw(port, "/sandbox")).status).toBe(404);
    expect((await raw(port, "/sandbox", {}, "localhost")).status).toBe(404);
    // Framed by the inspector only, and under the app's own policy: the app can use this page's window.
    const frameUrl = new URL(app.frame);
    expect(frameUrl.hostname).toBe(host);
    expect([String(inspector.port), String(port)]).not.toContain(frameUrl.port);
    expect(page.headers["content-security-policy"]).toBe(
      `frame-ancestors ${frameUrl.origin} http://127.0.0.1:${inspector.port}; ${appPolicy(app.csp)}`,
    );
    // The inspector frames a page of another origin with no script, whose one frame may hold the proxy's origin only.
    const outer = await raw(Number(frameUrl.port), "/sandbox", {}, host);
    expect(outer.status).toBe(200);
    expect(outer.headers["content-security-policy"]).toBe(
      `default-src 'none'; style-src 'unsafe-inline'; frame-src ${sandboxUrl.origin}; base-uri 'none'; form-action 'none'; frame-ancestors http://127.0.0.1:${inspector.port}`,
    );
    expect(outer.body).toContain(`<iframe src="${app.sandbox}" sandbox="allow-scripts allow-same-origin allow-forms"`);
    expect((await raw(Number(frameUrl.port), "/sandbox", { host: `evil.example:${frameUrl.port}` })).status).toBe(404);
    expect(page.headers["content-security-policy"]).toContain("connect-src https://api.example.com;");
    expect((await raw(port, "/other", {}, host)).headers["content-security-policy"]).toBe("default-src 'none'");
    expect(page.body).toContain(`data-host="http://127.0.0.1:${inspector.port}"`);
    expect(page.body).not.toContain(inspector.token);
    expect((await raw(port, "/api/state", {}, host)).status).toBe(404);
    expect((await raw(port, "/sandbox", { host: `evil.example:${port}` })).status).toBe(404);

    // Another app, another origin; closing one ends its origin.
    const second = (await api<AppOpenAnswer>("/api/app/open", { tool: "mcp__apps__app-only" })).body;
    expect(new URL(second.sandbox).port).not.toBe(String(port));
    expect(new URL(second.sandbox).hostname).toMatch(/^app-[0-9a-f]{12}\.localhost$/);
    expect(new URL(second.sandbox).hostname).not.toBe(host);
    await api("/api/app/close", { view: app.view });
    expect(await refused(port)).toBe(true);
    expect(await refused(Number(frameUrl.port))).toBe(true);
    expect(
      (await api("/api/app/message", { view: app.view, message: { jsonrpc: "2.0", method: "ping", id: 1 } })).status,
    ).toBe(404);
  });

  it("runs the app's calls for its own server's tools that let apps call them, logs everything it sends", async () => {
    const { view } = (await api<AppOpenAnswer>("/api/app/open", { tool: "mcp__apps__show" })).body;
    const send = async (message: unknown) =>
      (await api<AppMessageAnswer>("/api/app/message", { view, message })).body.response;
    expect(
      await send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "app-only", arguments: {} } }),
    ).toEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "app-only ran" }] } });
    expect(
      await send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "model-only", arguments: {} } }),
    ).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: {
        code: -32000,
        message: 'tool "model-only" is not callable by apps (its _meta.ui.visibility is ["model"])',
      },
    });
    expect(
      (await send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo" } }))?.error?.message,
    ).toBe('no tool "echo" on server "apps": an app calls only the tools of its own server');
    expect(
      (await send({ jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri: "ui://fixture/app.html" } }))
        ?.result,
    ).toMatchObject({ contents: [{ uri: "ui://fixture/app.html" }] });
    expect(
      await send({ jsonrpc: "2.0", id: 5, method: "ui/open-link", params: { url: "https://example.com" } }),
    ).toBeUndefined(); // the page answers these
    expect(
      await send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "from the app" } }),
    ).toBeUndefined();
    expect((await api("/api/app/message", { view, message: { not: "json-rpc" } })).status).toBe(400);

    const log = (await api<InspectorState>("/api/state")).body.log.filter((e) => e.kind === "app");
    expect(log.map((e) => e.method)).toEqual([
      "tools/call",
      "tools/call",
      "tools/call",
      "resources/read",
      "ui/open-link",
      "notifications/message",
    ]);
    // The allowed call ran as the user's calls run: a logged request and its answer.
    const calls = (await api<InspectorState>("/api/state")).body.log.filter(
      (e) => e.method === "tools/call" && e.kind !== "app",
    );
    expect(calls.map((e) => `${e.kind} ${JSON.stringify(e.params ?? "")}`)).toContain(
      'request {"name":"app-only","arguments":{}}',
    );
    expect(calls.some((e) => JSON.stringify(e.params ?? "").includes("model-only"))).toBe(false);
  });

  it("refuses to open an app for a tool it does not know", async () => {
    const noUi = await api<{ message: string }>("/api/app/open", { tool: "mcp__apps__nothing" });
    expect(noUi.status).toBe(404);
  });
});
