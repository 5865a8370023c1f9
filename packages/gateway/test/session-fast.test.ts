// The 2025 session fast path (session-fast.ts) against the SDK server's: two gateways over one
// manager, one with the fast path and one without, each get a raw session per 2025 revision and the
// same raw requests on it; their answers — status, every header but the date, every byte of the
// event stream (logs on the way included) — and their audit entries must be the same. Then what
// must take the SDK's path does: a batch is answered; a caller that can be asked questions gets
// them answered (session-fast-asking.test.ts compares such calls byte for byte); and a request the
// fast path serves is cancelled by the caller's cancellation.
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { probeEvents } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AuditEntry } from "../src/index.js";
import { startParityPair, TOKENS, type Kind, type ParityPair } from "./parity.js";
import type * as SessionFast from "../src/session-fast.js";

/** How many requests the fast path served (its function wrapped): a parity case proves nothing unless it took that path. */
const served = vi.hoisted(() => ({ count: 0 }));
vi.mock("../src/session-fast.js", async (importOriginal) => {
  const original = await importOriginal<typeof SessionFast>();
  return {
    ...original,
    serveInSession: (...args: Parameters<typeof original.serveInSession>): boolean => {
      const taken = original.serveInSession(...args);
      if (taken) served.count++;
      return taken;
    },
  };
});

const REVISIONS = ["2025-03-26", "2025-06-18", "2025-11-25"] as const;

