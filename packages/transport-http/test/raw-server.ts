// Raw TCP servers on loopback for what no HTTP server does on demand: bytes after a body, a
// connection cut at any byte, interim answers, a server that never answers. Each is stopped (and
// each transport opened here closed) after the test.
import { createServer, type Server, type Socket } from "node:net";
import { HttpTransport, type HttpTransportConfig } from "../src/index.js";
import { onCleanup } from "./harness.js";

export interface RawRequest {
  /** 1 for the first connection accepted, 2 for the next, … */
  connection: number;
  method: string;
  path: string;
  /** A request header (lower-case name) as its bytes arrived, one character per byte. */
  header(name: string): string | undefined;
  json: { id?: number; method?: string; params?: { requestId?: number } & Record<string, unknown> } | undefined;
}

export type Reply = (request: RawRequest, socket: Socket) => void;

export interface RawServer {
  url: string;
  origin: string;
  /** Every complete request the server read, in order. */
  requests: RawRequest[];
  /** Connections accepted so far. */
  connections: () => number;
  /** Connections open now. */
  open: () => number;
  /** Most connections open at once. */
  peak: () => number;
  stop(): Promise<void>;
}

/** A server that reads HTTP/1.1 requests framed by Content-Length and lets `reply` answer (or not). */
export async function rawServer(
  reply: Reply,
  onAccept?: (connection: number, socket: Socket) => boolean,
): Promise<RawServer> {
  const requests: RawRequest[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  let open = 0;
  let peak = 0;
  const server: Server = createServer((socket) => {
    const connection = ++accepted;
    sockets.add(socket);
    open++;
    peak = Math.max(peak, open);
    socket.on("close", () => {
      sockets.delete(socket);
      open--;
    });
    socket.on("error", () => undefined);
    if (onAccept && !onAccept(connection, socket)) return;
    let buffered = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf("\r\n\r\n");
        if (end === -1) return;
        const head = buffered.subarray(0, end).toString("latin1");
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const body = buffered.subarray(end + 4, end + 4 + length).toString("utf8");
        buffered = buffered.subarray(end + 4 + length);
        const [method = "", path = ""] = head.split(" ");
        const lines = head.split("\r\n").slice(1);
        const header = (name: string): string | undefined => {
          const line = lines.find((l) => l.toLowerCase().startsWith(`${name}:`));
          return line?.slice(name.length + 1).trim();
        };
        const request: RawRequest = {
          connection,
          method,
          path,
          header,
          json: body ? (JSON.parse(body) as RawRequest["json"]) : undefined,
        };
        requests.push(request);
        reply(request, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const raw: RawServer = {
    url: `http://127.0.0.1:${port}/mcp`,
    origin: `http://127.0.0.1:${port}`,
    requests,
    connections: () => accepted,
    open: () => open,
    peak: () => peak,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  onCleanup(() => raw.stop());
  return raw;
}

/** A whole HTTP/1.1 answer with a Content-Length body. */
export function response(body: string, extraHeaders = "", status = "200 OK", contentType = "application/json"): string {
  return `HTTP/1.1 ${status}\r\ncontent-type: ${contentType}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extraHeaders}\r\n${body}`;
}

/** A JSON-RPC result for `id`. */
export function answer(id: number | undefined, result: unknown): string {
  return JSON.stringify({ jsonrpc: "2.0", id, result });
}

/** A connected transport to `url` (10 s timeout, no fallback to HTTP+SSE), closed after the test. */
export async function open(url: string, config: Partial<HttpTransportConfig> = {}): Promise<HttpTransport> {
  const transport = new HttpTransport({ type: "http", url, timeout: 10_000, fallbackToSse: false, ...config });
  onCleanup(() => transport.close());
  await transport.connect();
  return transport;
}
