// A Streamable HTTP server built on the official SDK's server classes, in-process, on 127.0.0.1.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export interface SdkServer {
  url: string;
  /** Headers of every request received, in order. */
  requests: { method: string; headers: IncomingMessage["headers"] }[];
  /** Forgets every session, as a restarted server would. */
  restart(): Promise<void>;
  /** Stops listening, then cuts every connection (no stream ends cleanly): a crash; the port refuses from then on. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

function buildMcpServer(): McpServer {
  const server = new McpServer({ name: "sdk-test-server", version: "1.0.0" });
  server.registerTool("add", { description: "Adds", inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  server.registerTool(
    "sleep",
    { description: "Answers after `ms` milliseconds", inputSchema: { ms: z.number() } },
    async ({ ms }, extra) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        extra.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return { content: [{ type: "text", text: `slept ${ms}` }] };
    },
  );
  server.registerTool(
    "repeat",
    { description: "Answers `text` repeated `times` times", inputSchema: { text: z.string(), times: z.number() } },
    ({ text, times }) => ({
      content: [{ type: "text", text: text.repeat(times) }],
    }),
  );
  server.registerPrompt("greeting", { description: "Greets", argsSchema: { name: z.string() } }, ({ name }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Hello, ${name}` } }],
  }));
  return server;
}

/** Options of {@link startSdkServer}. */
export interface SdkServerOptions {
  /** Answer with JSON bodies instead of SSE streams. */
  json?: boolean;
  tls?: { key: string; cert: string };
  /** Serve another server than the default one. */
  build?: () => McpServer;
  /** Resumable streams: the SDK's in-memory event store (every SSE event has an id), `retry: 20`. */
  resumable?: boolean;
  /**
   * How a request for a session the server does not know is refused: `404` (the SDK transport's
   * own answer, the default) or `400` "Bad Request: No valid session ID provided" (the SDK's
   * example servers' answer).
   */
  unknownSession?: 404 | 400;
  /** Sees each request first; returns true when it handled it (answered, or destroyed the socket). */
  intercept?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

/**
 * Starts a Streamable HTTP server on the official SDK (tools `add`, `sleep`, `repeat`; prompt `greeting`) on a
 * free loopback port; over HTTPS with `tls` (a PEM key and certificate); `build` serves another server.
 */
export async function startSdkServer(options: SdkServerOptions = {}): Promise<SdkServer> {
  let sessions = new Map<string, StreamableHTTPServerTransport>();
  const requests: SdkServer["requests"] = [];
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    requests.push({ method: req.method ?? "", headers: req.headers });
    if (options.intercept?.(req, res)) return;
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown) : undefined;
      const sessionId = req.headers["mcp-session-id"] as string | undefined;
      let transport = sessionId ? sessions.get(sessionId) : undefined;
      if (sessionId && !transport) {
        const [status, code, message] =
          options.unknownSession === 400
            ? [400, -32000, "Bad Request: No valid session ID provided"]
            : [404, -32001, "Session not found"];
        res
          .writeHead(status, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
        return;
      }
      if (!transport) {
        if (req.method !== "POST" || !isInitializeRequest(body)) {
          res
            .writeHead(400, { "content-type": "application/json" })
            .end(
              JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: no session" } }),
            );
          return;
        }
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: options.json === true,
          ...(options.resumable ? { eventStore: new InMemoryEventStore(), retryInterval: 20 } : {}),
          onsessioninitialized: (id) => {
            sessions.set(id, created);
          },
        });
        created.onclose = () => {
          if (created.sessionId) sessions.delete(created.sessionId);
        };
        await (options.build ?? buildMcpServer)().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  };
  const http: Server = options.tls ? createHttpsServer(options.tls, handler) : createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as { port: number };
  const closeSessions = async () => {
    const old = sessions;
    sessions = new Map();
    await Promise.all([...old.values()].map((t) => t.close()));
  };
  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}/mcp`,
    requests,
    restart: closeSessions,
    kill: async () => {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
      await closeSessions();
    },
    stop: async () => {
      await closeSessions();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
