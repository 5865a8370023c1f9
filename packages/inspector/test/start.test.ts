// startInspector on a manager, as a team embedding it would run it: against server-everything over
// stdio (a real child process), on 127.0.0.1, with its token. The CLI's end-to-end and browser
// tests (apps/cli/test/inspect*.test.ts) cover the API's every route through `mcp inspect`.
import { createServer } from "node:net";
import { MCPManager } from "@mcp/manager";
import { everythingEntry, waitFor } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  InspectorError,
  inspectorHooks,
  startInspector,
  type Dialog,
  type Inspector,
  type InspectorState,
} from "../src/index.js";

const hooks = inspectorHooks();
const manager = new MCPManager({ ...hooks, cache: false, pins: false });
let inspector: Inspector;

async function api<T>(path: string, body?: unknown, token = inspector.token): Promise<{ status: number; body: T }> {
  const response = await fetch(`http://127.0.0.1:${inspector.port}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "x-inspector-token": token, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** True once nothing listens on `port` of 127.0.0.1. */
async function refused(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`);
    return false;
  } catch {
    return true;
  }
}

beforeAll(async () => {
  await manager.connectServers({
    everything: { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 },
  });
  inspector = await startInspector(manager, {
    hooks,
    host: { name: "my-tool", version: "9.9.9" },
    title: "my tool's inspector",
    heading: "my tool",
  });
});

afterAll(async () => {
  await inspector?.close();
  await manager.disconnectAll();
});

describe("startInspector", () => {
  it("serves the page on 127.0.0.1 with its token, and nothing without it", async () => {
    expect(inspector.url).toBe(`http://127.0.0.1:${inspector.port}/?token=${inspector.token}`);
    expect(inspector.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const page = await fetch(inspector.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>my tool&#39;s inspector</title>");
    expect((await fetch(`http://127.0.0.1:${inspector.port}/`)).status).toBe(401);
    expect((await api("/api/state", undefined, "x".repeat(43))).status).toBe(401);
  });

  it("answers the manager's servers and tools, and the host it was given", async () => {
    const { status, body } = await api<InspectorState>("/api/state");
    expect(status).toBe(200);
    expect(body.servers).toEqual([
      expect.objectContaining({ name: "everything", transport: "stdio", status: "connected", source: "" }),
    ]);
    expect(body.servers[0]?.capabilities).toContain("tools");
    expect(body.tools.map((t) => t.name)).toEqual(manager.getTools().map((t) => t.name));
    expect(body.version).toBe("9.9.9");
    expect(body.heading).toBe("my tool");
    expect(body.held).toEqual([]);
  });

  it("brings a server's elicitation to the page through the hooks, and the page's answer back", async () => {
    const call = api<{ result?: { content: { type: string; text?: string }[] } }>("/api/call", {
      id: "c1",
      tool: "mcp__everything__trigger-elicitation-request",
      arguments: {},
    });
    let dialog: Dialog | undefined;
    await waitFor(
      async () => (dialog = (await api<InspectorState>("/api/state")).body.dialogs[0]) !== undefined,
      20_000,
    );
    expect(dialog).toMatchObject({ server: "everything", kind: "elicitation" });
    expect(
      (
        await api("/api/dialog", {
          id: dialog!.id,
          action: "accept",
          content: { name: "Ada Lovelace", check: true, email: "ada@example.com" },
        })
      ).status,
    ).toBe(200);
    const answer = await call;
    expect(answer.status).toBe(200);
    expect(answer.body.result?.content.map((c) => c.text ?? "").join("")).toContain("Ada Lovelace");
    const log = (await api<InspectorState>("/api/state")).body.log;
    expect(log.filter((e) => e.method === "elicitation/create").map((e) => e.kind)).toEqual([
      "server-request",
      "response",
    ]);
  });

  it("calls open with its URL once it listens, and closes (twice safely) leaving the port free", async () => {
    const opened: string[] = [];
    const other = await startInspector(manager, { open: (url) => opened.push(url) });
    expect(opened).toEqual([other.url]);
    expect((await fetch(other.url)).status).toBe(200);
    await Promise.all([other.close(), other.close()]);
    expect(await refused(other.port)).toBe(true);
  });

  it("closes itself and rejects with the error when open throws", async () => {
    let port = 0;
    const failing = startInspector(manager, {
      open: (url) => {
        port = Number(new URL(url).port);
        throw new Error("no browser here");
      },
    });
    await expect(failing).rejects.toThrow("no browser here");
    expect(port).toBeGreaterThan(0);
    expect(await refused(port)).toBe(true);
  });

  it("refuses bad options with an InspectorError saying which", async () => {
    const bad = async (options: Parameters<typeof startInspector>[1], message: string): Promise<void> => {
      const error = await startInspector(manager, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InspectorError);
      expect(error).toMatchObject({ code: "invalid_option" });
      expect((error as Error).message).toContain(message);
    };
    await bad({ port: 70_000 }, '"port" must be an integer from 0 to 65535');
    await bad({ port: 1.5 }, '"port"');
    await bad({ token: "short" }, '"token" must be at least 16 URL-safe characters');
    await bad({ token: "a token with spaces in it" }, '"token"');
    await bad({ open: "yes" as unknown as () => void }, '"open" must be a function');
    await bad(
      { host: { name: "my-tool" } as unknown as { name: string; version: string } },
      '"host" must be { name: string, version: string }',
    );
    await bad({ title: 42 as unknown as string }, '"title" must be a string');
    await bad({ hooks: { ...hooks } }, "`hooks` must be the object inspectorHooks() returned");
    await bad({ config: { file: "mcp-client.json" } }, '"config.file" must be an absolute path');
    await bad(
      { config: { file: "/tmp/mcp-client.json", load: "yes" as unknown as undefined } },
      '"config.load" must be a function',
    );
  });

  it("fails with listen_failed on a port that is taken, with the system's error as its cause", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await startInspector(manager, { port, token: "t".repeat(16) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InspectorError);
      expect(error).toMatchObject({
        code: "listen_failed",
        message: `the inspector could not listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
      });
      expect((error as Error).cause).toMatchObject({ code: "EADDRINUSE" });
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
