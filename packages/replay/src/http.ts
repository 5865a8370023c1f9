// A recording served as a Streamable HTTP MCP server on 127.0.0.1, at /mcp.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ErrorCodes, isJsonRpcRequest } from "@mcp/jsonrpc";
import type { Recording } from "./file.js";
import { ReplaySession, type ReplayEvent, type Send } from "./session.js";

/** The largest POST body read (16 MiB). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** One client's session: its replay state and its listening (GET) streams. */
interface HttpSession {
  replay: ReplaySession;
  listeners: Set<ServerResponse>;
}

/** A running replay server. */
export interface ReplayHttpServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  port: number;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

/** Options of {@link serveReplayHttp}. */
export interface ReplayHttpOptions {
  /** The port on 127.0.0.1. Default: a free one. */
  port?: number | undefined;
  /** Each client message, and the recorded line that answered it (or the error sent). */
  onEvent?: ((event: ReplayEvent) => void) | undefined;
}

const LOOPBACK = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i;

/** Whether a browser page's `Origin` is this server's own: `http://` and the host and port the request was sent to (`Host`). */
function ownOrigin(origin: string, host: string): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  return url.protocol === "http:" && url.origin === origin.toLowerCase() && url.host === host.toLowerCase();
}

function rpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
  res.writeHead(status, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

async function readJson(
  req: IncomingMessage,
): Promise<{ value: unknown } | { status: number; message: string; code: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      return { status: 413, code: ErrorCodes.InvalidRequest, message: `the body is over ${MAX_BODY_BYTES} bytes` };
    chunks.push(chunk);
  }
  try {
    return { value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    return { status: 400, code: ErrorCodes.ParseError, message: "Parse error: the body is not JSON" };
  }
}

/** Opens an SSE answer; each `send` is one `message` event. */
function eventStream(res: ServerResponse, headers: Record<string, string>): Send {
  res.writeHead(200, {
    ...headers,
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  res.flushHeaders();
  return (message) => {
    if (!res.writableEnded) res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  };
}

/**
 * Serves `recording` over Streamable HTTP at `http://127.0.0.1:<port>/mcp`. An `initialize` opens a
 * session of its own (`Mcp-Session-Id`), which replays the recording from its start; requests
 * without a session id (2026-07-28, stateless) share one. A request's answer is JSON when it is the
 * response alone, else an SSE stream of the recorded messages; messages answering a notification go
 * to the session's GET stream, when one is open. Only a loopback `Host` is served, and only a page of
 * the server's own origin (no other port of this machine).
 */
export async function serveReplayHttp(
  recording: Recording,
  options: ReplayHttpOptions = {},
): Promise<ReplayHttpServer> {
  const sessions = new Map<string, HttpSession>();
  const shared: HttpSession = { replay: new ReplaySession(recording, options.onEvent), listeners: new Set() };
  const toListeners =
    (session: HttpSession): Send =>
    (message) => {
      for (const res of session.listeners) res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = req.headers.host ?? "";
    if (!LOOPBACK.test(host))
      return rpcError(
        res,
        403,
        ErrorCodes.InvalidRequest,
        `Host "${host}" is not served: only 127.0.0.1 and localhost`,
      );
    const origin = req.headers.origin;
    // A page on another port of this machine is another site's page: only the server's own origin.
    if (origin !== undefined && !ownOrigin(origin, host))
      return rpcError(
        res,
        403,
        ErrorCodes.InvalidRequest,
        `Origin "${origin}" is not served: only this server's own (http://${host})`,
      );
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (path !== "/mcp") return rpcError(res, 404, ErrorCodes.InvalidRequest, `Not found: the replay serves /mcp`);
    const id = req.headers["mcp-session-id"];
    let session: HttpSession | undefined = shared;
    if (typeof id === "string") {
      session = sessions.get(id);
      if (!session) return rpcError(res, 404, ErrorCodes.InvalidRequest, "Session not found");
    }

    if (req.method === "DELETE") {
      if (typeof id !== "string")
        return rpcError(res, 405, ErrorCodes.InvalidRequest, "DELETE needs an Mcp-Session-Id", { allow: "GET, POST" });
      session.replay.close();
      for (const listener of session.listeners) listener.end();
      sessions.delete(id);
      res.writeHead(200).end();
      return;
    }
    if (req.method === "GET") {
      if (!/text\/event-stream/.test(req.headers.accept ?? ""))
        return rpcError(res, 406, ErrorCodes.InvalidRequest, "GET needs Accept: text/event-stream");
      const stream = session;
      eventStream(res, {});
      stream.listeners.add(res);
      res.once("close", () => stream.listeners.delete(res));
      return;
    }
    if (req.method !== "POST")
      return rpcError(res, 405, ErrorCodes.InvalidRequest, `Method ${req.method ?? ""} not allowed`, {
        allow: "GET, POST, DELETE",
      });

    const body = await readJson(req);
    if (!("value" in body)) return rpcError(res, body.status, body.code, body.message);
    const items: unknown[] = Array.isArray(body.value) ? body.value : [body.value];
    const headers: Record<string, string> = {};
    if (typeof id !== "string" && items.some((item) => isJsonRpcRequest(item) && item.method === "initialize")) {
      const fresh = randomUUID();
      session = { replay: new ReplaySession(recording, options.onEvent), listeners: new Set() };
      sessions.set(fresh, session);
      headers["mcp-session-id"] = fresh;
    }
    const current = session;
    if (!items.some((item) => isJsonRpcRequest(item))) {
      // Notifications and answers: accepted; what the recording sent after them goes to the GET stream.
      void current.replay.receive(body.value, toListeners(current));
      res.writeHead(202, headers).end();
      return;
    }
    const replies = items.map((item) => ({ item, messages: isJsonRpcRequest(item) ? current.replay.reply(item) : [] }));
    const only = replies.length === 1 ? replies[0]!.messages : undefined;
    if (only?.length === 1 && !("method" in only[0]!)) {
      const text = JSON.stringify(only[0]);
      res.writeHead(200, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    const send = eventStream(res, headers);
    for (const { item, messages } of replies) {
      if (isJsonRpcRequest(item)) await current.replay.play(messages, send);
      else await current.replay.receive(item, send);
    }
    res.end();
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) rpcError(res, 500, ErrorCodes.InternalError, (error as Error).message);
      else res.destroy();
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    close: async () => {
      for (const session of [shared, ...sessions.values()]) session.replay.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
