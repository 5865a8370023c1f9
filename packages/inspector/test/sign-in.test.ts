// startInspector's sign-in from the page (`POST /api/auth/sign-in`) against the official SDK's
// authorization server and protected MCP server on loopback, with a token store in memory: it
// answers the authorization URL and its loopback redirect, and the inspector's close() while it
// waits for the browser stops it: its listener on the callback port is gone at once (no 5-minute
// wait), and nothing was saved but the registered client.
import { connect } from "node:net";
import { MCPManager } from "@mcp/manager";
import { freePort, startSdkOAuthServer, type SdkOAuthServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInspector, type Inspector, type SignInStarted } from "../src/index.js";

type Credentials = { issuer: string; resource: string; tokens?: unknown };
const saved = new Map<string, Credentials>();
/** A token store in memory (the TokenStore interface of @mcp/oauth): nothing of the user's is touched. */
const store = {
  get: (issuer: string, resource: string) => Promise.resolve(saved.get(`${issuer} ${resource}`)),
  find: (resource: string) => Promise.resolve([...saved.values()].find((c) => c.resource === resource)),
  set: (credentials: Credentials) =>
    Promise.resolve(void saved.set(`${credentials.issuer} ${credentials.resource}`, credentials)),
  delete: (issuer: string, resource: string) => Promise.resolve(void saved.delete(`${issuer} ${resource}`)),
};

let sdk: SdkOAuthServer;
let callbackPort: number;
const manager = new MCPManager({ cache: false, pins: false, oauth: { store: store as never } });
let inspector: Inspector | undefined;

const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

beforeAll(async () => {
  sdk = await startSdkOAuthServer();
  callbackPort = await freePort();
  inspector = await startInspector(manager, {
    configOf: (name) => (name === "secure" ? { type: "http", url: sdk.url, oauth: { callbackPort } } : undefined),
  });
}, 60_000);

afterAll(async () => {
  await inspector?.close();
  await manager.disconnectAll();
  await sdk?.stop();
});

describe("signing in from the page", () => {
  it("answers the authorization URL and its redirect; close() stops the sign-in waiting for the browser, its listener gone", async () => {
    const response = await fetch(`http://127.0.0.1:${inspector!.port}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-inspector-token": inspector!.token },
      body: JSON.stringify({ server: "secure" }),
    });
    expect(response.status).toBe(200);
    const started = (await response.json()) as SignInStarted;
    expect(started.redirectUri).toBe(`http://127.0.0.1:${callbackPort}/callback`);
    expect(new URL(started.url).searchParams.get("redirect_uri")).toBe(started.redirectUri);
    expect(await listening(callbackPort)).toBe(true);
    const again = await fetch(`http://127.0.0.1:${inspector!.port}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-inspector-token": inspector!.token },
      body: JSON.stringify({ server: "secure" }),
    });
    expect(again.status).toBe(409);
    await inspector!.close();
    inspector = undefined;
    expect(await listening(callbackPort)).toBe(false);
    expect([...saved.values()].some((c) => c.tokens !== undefined)).toBe(false);
  }, 60_000);
});