describe("the 2025 session fast path answers as the SDK server does", () => {
  let pair: ParityPair;
  let urls: ParityPair["urls"];
  let audits: ParityPair["audits"];

  beforeAll(async () => {
    pair = await startParityPair();
    ({ urls, audits } = pair);
  });

  afterAll(async () => {
    await pair.stop();
  });

  interface Session {
    kind: Kind;
    path: string;
    token: string;
    id: string;
    revision: string;
  }

  const tokenOf = (caller: string): string => [...TOKENS].find(([, c]) => c.name === caller)![0];

  /** Opens a raw session: initialize, then initialized. */
  async function open(kind: Kind, path: string, caller: string, revision: string, capabilities = {}): Promise<Session> {
    const token = tokenOf(caller);
    const headers = {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const init = await fetch(`${urls[kind]}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: revision, capabilities, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    const id = init.headers.get("mcp-session-id")!;
    expect(await init.text()).toContain(`"protocolVersion":"${revision}"`);
    const initialized = await fetch(`${urls[kind]}${path}`, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": revision },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(initialized.status).toBe(202);
    return { kind, path, token, id, revision };
  }

  /** One raw message on a session: what came back on the wire (the date left out, the session id made one). */
  async function raw(session: Session, message: unknown, versionHeader = true): Promise<string> {
    const response = await fetch(`${urls[session.kind]}${session.path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${session.token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": session.id,
        ...(versionHeader ? { "mcp-protocol-version": session.revision } : {}),
      },
      body: JSON.stringify(message),
    });
    const headers = [...response.headers].filter(([name]) => name !== "date").map(([n, v]) => `${n}: ${v}`);
    return `${response.status}\n${headers.join("\n")}\n\n${await response.text()}`.replaceAll(session.id, "<session>");
  }

  const call = (id: string | number, name: string, args?: unknown, meta?: unknown): unknown => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: {
      name,
      ...(args === undefined ? {} : { arguments: args }),
      ...(meta === undefined ? {} : { _meta: meta }),
    },
  });

  const cases: [string, string, string, unknown][] = [
    ["tools/list", "", "alice", { jsonrpc: "2.0", id: 1, method: "tools/list" }],
    ["tools/list with a cursor", "", "alice", { jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: "" } }],
    ["a view's tools/list", "/view/ops", "alice", { jsonrpc: "2.0", id: 1, method: "tools/list" }],
    ["a caller's own tools/list", "", "bob", { jsonrpc: "2.0", id: 1, method: "tools/list" }],
    ["ping", "", "alice", { jsonrpc: "2.0", id: "p", method: "ping" }],
    ["a 2025 upstream's result, its logs on the way", "", "alice", call(2, "p1h__flood", { count: 3 })],
    ["a 2026-07-28 upstream's result", "", "alice", call(2, "v2__add", { a: 2, b: 40 })],
    ["a tool error", "", "alice", call(2, "v2__add", { a: "x" })],
    ["no arguments", "", "alice", call(2, "odd__echo")],
    ["a result with _meta of its own, a string id", "", "alice", call("s-1", "odd__echo", { text: "hi" })],
    ["a request's own _meta", "", "alice", call(2, "odd__echo", { text: "m" }, { "com.example/x": 1 })],
    ["structured content that is no object", "", "alice", call(2, "odd__listy", {})],
    ["structured content and text", "", "alice", call(2, "odd__texty", {})],
    ["a contentless result", "", "alice", call(2, "odd__contentless", {})],
    ["a tool that throws upstream", "", "alice", call(2, "odd__failing", {})],
    ["an unknown tool", "", "alice", call(2, "p1h__nope", {})],
    ["arguments that are no object", "", "alice", call(2, "odd__echo", [1])],
    ["no name", "", "alice", { jsonrpc: "2.0", id: 2, method: "tools/call", params: {} }],
    ["a tool the caller may not call", "", "bob", call(2, "v2__add", { a: 1, b: 1 })],
    ["search_tools", "", "alice", call(2, "search_tools", { query: "add numbers", limit: 2 })],
    ["a view's renamed tool", "/view/ops", "alice", call(2, "emit_logs", { count: 2 })],
    ["a server's endpoint", "/v2", "alice", call(2, "add", { a: 1, b: 2 })],
  ];

  describe.each(REVISIONS)("revision %s", (revision) => {
    it.each(cases)("%s", async (_label, path, caller, message) => {
      const [fast, sdk] = [await open("fast", path, caller, revision), await open("sdk", path, caller, revision)];
      const before = served.count;
      const answers = [await raw(fast, message), await raw(sdk, message)];
      expect(served.count).toBe(before + 1);
      expect(answers[0]).toBe(answers[1]);
      expect(answers[0]).toMatch(/^200\n/);
    });

    it("a request naming no revision (the session's own)", async () => {
      const [fast, sdk] = [await open("fast", "", "alice", revision), await open("sdk", "", "alice", revision)];
      const message = call(3, "odd__echo", { text: "bare" });
      const before = served.count;
      expect(await raw(fast, message, false)).toBe(await raw(sdk, message, false));
      expect(served.count).toBe(before + 1);
    });

    it("logs at the level the session set (logging/setLevel, on the SDK's path) and above only", async () => {
      const [fast, sdk] = [await open("fast", "", "alice", revision), await open("sdk", "", "alice", revision)];
      const setLevel = { jsonrpc: "2.0", id: 4, method: "logging/setLevel", params: { level: "warning" } };
      expect(await raw(fast, setLevel)).toBe(await raw(sdk, setLevel));
      const answers = [
        await raw(fast, call(5, "p1h__flood", { count: 2 })),
        await raw(sdk, call(5, "p1h__flood", { count: 2 })),
      ];
      expect(answers[0]).toBe(answers[1]);
      expect(answers[0]).not.toContain("notifications/message");
    });
  });

  it("a caller's rate: the same answers call by call, the refusal past it", async () => {
    const [fast, sdk] = [await open("fast", "", "bob", "2025-11-25"), await open("sdk", "", "bob", "2025-11-25")];
    const strip = (text: string): string => text.replace(/try again in \d+ s/, "").replace(/retryAfterMs":\d+/, "");
    for (let i = 0; i < 4; i++) {
      const answers = [
        await raw(fast, call(i, "p1h__flood", { count: 1 })),
        await raw(sdk, call(i, "p1h__flood", { count: 1 })),
      ];
      expect(strip(answers[0]!)).toBe(strip(answers[1]!));
      if (i === 3) expect(answers[0]).toContain('"code":429');
    }
  });

  it("a batch takes the SDK's path, answered alike", async () => {
    const [fast, sdk] = [await open("fast", "", "alice", "2025-03-26"), await open("sdk", "", "alice", "2025-03-26")];
    const batch = [call(6, "odd__echo", { text: "a" }), { jsonrpc: "2.0", id: 7, method: "ping" }];
    const before = served.count;
    const answers = [await raw(fast, batch), await raw(sdk, batch)];
    expect(served.count).toBe(before);
    expect(answers[0]).toBe(answers[1]);
    expect(answers[0]).toContain('"id":7');
  });

  it("a call with a progress token on the fast path, its progress on its stream; another method on the SDK's, answered alike", async () => {
    const [fast, sdk] = [await open("fast", "", "alice", "2025-06-18"), await open("sdk", "", "alice", "2025-06-18")];
    for (const [message, taken, seen] of [
      [
        call(8, "p1h__probe", { secret: "pt", steps: 2 }, { progressToken: "t" }),
        1,
        '"progressToken":"t","progress":2',
      ],
      [call(9, "p1h__flood", { count: 1 }, { progressToken: 7 }), 1, '"id":9'],
      [{ jsonrpc: "2.0", id: 10, method: "prompts/list" }, 0, '"id":10'],
    ] as const) {
      const before = served.count;
      // The probe's questions go to a caller that declared nothing: refused, on both paths alike.
      const answers = [await raw(fast, message), await raw(sdk, message)];
      expect(served.count).toBe(before + taken);
      expect(answers[0]).toBe(answers[1]);
      expect(answers[0]).toContain(seen);
    }
  });

  it("a caller that can be asked questions: its tools/list, ping and calls on the fast path, answered alike", async () => {
    const asking = { sampling: {}, elicitation: {}, roots: { listChanged: true } };
    const [fast, sdk] = [
      await open("fast", "", "alice", "2025-11-25", asking),
      await open("sdk", "", "alice", "2025-11-25", asking),
    ];
    for (const [message, taken] of [
      [{ jsonrpc: "2.0", id: 1, method: "tools/list" }, 1],
      [{ jsonrpc: "2.0", id: 2, method: "ping" }, 1],
      [call(3, "odd__echo", { text: "asked" }), 1],
    ] as const) {
      const before = served.count;
      expect(await raw(fast, message)).toBe(await raw(sdk, message));
      expect(served.count).toBe(before + taken);
    }
  });

  it("a caller that can be asked questions, on the fast path: its progress, questions and answers reach it", async () => {
    const client = new Client1(
      { name: "asked", version: "1" },
      { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
    );
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: "assistant",
      content: { type: "text", text: "sampled-by-caller" },
      model: "m",
    }));
    client.setRequestHandler(ElicitRequestSchema, () => ({
      action: "accept",
      content: { answer: "elicited-by-caller" },
    }));
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///caller-root" }] }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(urls.fast), {
        requestInit: { headers: { authorization: `Bearer ${tokenOf("alice")}` } },
      }),
    );
    const before = served.count;
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: "p1h__probe", arguments: { secret: "s1" } }, undefined, {
        onprogress: (p) => void progress.push(p.progress),
      });
      const text = (result.content as { text: string }[])[0]!.text;
      expect(JSON.parse(text)).toEqual({
        secret: "s1",
        sampled: "sampled-by-caller",
        elicited: "elicited-by-caller",
        roots: ["file:///caller-root"],
      });
      expect(progress).toEqual([1, 2]);
      expect(served.count).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it("a call the fast path serves is cancelled by the caller's notifications/cancelled: upstream too, and no answer comes", async () => {
    const session = await open("fast", "", "alice", "2025-11-25");
    const headers = {
      authorization: `Bearer ${session.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": session.id,
      "mcp-protocol-version": session.revision,
    };
    const cancelled = new Promise<string>((resolve) => probeEvents.once("cancelled", resolve));
    const before = served.count;
    const response = await fetch(urls.fast, {
      method: "POST",
      headers,
      body: JSON.stringify(call(9, "p1h__flood", { count: 1_000_000 })),
    });
    expect(served.count).toBe(before + 1);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    // The call is under way once its first log arrives.
    while (!seen.includes("notifications/message")) seen += decoder.decode((await reader.read()).value);
    const cancel = await fetch(urls.fast, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } }),
    });
    expect(cancel.status).toBe(202);
    expect(await cancelled).toBe("flood");
    // The audit says so; the stream never carries an answer (read what is there, then leave).
    await expect.poll(() => audits.fast.some((e) => e.outcome === "cancelled" && e.tool === "p1h__flood")).toBe(true);
    await reader.cancel();
    expect(seen).not.toContain('"result"');
  });

  it("the same audit entries, but for their times", () => {
    const strip = (entries: AuditEntry[]): unknown[] =>
      entries
        // What only the fast gateway was sent (the asked caller's probe, the cancelled flood) aside.
        .filter((e) => ["tools/call", "tools/list", "ping"].includes(e.method ?? "") && e.tool !== "p1h__probe")
        .filter((e) => e.outcome !== "cancelled")
        .map(({ time: _time, durationMs: _durationMs, ...rest }) => rest);
    expect(strip(audits.fast).length).toBeGreaterThan(50);
    expect(strip(audits.fast)).toEqual(strip(audits.sdk));
  });
});
