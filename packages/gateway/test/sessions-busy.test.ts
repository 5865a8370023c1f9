// A 2025 session's requests in use, as LegacySessions counts them (what keeps a session from being
// closed as idle, or evicted for another): a request the fast path (session-fast.ts) looks up its
// session for and then declines goes to the SDK's path — it is one request, counted once.
import { MCPManager, MemoryPinStore } from "@mcp/manager";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Gateway } from "../src/gateway.js";
import { LegacySessions } from "../src/sessions.js";

const caller = { id: "u-ann", name: "ann" };
const target = { server: undefined, endpoint: "/mcp" };
const authInfo: AuthInfo = { token: "t", clientId: "ann", scopes: [], extra: { caller, target } };
const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("LegacySessions: a request's use of its session", () => {
  let manager: MCPManager;
  let gateway: Gateway;
  let sessions: LegacySessions;
  let id: string;

  beforeAll(async () => {
    manager = new MCPManager({ pins: { store: new MemoryPinStore() }, cache: false });
    gateway = new Gateway(manager);
    sessions = new LegacySessions(gateway, undefined);
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const opened = await sessions.handle(
      new Request("http://gateway/mcp", { method: "POST", headers, body: JSON.stringify(initialize) }),
      "/mcp",
      target,
      caller,
      authInfo,
      initialize,
    );
    expect(opened.status, await opened.clone().text()).toBe(200);
    id = opened.headers.get("mcp-session-id")!;
    expect(id).toBeTruthy();
    expect(sessions.busyOf(id)).toBe(0);
  });

  afterAll(async () => {
    await sessions?.close();
    await gateway?.close();
  });

  it("counts a request the fast path declined once, as the SDK's path serves it, and not at all once it ended", async () => {
    const controller = new AbortController();
    // As the HTTP handler does: the fast path takes the session for the request ...
    expect(sessions.fastSession(id, caller, "/mcp", controller.signal)).toBeDefined();
    // ... declines it (here: as if another request of that id were in flight), and the SDK's path serves it.
    const message = { jsonrpc: "2.0", id: 7, method: "ping" };
    const response = await sessions.handle(
      new Request("http://gateway/mcp", {
        method: "POST",
        headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify(message),
        signal: controller.signal,
      }),
      "/mcp",
      target,
      caller,
      authInfo,
      message,
      true,
    );
    expect(response.status).toBe(200);
    expect(sessions.busyOf(id)).toBe(1);
    controller.abort();
    expect(sessions.busyOf(id)).toBe(0);
  });
});
