// MCP Apps from the client's side: the extension declared, a tool's UI found, a ui:// resource read
// and checked — against the real basic-vanillajs example server from npm, and a fixture on the
// official SDK for what a server can get wrong.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpAppsExtension, readUiResource, toolUi, UiResourceError } from "../src/apps.js";
import {
  connectToServer,
  disconnectServer,
  listTools,
  type MCPServerConnection,
  type RecordedMessage,
} from "../src/index.js";

const require = createRequire(import.meta.url);
// Its package exports only the server module; the stdio entry is next to it.
const vanilla = join(dirname(require.resolve("@modelcontextprotocol/server-basic-vanillajs")), "index.js");
const fixture = fileURLToPath(new URL("./fixtures/ui-server.mjs", import.meta.url));

describe("MCP Apps with the basic-vanillajs example server", () => {
  let conn: MCPServerConnection;
  const wire: RecordedMessage[] = [];
  beforeAll(async () => {
    conn = await connectToServer(
      "vanilla",
      { command: process.execPath, args: [vanilla, "--stdio"] },
      { extensions: mcpAppsExtension(), record: (entry) => wire.push(entry) },
    );
  });
  afterAll(() => disconnectServer(conn));

  it("declares the extension in the handshake", () => {
    const opening = wire.find(
      (e) =>
        e.from === "client" && ["initialize", "server/discover"].includes((e.message as { method: string }).method),
    );
    expect(JSON.stringify(opening?.message)).toContain(
      '"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}',
    );
  });

  it("finds the tool's UI and reads its HTML", async () => {
    const tool = (await listTools(conn)).find((t) => t.name === "get-time")!;
    expect(toolUi(tool)).toEqual({ resourceUri: "ui://get-time/mcp-app.html", visibility: ["model", "app"] });
    const ui = await readUiResource(conn, "ui://get-time/mcp-app.html");
    expect(ui.mimeType).toBe("text/html;profile=mcp-app");
    expect(ui.html).toMatch(/^<!DOCTYPE html>/);
    expect(ui.html).toContain("Get Server Time");
    expect(ui.meta).toEqual({});
    expect(ui.ignored).toEqual([]);
  });
});

describe("MCP Apps resources a host must check", () => {
  let conn: MCPServerConnection;
  beforeAll(async () => {
    conn = await connectToServer(
      "fixture",
      { command: process.execPath, args: [fixture] },
      { extensions: mcpAppsExtension() },
    );
  });
  afterAll(() => disconnectServer(conn));

  it("reads the deprecated flat key and visibility, and refuses a URI that is not ui://", async () => {
    const tools = Object.fromEntries((await listTools(conn)).map((t) => [t.name, toolUi(t)]));
    expect(tools).toEqual({
      flat: { resourceUri: "ui://fixture/blob.html", visibility: ["model", "app"] },
      "app-only": { resourceUri: "ui://fixture/blob.html", visibility: ["app"] },
      web: undefined,
      plain: undefined,
    });
  });

  it("decodes a blob and keeps only what the extension allows of _meta.ui, naming the rest", async () => {
    const ui = await readUiResource(conn, "ui://fixture/blob.html");
    expect(ui.html).toBe("<!DOCTYPE html><html><body><p>héllo from a blob</p></body></html>");
    expect(ui.meta).toEqual({
      csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://*.cdn.example.com"] },
      permissions: { camera: {}, clipboardWrite: {} },
      domain: "abc.example.com",
      prefersBorder: false,
    });
    expect(ui.ignored).toEqual([
      'csp.connectDomains: "https://x.example.com; script-src *" is not an origin (scheme://host[:port])',
      "csp.connectDomains: \"'unsafe-eval'\" is not an origin (scheme://host[:port])",
      "csp.frameDomains: not a list",
    ]);
  });

  it("refuses what is not an MCP App, naming the server, the URI and why", async () => {
    const refusal = (uri: string) =>
      readUiResource(conn, uri).then(
        () => undefined,
        (e: unknown) => e,
      );
    const plain = await refusal("ui://fixture/plain.html");
    expect(plain).toBeInstanceOf(UiResourceError);
    expect((plain as Error).message).toBe(
      'The UI resource ui://fixture/plain.html of MCP server "fixture" cannot be shown: its MIME type is "text/html", not "text/html;profile=mcp-app"',
    );
    expect(((await refusal("ui://fixture/empty.html")) as Error).message).toContain("it has neither text nor blob");
    expect(((await refusal("https://example.com/app.html")) as Error).message).toContain("the URI is not a ui:// one");
    expect(((await refusal("ui://fixture/missing.html")) as Error).message).toContain(
      "no resource ui://fixture/missing.html",
    );
  });
});
