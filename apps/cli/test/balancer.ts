// A round-robin HTTP load balancer for the replica tests: each request goes to the next replica
// that is alive (a replica whose connection fails is marked dead). Hand-made: it stands for the
// load balancer a deployment puts in front of its replicas, which no real MCP peer provides.
import { createServer, request, type IncomingMessage, type Server } from "node:http";

export interface Balancer {
  url: string;
  /** Which replica (index) served each request, with its JSON-RPC method. */
  served: { replica: number; method: string }[];
  dead: Set<number>;
  stop(): Promise<void>;
}

/**
 * `sticky`: a request with an `Mcp-Session-Id` goes to the replica that answered its session's
 * `initialize` while that one lives (session affinity, as 2025-era sessions want it). `byCaller`:
 * any other request goes to a replica chosen by its `Authorization` header (affinity by caller,
 * which keeps a 2026-07-28 caller's `input_required` retries on the replica that asked).
 */
export async function startBalancer(
  replicas: string[],
  options: { sticky?: boolean; byCaller?: boolean } = {},
): Promise<Balancer> {
  const targets = replicas.map((url) => new URL(url));
  const served: Balancer["served"] = [];
  const dead = new Set<number>();
  let next = 0;
  const affinity = new Map<string, number>();
  const pick = (): number | undefined => {
    for (let i = 0; i < targets.length; i++) {
      const index = (next + i) % targets.length;
      if (!dead.has(index)) {
        next = index + 1;
        return index;
      }
    }
    return undefined;
  };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const session = req.headers["mcp-session-id"];
      const pinned = options.sticky && typeof session === "string" ? affinity.get(session) : undefined;
      const byCaller =
        options.byCaller && typeof req.headers.authorization === "string"
          ? [...req.headers.authorization].reduce((sum, c) => sum + c.charCodeAt(0), 0) % targets.length
          : undefined;
      const index =
        pinned !== undefined && !dead.has(pinned)
          ? pinned
          : byCaller !== undefined && !dead.has(byCaller)
            ? byCaller
            : pick();
      if (index === undefined) return void res.writeHead(503).end();
      const method = (/"method"\s*:\s*"([^"]+)"/.exec(body.toString()) ?? [])[1] ?? req.method ?? "";
      served.push({ replica: index, method });
      const target = targets[index]!;
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          const opened = answer.headers["mcp-session-id"];
          if (typeof opened === "string") affinity.set(opened, index);
          if (typeof session === "string") affinity.set(session, index);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on("error", () => res.destroy());
          answer.on("aborted", () => {
            dead.add(index);
            res.destroy();
          });
        },
      );
      upstream.on("error", (error: NodeJS.ErrnoException) => {
        dead.add(index);
        // What failed, for whoever reads the caller's error.
        if (!res.headersSent) res.writeHead(502).end(`balancer: replica ${index}: ${error.code ?? error.message}`);
        else res.destroy();
      });
      res.on("close", () => upstream.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    served,
    dead,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
