// The MCP Apps sandbox origins of the inspector: each app rendering gets two servers of its own on
// 127.0.0.1 (ports of their own: origins of their own, never the inspector's, never another app's),
// reached under a hostname of its own, `app-<id>.localhost` (browsers resolve every `*.localhost` to
// loopback themselves). A hostname of its own makes it a site of its own: Chromium's site isolation
// keys processes by site (scheme and host, the port left out), so each app runs in a process of its
// own, apart from the inspector's page (`127.0.0.1`) and from the other apps; under a port alone every
// app shared the page's process, and an app's busy loop froze the page.
// One serves the sandbox proxy page, whose window the app shares (its origin; the page is under the
// app's own policy, so the app could use its window — `parent.fetch` — were the page's policy wider
// than the app's). The other serves the frame the inspector embeds: a page with no script whose
// policy lets its one frame hold the proxy's origin and nothing else. The app can navigate the
// proxy's frame (it runs code there), and the inspector's page lets its frames hold any loopback
// port; the frame between them keeps such a navigation on the proxy's origin, which serves the proxy
// alone. No API, no token, no state. Both end when the app is closed.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AppCsp } from "./api.js";
import { appPolicy } from "./app-csp.js";
import { sandboxPage } from "./page.js";

/** One app's sandbox origins. */
export interface AppSandbox {
  /** The proxy's origin, `http://app-<id>.localhost:<port>`: the app's (a site of its own). */
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

/**
 * A server on a free 127.0.0.1 port answering `GET /sandbox` by `serve`, anything else 404; only
 * under its own name (`Host: <hostname>:<port>`: a DNS rebinding page's Host is refused).
 */
async function listen(
  hostname: string,
  serve: (res: ServerResponse, url: URL) => void,
): Promise<{ server: Server; origin: string }> {
  let port = 0;
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (
      (req.headers.host ?? "").toLowerCase() !== `${hostname}:${port}` ||
      req.method !== "GET" ||
      url.pathname !== "/sandbox"
    )
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
  return { server, origin: `http://${hostname}:${port}` };
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
    // The app's site: its proxy and its frame page share it (one process for the app), on two ports.
    const hostname = `app-${randomBytes(6).toString("hex")}.localhost`;
    let outer = "";
    const proxy = await listen(hostname, (res) => {
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
      frame = await listen(hostname, (res, url) => {
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
