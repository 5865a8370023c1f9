// The MCP Apps sandbox origins of `mcp inspect`: each app rendering gets a server of its own on
// 127.0.0.1 (a port of its own: an origin of its own, never the inspector's, never another app's)
// that serves the sandbox proxy page and nothing else — no API, no token, no state. Only the
// inspector's page may frame it, and the page is under the app's own policy: the app shares its
// origin, so could use its window (`parent.fetch`) were the page's policy wider than the app's. It
// ends when the app is closed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { appPolicy, sandboxPage, type AppCsp } from "@mcp/inspector";

/** One app's sandbox origin. */
export interface AppSandbox {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** The proxy page's URL. */
  url: string;
  close(): Promise<void>;
}

/** Sandbox origins for the inspector page at `hostOrigin()` (asked per request: the inspector may listen after this is made). */
export class SandboxOrigins {
  readonly #hostOrigin: () => string;
  readonly #open = new Set<AppSandbox>();

  constructor(hostOrigin: () => string) {
    this.#hostOrigin = hostOrigin;
  }

  /** A new origin serving the proxy page, under the policy of an app that declared `csp`. */
  async open(csp: AppCsp): Promise<AppSandbox> {
    let port = 0;
    const policy = appPolicy(csp);
    const server: Server = createServer((req, res) => {
      const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
      const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
      if (!hosts.includes((req.headers.host ?? "").toLowerCase()) || req.method !== "GET" || path !== "/sandbox") {
        res.writeHead(404, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "content-security-policy": "default-src 'none'" }).end("not found");
        return;
      }
      const host = this.#hostOrigin();
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        // Framed by the inspector only, under the app's policy (which its document inherits, and
        // carries itself too).
        "content-security-policy": `frame-ancestors ${host}; ${policy}`,
      });
      res.end(sandboxPage({ hostOrigin: host }));
    });
    server.on("clientError", (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
    const origin = `http://127.0.0.1:${port}`;
    const sandbox: AppSandbox = {
      origin,
      url: `${origin}/sandbox`,
      close: async () => {
        if (!this.#open.delete(sandbox)) return;
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
    this.#open.add(sandbox);
    return sandbox;
  }

  /** Closes every origin still open. */
  async close(): Promise<void> {
    await Promise.all([...this.#open].map((sandbox) => sandbox.close()));
  }
}
