// The MCP Apps sandbox origins of the inspector: each app rendering gets two servers of its own on
// 127.0.0.1 (ports of their own: origins of their own, never the inspector's, never another app's).
// One serves the sandbox proxy page, whose window the app shares (its origin; the page is under the
// app's own policy, so the app could use its window — `parent.fetch` — were the page's policy wider
// than the app's). The other serves the frame the inspector embeds: a page with no script whose
// policy lets its one frame hold the proxy's origin and nothing else. The app can navigate the
// proxy's frame (it runs code there), and the inspector's page lets its frames hold any loopback
// port; the frame between them keeps such a navigation on the proxy's origin, which serves the proxy
// alone. No API, no token, no state. Both end when the app is closed.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AppCsp } from "./api.js";
import { appPolicy } from "./app-csp.js";
import { sandboxPage } from "./page.js";

/** One app's sandbox origins. */
export interface AppSandbox {
  /** The proxy's origin, `http://127.0.0.1:<port>`: the app's. */
  origin: string;
  /** The proxy page's URL. */
  url: string;
  /** The page the inspector frames (on an origin of its own), which frames the proxy. */
  frame: string;
  close(): Promise<void>;
}

const NOT_FOUND = {
  "content-type": "text/plain; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'",
};

/** A server on a free 127.0.0.1 port answering `GET /sandbox` (with its own Host) by `serve`, anything else 404. */
async function listen(serve: (res: ServerResponse, url: URL) => void): Promise<{ server: Server; origin: string }> {
  let port = 0;
  const server = createServer((req: IncomingMessage, res) => {
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (!hosts.includes((req.headers.host ?? "").toLowerCase()) || req.method !== "GET" || url.pathname !== "/sandbox")
      return void res.writeHead(404, NOT_FOUND).end("not found");
    serve(res, url);
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
  return { server, origin: `http://127.0.0.1:${port}` };
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Sandbox origins for the inspector page at `hostOrigin()` (asked per request: the inspector may listen after this is made). */
export class SandboxOrigins {
  readonly #hostOrigin: () => string;
  readonly #open = new Set<AppSandbox>();

  constructor(hostOrigin: () => string) {
    this.#hostOrigin = hostOrigin;
  }

  /**
   * New origins serving the proxy page, under the policy of an app that declared `csp`, and the
   * frame around it. `features` are the browser features the app declared (`microphone`, …): the
   * frame page delegates to the proxy those of them its URL names (`?allow=microphone,camera`), which
   * the inspector's page asks for once the user granted them; it delegates nothing else.
   */
  async open(csp: AppCsp, features: readonly string[] = []): Promise<AppSandbox> {
    const policy = appPolicy(csp);
    let outer = "";
    const proxy = await listen((res) => {
      const host = this.#hostOrigin();
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        // Framed by the frame page inside the inspector only, under the app's policy (which its
        // document inherits, and carries itself too).
        "content-security-policy": `frame-ancestors ${outer} ${host}; ${policy}`,
      });
      res.end(sandboxPage({ hostOrigin: host }));
    });
    let frame: { server: Server; origin: string };
    try {
      frame = await listen((res, url) => {
        const granted = (url.searchParams.get("allow") ?? "")
          .split(",")
          .filter((feature) => features.includes(feature));
        const allow = granted.length ? ` allow="${granted.join("; ")}"` : "";
        res.writeHead(200, {
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
          "referrer-policy": "no-referrer",
          // No script; its frame holds the proxy's origin or nothing.
          "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; frame-src ${proxy.origin}; base-uri 'none'; form-action 'none'; frame-ancestors ${this.#hostOrigin()}`,
        });
        res.end(
          `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>MCP App</title><style>html, body { margin: 0; height: 100%; overflow: hidden; background: transparent; } iframe { border: 0; width: 100%; height: 100%; display: block; }</style></head>` +
            `<body><iframe src="${proxy.origin}/sandbox"${allow} sandbox="allow-scripts allow-same-origin allow-forms" referrerpolicy="no-referrer" title="MCP App sandbox"></iframe></body></html>`,
        );
      });
    } catch (error) {
      await stop(proxy.server);
      throw error;
    }
    outer = frame.origin;
    const sandbox: AppSandbox = {
      origin: proxy.origin,
      url: `${proxy.origin}/sandbox`,
      frame: `${frame.origin}/sandbox`,
      close: async () => {
        if (!this.#open.delete(sandbox)) return;
        await Promise.all([stop(proxy.server), stop(frame.server)]);
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
