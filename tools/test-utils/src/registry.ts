// A stand-in for the MCP registry: the read paths of its v0.1 API on 127.0.0.1, serving whatever
// server.json documents a test gives it (by default the registry repository's own examples, see
// registry-examples.ts). The real registry cannot be run here, and tests never leave loopback.
//   GET /v0.1/servers?search=&limit=&cursor=&version=latest
//   GET /v0.1/servers/{name, URL-encoded}/versions/{version | latest}
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { REGISTRY_EXAMPLES } from "./registry-examples.js";

/** One published version. */
export interface StandInServer {
  server: Record<string, unknown>;
  status?: "active" | "deprecated" | "deleted" | undefined;
}

/** What a test may make the stand-in answer instead (a broken registry); `undefined` serves as usual. */
export type StandInOverride = (url: URL) => { status: number; body: string; type?: string } | undefined;

export interface StandInRegistry {
  /** The base URL (`http://127.0.0.1:<port>`). */
  url: string;
  /** Every request's URL, in order. */
  requests: URL[];
  /** Adds a version (it becomes the latest of its name). */
  publish(server: Record<string, unknown>, status?: StandInServer["status"]): void;
  /** Changes a published version's status. */
  setStatus(name: string, version: string, status: StandInServer["status"]): void;
  override: StandInOverride | undefined;
  close(): Promise<void>;
}

/**
 * Starts the stand-in. `pageSize` caps every page (default 5, so the examples need three pages),
 * whatever `limit` asks for, as a real registry caps it at its own maximum.
 */
export async function startRegistry(
  options: { servers?: StandInServer[]; pageSize?: number; override?: StandInOverride } = {},
): Promise<StandInRegistry> {
  const published: StandInServer[] = (options.servers ?? REGISTRY_EXAMPLES).map((entry) => ({ ...entry }));
  const cap = options.pageSize ?? 5;
  const requests: URL[] = [];
  const latest = (entry: StandInServer): boolean =>
    published.filter((e) => e.server["name"] === entry.server["name"]).at(-1) === entry;
  const wrap = (entry: StandInServer): object => ({
    server: entry.server,
    _meta: {
      "io.modelcontextprotocol.registry/official": {
        status: entry.status ?? "active",
        publishedAt: "2025-09-01T00:00:00Z",
        updatedAt: "2025-09-01T00:00:00Z",
        isLatest: latest(entry),
      },
    },
  });
  const send = (res: ServerResponse, status: number, body: unknown, type = "application/json"): void => {
    res.writeHead(status, { "content-type": type });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.push(url);
    const special = registry.override?.(url);
    if (special) return send(res, special.status, special.body, special.type);
    if (req.method !== "GET") return send(res, 405, { error: "Method not allowed" });
    if (url.pathname === "/v0.1/servers") {
      const search = (url.searchParams.get("search") ?? "").toLowerCase();
      const version = url.searchParams.get("version");
      const limit = Math.min(Number(url.searchParams.get("limit") ?? cap) || cap, cap);
      const matches = published.filter(
        (e) =>
          String(e.server["name"]).toLowerCase().includes(search) &&
          (version !== "latest" || latest(e)) &&
          (version === null || version === "latest" || e.server["version"] === version),
      );
      const cursor = url.searchParams.get("cursor");
      const start =
        cursor === null
          ? 0
          : Number(
              Buffer.from(cursor, "base64url")
                .toString()
                .replace(/^offset:/, ""),
            );
      if (!Number.isInteger(start) || start < 0) return send(res, 400, { error: "Invalid cursor" });
      const page = matches.slice(start, start + limit);
      const next =
        start + limit < matches.length ? Buffer.from(`offset:${start + limit}`).toString("base64url") : undefined;
      return send(res, 200, {
        servers: page.map(wrap),
        metadata: { count: page.length, ...(next ? { nextCursor: next } : {}) },
      });
    }
    // The name is one URL-encoded segment (its slash is %2F).
    const parts = url.pathname.split("/");
    if (parts.length === 6 && parts[1] === "v0.1" && parts[2] === "servers" && parts[4] === "versions") {
      const name = decodeURIComponent(parts[3]!);
      const version = decodeURIComponent(parts[5]!);
      const versions = published.filter((e) => e.server["name"] === name);
      const found = version === "latest" ? versions.at(-1) : versions.find((e) => e.server["version"] === version);
      return found ? send(res, 200, wrap(found)) : send(res, 404, { error: "Server not found" });
    }
    send(res, 404, { error: "Not found" });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const registry: StandInRegistry = {
    url: `http://127.0.0.1:${port}`,
    requests,
    override: options.override,
    publish: (entry, status) => void published.push({ server: entry, status }),
    setStatus(name, version, status) {
      const found = published.find((e) => e.server["name"] === name && e.server["version"] === version);
      if (!found) throw new Error(`${name}@${version} is not published`);
      found.status = status;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return registry;
}
