// What a gateway serves besides MCP, before any caller is known: its protected resource metadata
// (RFC 9728) when it takes an issuer's tokens, `/healthz` and `/readyz` for probes, `/metrics` for
// Prometheus (behind its own token, or to loopback only). Only those turned on are served.

import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { MCPManager } from "@mcp/manager";
import type { GatewayMetrics } from "./metrics.js";
import type { OidcAuth } from "./oidc.js";

/** Options of the operations endpoints (see {@link withOperations}). */
export interface OperationsOptions {
  /** Serve `/healthz` (the process answers) and `/readyz` (every upstream connected), unauthenticated, saying nothing more. */
  probes?: boolean | undefined;
  /**
   * Serve `/metrics` (Prometheus text): given a token, to a request bearing it (`Authorization:
   * Bearer <token>`); without, to a loopback peer only. Off by default.
   */
  metrics?: boolean | { token?: string | undefined } | undefined;
}

const LOOPBACK_PEERS = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/** The server states in which an upstream does not hold readiness back. */
const SETTLED = new Set(["connected", "disabled", "not-approved"]);

function text(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res
    .writeHead(status, {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      "content-length": String(Buffer.byteLength(body)),
      ...headers,
    })
    .end(body);
}

function sameSecret(given: string, want: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What the operations front needs of its gateway. */
export interface OperationsContext {
  manager: MCPManager;
  oidc: OidcAuth | undefined;
  metrics: GatewayMetrics | undefined;
  metricsToken: string | undefined;
  probes: boolean;
  holds(): Record<string, number>;
}

/** What the URL of every operations path begins with. */
const OPERATION_PATHS = /^\/(?:\.well-known\/oauth-protected-resource|healthz|readyz|metrics)/;

/** The path of a request URL (no query). */
function pathOf(url: string | undefined): string {
  const at = (url ?? "/").search(/[?#]/);
  return at < 0 ? (url ?? "/") : url!.slice(0, at);
}

/**
 * `handle` with the operations endpoints in front: the paths turned on are answered here, every
 * other request goes on to `handle` as before.
 */
export function withOperations(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  ops: OperationsContext,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const wellKnown = "/.well-known/oauth-protected-resource";
  const operate = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = pathOf(req.url);
    const read = req.method === "GET" || req.method === "HEAD";
    if (ops.oidc && (path === wellKnown || path.startsWith(`${wellKnown}/`))) {
      if (!read) return text(res, 405, "Method not allowed", { allow: "GET, HEAD" });
      const body = JSON.stringify(ops.oidc.metadata());
      // A public document: any page may read it (a browser client discovers the issuer with it).
      res
        .writeHead(200, {
          "content-type": "application/json",
          "cache-control": "max-age=300",
          "access-control-allow-origin": "*",
          "content-length": String(Buffer.byteLength(body)),
        })
        .end(req.method === "HEAD" ? undefined : body);
      return;
    }
    if (ops.probes && (path === "/healthz" || path === "/readyz")) {
      if (!read) return text(res, 405, "Method not allowed", { allow: "GET, HEAD" });
      if (path === "/healthz") return text(res, 200, "ok\n");
      const ready = ops.manager.getStatuses().every((status) => SETTLED.has(status.state));
      return text(res, ready ? 200 : 503, ready ? "ready\n" : "not ready\n");
    }
    if (ops.metrics && path === "/metrics") {
      if (!read) return text(res, 405, "Method not allowed", { allow: "GET, HEAD" });
      if (ops.metricsToken !== undefined) {
        const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
        if (!match || !sameSecret(match[1]!, ops.metricsToken))
          return text(res, 401, "A valid metrics token is required\n", {
            "www-authenticate": 'Bearer realm="mcp-gateway-metrics"',
          });
      } else if (
        !LOOPBACK_PEERS.has(req.socket.remoteAddress ?? "") ||
        (req.headers.host !== undefined && !/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i.test(req.headers.host))
      ) {
        // Without a token only this machine may read them, and only by a loopback name (no DNS rebinding).
        return text(res, 403, "Metrics are served to loopback only (set a metrics token to serve them further)\n");
      }
      return text(res, 200, ops.metrics.render(ops.manager, ops.holds()), {
        "content-type": "text/plain; version=0.0.4; charset=utf-8",
      });
    }
    return handle(req, res);
  };
  // Every other request (the MCP endpoint's: nearly all) goes straight on, with no step of ours in between.
  return (req, res) => (OPERATION_PATHS.test(req.url ?? "/") ? operate(req, res) : handle(req, res));
}
