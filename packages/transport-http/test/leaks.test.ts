// Its own file, so the worker starts clean and a leak cannot hide behind another test's handles.
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { createHttpTransport } from "../src/index.js";
import { sendJson, sse, startFixture } from "./fixture-server.js";
import { activeHandles } from "mcp-test-utils";

describe("resources after close()", () => {
  it("leaves no socket, timer or listener behind", async () => {
    const f = await startFixture((req, res) => {
      if (req.method === "GET") return void sse(res)(": listening\n\n");
      if (req.method === "DELETE") return void res.writeHead(200).end();
      if (req.json?.method === "hang") return void sse(res)(": working\n\n");
      if (req.json?.id === undefined) return void res.writeHead(202).end();
      sendJson(res, { jsonrpc: "2.0", id: req.json.id, result: {} }, 200, { "mcp-session-id": "s1" });
    });
    try {
      const before = activeHandles();
      const t = await createHttpTransport({ type: "http", url: f.url });
      await t.request("initialize", {});
      await t.notify("notifications/initialized");
      // One long-lived caller signal shared by every request: it must end with no listener of ours.
      const shared = new AbortController().signal;
      await Promise.all(Array.from({ length: 20 }, () => t.request("ping", {}, { signal: shared })));
      await t.startSSEListener();
      const hanging = t.request("hang", {}, { timeout: 60_000, signal: shared }).catch((e: unknown) => e);
      expect((activeHandles()["TCPSocketWrap"] ?? 0) > (before["TCPSocketWrap"] ?? 0)).toBe(true);
      await t.close();
      await expect(hanging).resolves.toMatchObject({ message: "Transport closed" });
      expect(f.seen.at(-1)).toMatchObject({ method: "DELETE", headers: { "mcp-session-id": "s1" } });
      expect(getEventListeners(shared, "abort")).toHaveLength(0);
      // Closed sockets leave the handle list a tick or so later (the poll's own timer is gone by the check below).
      await expect.poll(() => activeHandles()["TCPSocketWrap"] ?? 0).toBeLessThanOrEqual(before["TCPSocketWrap"] ?? 0);
      const after = activeHandles();
      for (const kind of ["TCPSocketWrap", "Timeout"])
        expect(after[kind] ?? 0, kind).toBeLessThanOrEqual(before[kind] ?? 0);
    } finally {
      await f.stop();
    }
  });
});
