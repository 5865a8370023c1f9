// Hand-made node:http servers for what no real MCP server can be made to do on purpose.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export interface Fixture {
  url: string;
  origin: string;
  seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
  stop(): Promise<void>;
}

export type Handler = (req: IncomingMessage & { body: string; json: any }, res: ServerResponse) => void | Promise<void>;

export async function startFixture(handler: Handler, path = "/mcp"): Promise<Fixture> {
  const seen: Fixture["seen"] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      let body = "";
      for await (const chunk of req) body += String(chunk);
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      await handler(Object.assign(req, { body, json }), res);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${path}`,
    origin: `http://127.0.0.1:${port}`,
    seen,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sendJson(
  res: ServerResponse,
  value: unknown,
  status = 200,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(value));
}

export function sse(res: ServerResponse, headers: Record<string, string> = {}): (text: string) => void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers });
  res.flushHeaders();
  return (text) => res.write(text);
}
