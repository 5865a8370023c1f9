// A question never overtakes progress the server sent before it. The upstream (an SDK v2 server
// over stdio, spoken to in the 2025 era: its questions are server→client requests) sends a call's
// progress and, in the same turn, asks its caller to sample. Through two gateways — one with its
// fast paths, one without, each over a manager and server of its own — a raw 2025 session and a raw 2026-07-28 caller make
// such calls; whatever counts fast-check picks, each caller must see all of the call's progress
// before the question (the request on a 2025 stream; the `input_required` answer on 2026-07-28),
// then the call's result with its own answer.
import { createServer, type Server } from "node:http";
import { MCPManager, MemoryPinStore } from "@mcp/manager";
import fc from "fast-check";
import { progressAskStdioEntry } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, gatewayHandlers, parseCallers } from "../src/index.js";

type Kind = "fast" | "sdk";
type Message = Record<string, unknown>;

const TOKEN = "ann-token-0123456789";
const TOOL = "ask__progress_then_ask";
const SAMPLED = (request: Message): Message => ({
  role: "assistant",
  content: {
    type: "text",
    text: `sampled ${String((request["messages"] as { content: { text: string } }[])[0]!.content.text)}`,
  },
  model: "m",
});

/** What a caller saw of one call, in order: `progress`, `question` (with the question), `result` (with the text). */
type Seen =
  { kind: "progress"; progress: number } | { kind: "question"; params: Message } | { kind: "result"; text: string };

/** The JSON-RPC messages of an answer, as they arrive (an event stream's, or a JSON body's one). */
async function* messagesOf(response: Response): AsyncGenerator<Message> {
  if (!response.headers.get("content-type")?.includes("text/event-stream")) {
    yield (await response.json()) as Message;
    return;
  }
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
      const data = /^data: (.*)$/m.exec(buffer.slice(0, at))?.[1];
      buffer = buffer.slice(at + 2);
      if (data !== undefined) yield JSON.parse(data) as Message;
    }
  }
}

describe("progress then a question, through the gateway: the caller sees the progress first", () => {
  const urls: Record<Kind, string> = { fast: "", sdk: "" };
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    // A manager each (over stdio nothing ties a question to its call: it is its manager's gateway's).
    for (const kind of ["fast", "sdk"] as const) {
      const handlers = gatewayHandlers();
      const manager = new MCPManager({
        pins: { store: new MemoryPinStore() },
        ...handlers,
        cache: false,
        // The 2025 era: the server asks with a request of its own, right after its progress.
        connect: { ...handlers.connect, protocol: "2025" },
      });
      await manager.connectServers({ ask: { command: process.execPath, args: [progressAskStdioEntry] } });
      stops.push(() => manager.disconnectAll());
      const gateway = createGateway(manager, {
        handlers,
        tokens: parseCallers(JSON.stringify({ ann: { token: TOKEN } }), "callers.json"),
        fastPath: kind === "fast",
      });
      const app: Server = createServer((req, res) => void gateway.handle(req, res));
      await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
      urls[kind] = `http://127.0.0.1:${(app.address() as { port: number }).port}/mcp`;
      stops.push(async () => {
        app.closeAllConnections();
        await new Promise<void>((resolve) => app.close(() => resolve()));
        await gateway.close();
      });
    }
  });

  afterAll(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  const base = {
    authorization: `Bearer ${TOKEN}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const post = (kind: Kind, headers: Record<string, string>, body: unknown): Promise<Response> =>
    fetch(urls[kind], { method: "POST", headers: { ...base, ...headers }, body: JSON.stringify(body) });

  /** A 2025 session (sampling declared) calls the tool; each question is answered as it arrives. */
  async function legacyCall(kind: Kind, tag: string, count: number): Promise<Seen[]> {
    const init = await post(
      kind,
      {},
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: { sampling: {} },
          clientInfo: { name: "raw", version: "1" },
        },
      },
    );
    await init.text();
    const session = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    expect((await post(kind, session, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    const seen: Seen[] = [];
    const response = await post(kind, session, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: TOOL, arguments: { tag, count }, _meta: { progressToken: "pt" } },
    });
    for await (const message of messagesOf(response)) {
      if (message["method"] === "notifications/progress")
        seen.push({ kind: "progress", progress: (message["params"] as { progress: number }).progress });
      else if (message["method"] === "sampling/createMessage") {
        const params = message["params"] as Message;
        seen.push({ kind: "question", params });
        const answer = await post(kind, session, { jsonrpc: "2.0", id: message["id"], result: SAMPLED(params) });
        expect(answer.status).toBe(202);
      } else if ("result" in message)
        seen.push({ kind: "result", text: (message["result"] as { content: { text: string }[] }).content[0]!.text });
    }
    await fetch(urls[kind], { method: "DELETE", headers: { ...base, ...session } });
    return seen;
  }

  /** A 2026-07-28 caller (sampling declared) calls the tool, answering its `input_required` round on the retry. */
  async function modernCall(kind: Kind, tag: string, count: number): Promise<Seen[]> {
    const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": TOOL };
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { sampling: {} },
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
      progressToken: "pt",
    };
    const seen: Seen[] = [];
    let retry: Message = {};
    for (let round = 0; round < 5; round++) {
      const response = await post(kind, headers, {
        jsonrpc: "2.0",
        id: round + 1,
        method: "tools/call",
        params: { name: TOOL, arguments: { tag, count }, _meta: meta, ...retry },
      });
      let next: Message | undefined;
      for await (const message of messagesOf(response)) {
        if (message["method"] === "notifications/progress")
          seen.push({ kind: "progress", progress: (message["params"] as { progress: number }).progress });
        const result = message["result"] as Message | undefined;
        if (result?.["resultType"] === "input_required") {
          const requests = result["inputRequests"] as Record<string, { method: string; params: Message }>;
          const inputResponses: Message = {};
          for (const [key, request] of Object.entries(requests)) {
            seen.push({ kind: "question", params: request.params });
            inputResponses[key] = SAMPLED(request.params);
          }
          next = { inputResponses, requestState: result["requestState"] };
        } else if (result) seen.push({ kind: "result", text: (result["content"] as { text: string }[])[0]!.text });
        else if ("error" in message) throw new Error(JSON.stringify(message));
      }
      if (!next) return seen;
      retry = next;
    }
    throw new Error("too many rounds");
  }

  const expected = (tag: string, count: number): Seen[] => [
    ...Array.from({ length: count }, (_, i) => ({ kind: "progress" as const, progress: i + 1 })),
    {
      kind: "question",
      params: expect.objectContaining({
        messages: [expect.objectContaining({ content: { type: "text", text: `sample ${tag}` } })],
      }) as Message,
    },
    { kind: "result", text: `${tag}: sampled sample ${tag}` },
  ];

  it("whatever the progress count, caller era and path", { timeout: 240_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom("2025", "2026-07-28"),
        fc.constantFrom<Kind>("fast", "sdk"),
        async (count, era, kind) => {
          const tag = `${era}/${kind}/${++run}`;
          const seen = await (era === "2025" ? legacyCall(kind, tag, count) : modernCall(kind, tag, count));
          expect(seen).toEqual(expected(tag, count));
        },
      ),
      { numRuns: 60 },
    );
  });
});
