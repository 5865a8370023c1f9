// @mcp/client in a browser and in a worker, for real: web/exercise.ts bundled by esbuild for a page
// (`--platform=browser`) and for a module worker (`--platform=neutral --conditions=worker,browser`),
// run in headless Chromium (Debian's, driven by playwright-core) against server-everything (2025
// era) and the official SDK v2 server (2026-07-28), each on another loopback origin (CORS).
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import {
  startEverything,
  startSdkOAuthServer,
  startV2HttpServer,
  type EverythingServer,
  type SdkOAuthServer,
  type V2HttpServer,
} from "mcp-test-utils";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Plan, Summary } from "../web/exercise.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const web = (file: string): string => fileURLToPath(new URL(`../web/${file}`, import.meta.url));

interface Bundle {
  code: string;
  metafile: Metafile;
}
async function bundle(entry: string, worker: boolean | "node"): Promise<Bundle> {
  const result = await build({
    entryPoints: [web(entry)],
    bundle: true,
    format: "esm",
    minify: true,
    write: false,
    metafile: true,
    logLevel: "silent",
    ...(worker === "node"
      ? { platform: "node" }
      : worker
        ? { platform: "neutral", conditions: ["worker", "browser"], mainFields: ["module", "main"] }
        : { platform: "browser" }),
  });
  return { code: result.outputFiles[0]!.text, metafile: result.metafile };
}

/** Every Node built-in or Node-only module a bundle reached (none may). */
function nodeOnly(metafile: Metafile): string[] {
  const found = new Set<string>();
  for (const [path, input] of Object.entries(metafile.inputs)) {
    if (
      /(^|\/)node_modules\/(undici|\.pnpm\/undici)|transport-stdio\/dist\/(?!config\.js)|\/(node-pool|node-fetch|platform-node|platform-bun|stdio-node|node-only)\.js$/.test(
        path,
      )
    )
      found.add(path);
    for (const imported of input.imports)
      if (imported.path.startsWith("node:") || imported.external) found.add(imported.path);
  }
  return [...found];
}

let page: Bundle;
let worker: Bundle;
let callback: Bundle;
let oauth: SdkOAuthServer;
let site: Server;
let origin: string;
let everything: EverythingServer;
let v2: V2HttpServer;
let browser: Browser;
let tab: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install chromium), or set CHROMIUM_PATH`,
    );
  [page, worker, callback] = await Promise.all([
    bundle("page.ts", false),
    bundle("worker.ts", true),
    bundle("callback.ts", false),
  ]);
  const files: Record<string, [string, string]> = {
    "/": ["text/html", "<!doctype html><title>mcp web example</title><script type=module src=/page.js></script>"],
    "/page.js": ["text/javascript", page.code],
    "/worker.js": ["text/javascript", worker.code],
    "/callback.js": ["text/javascript", callback.code],
  };
  site = createServer((req, res) => {
    // The OAuth redirect page (/callback?code=…&state=…), an authorization server that refuses
    // (/deny?state=…), and one whose page the user closes (/close).
    const path = req.url ?? "";
    if (path.startsWith("/deny?"))
      return void res
        .writeHead(302, {
          location: `/callback?error=access_denied&error_description=the+user+said+no&state=${new URL(path, origin).searchParams.get("state")}`,
        })
        .end();
    const file = path.startsWith("/callback?")
      ? (["text/html", "<!doctype html><title>signed in</title><script type=module src=/callback.js></script>"] as [
          string,
          string,
        ])
      : path === "/close"
        ? (["text/html", "<!doctype html><script>close()</script>"] as [string, string])
        : files[path];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  [everything, v2, oauth] = await Promise.all([
    startEverything("streamableHttp"),
    startV2HttpServer({ cors: true }),
    startSdkOAuthServer({ cors: true }),
  ]);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  tab = await browser.newPage();
  tab.on("pageerror", (error) => pageErrors.push(error.message));
  await tab.goto(origin);
  await tab.waitForFunction(() => typeof (globalThis as { exercise?: unknown }).exercise === "function");
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([
    everything?.stop(),
    v2?.stop(),
    oauth?.stop(),
    new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve())),
  ]);
});

const plans = (): Record<"2025" | "2026-07-28", Plan> => ({
  "2025": {
    url: everything.url,
    call: { name: "echo", args: { message: "from the browser" } },
    progress: { name: "trigger-long-running-operation", args: { duration: 1, steps: 3 } },
    slow: { name: "trigger-long-running-operation", args: { duration: 30, steps: 30 }, cancelAfterMs: 500 },
    // server-everything offers get-roots-list to a client with roots, and says so.
    notification: "notifications/tools/list_changed",
  },
  "2026-07-28": {
    url: v2.url,
    call: { name: "add", args: { a: 2, b: 3 } },
    slow: { name: "slow", args: { ms: 30_000 }, cancelAfterMs: 500 },
    // Sent by the test below while the plan runs, down the listen stream.
    notification: "notifications/tools/list_changed",
    lite: {
      method: "tools/call",
      params: {
        name: "add",
        arguments: { a: 20, b: 22 },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "lite", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
      headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "add" },
    },
  },
});

async function run(where: "page" | "worker", plan: Plan): Promise<Summary> {
  const announce = setInterval(() => v2.notify.toolsChanged(), 200);
  try {
    const summary = await tab.evaluate(
      ([where, plan]) => {
        if (where === "page")
          return (globalThis as unknown as { exercise(plan: Plan): Promise<Summary> }).exercise(plan);
        // Runs in the page, where Worker exists (this file is type-checked against Node's types).
        type PageWorker = {
          onmessage: (event: { data: Summary }) => void;
          postMessage(value: unknown): void;
          terminate(): void;
        };
        const PageWorker = (
          globalThis as unknown as { Worker: new (url: string, options: { type: "module" }) => PageWorker }
        ).Worker;
        return new Promise<Summary>((resolve) => {
          const w = new PageWorker("/worker.js", { type: "module" });
          w.onmessage = (event) => {
            resolve(event.data);
            w.terminate();
          };
          w.postMessage(plan);
        });
      },
      [where, plan] as const,
    );
    if ("error" in summary) throw new Error(`${where}: ${String((summary as { error: unknown }).error)}`);
    return summary;
  } finally {
    clearInterval(announce);
  }
}

describe("the browser build", () => {
  it("has no Node built-in, undici or stdio transport in the page or the worker bundle", () => {
    expect(nodeOnly(page.metafile)).toEqual([]);
    expect(nodeOnly(worker.metafile)).toEqual([]);
    expect(nodeOnly(callback.metafile)).toEqual([]);
    // @mcp/oauth's Node-only half (files, the loopback listener, node:crypto signing) stays out too.
    expect(
      Object.keys(page.metafile.inputs).filter((p) => /oauth\/dist\/(storage|loopback|jwt|node-only)\.js$/.test(p)),
    ).toEqual([]);
    expect(page.code).not.toMatch(/\brequire\(|from"node:|import\("node:/);
    expect(worker.code).not.toMatch(/\brequire\(|from"node:|import\("node:/);
  });

  it("(the check sees Node modules: a Node build of the same entry takes the stdio transport and undici)", async () => {
    const found = nodeOnly((await bundle("page.ts", "node")).metafile);
    expect(found).toEqual(
      expect.arrayContaining([
        "node:child_process",
        expect.stringMatching(/undici/),
        expect.stringMatching(/stdio-node\.js$/),
      ]),
    );
  });

  for (const where of ["page", "worker"] as const) {
    it(`${where}: server-everything over Streamable HTTP, 2025 era — list, call, progress, cancel, a notification`, async () => {
      const summary = await run(where, plans()["2025"]);
      expect(summary).toMatchObject({
        era: "2025",
        protocolVersion: "2025-11-25",
        answer: "Echo: from the browser",
        cancelled: "AbortError",
        afterCancel: "Echo: from the browser",
      });
      expect(summary.server).toMatch(/everything/);
      expect(summary.tools).toEqual(expect.arrayContaining(["echo", "trigger-long-running-operation"]));
      expect(summary.progress).toEqual([1, 2, 3]);
      expect(summary.heard).toContain("notifications/tools/list_changed");
      expect(summary.stdio).toMatch(
        /^InvalidConfigError: MCP server "local": a stdio server needs a runtime that can start processes/,
      );
    }, 60_000);

    it(`${where}: the official SDK v2 server, 2026-07-28 — list, call, cancel, a notification on the listen stream`, async () => {
      const summary = await run(where, plans()["2026-07-28"]);
      expect(summary).toMatchObject({
        era: "2026-07-28",
        protocolVersion: "2026-07-28",
        server: "sdk-v2-test-server",
        answer: "5",
        cancelled: "AbortError",
        afterCancel: "5",
      });
      expect(summary.tools).toEqual(expect.arrayContaining(["add", "slow"]));
      expect(summary.heard).toContain("notifications/tools/list_changed");
      expect(summary.lite).toMatchObject({ jsonrpc: "2.0", result: { content: [{ type: "text", text: "42" }] } });
    }, 60_000);
  }

  it("page: signs in with OAuth (discovery, registration, PKCE with WebCrypto, a popup back to the app's callback page) and calls the protected server", async () => {
    const before = oauth.authorizations();
    const result = await tab.evaluate(
      ([url]) =>
        (
          globalThis as unknown as {
            signInAndCall(url: string, tool: string): Promise<{ text: string; authorizations: number }>;
          }
        ).signInAndCall(url, "whoami"),
      [oauth.url] as const,
    );
    expect(result.authorizations).toBe(1);
    expect(result.text).toMatch(/^client [\w-]+$/);
    expect(oauth.authorizations() - before).toBe(1);
  }, 60_000);

  it("page: the popup step says why it failed: the server refused, the user closed the popup, a redirect URI on another origin", async () => {
    const outcomes = await tab.evaluate(
      async ([origin]) => {
        type Step = (request: { url: URL; state: string; redirectUri: string }) => Promise<unknown>;
        const popupAuthorize = (globalThis as unknown as { popupAuthorize: (options: { timeoutMs: number }) => Step })
          .popupAuthorize;
        const attempt = (path: string, redirectUri = `${origin}/callback`): Promise<string> =>
          popupAuthorize({ timeoutMs: 10_000 })({ url: new URL(path, origin), state: "s1", redirectUri }).then(
            () => "resolved",
            (error: Error) => `${error.name}: ${error.message}`,
          );
        return [
          await attempt("/deny?state=s1"),
          await attempt("/close"),
          await attempt("/deny?state=s1", "http://elsewhere.test/callback"),
        ];
      },
      [origin] as const,
    );
    expect(outcomes[0]).toMatch(/^OAuthError: .*access_denied.*the user said no/);
    expect(outcomes[1]).toBe("OAuthError: The authorization popup was closed before it answered");
    expect(outcomes[2]).toMatch(
      /^OAuthError: The redirect URI http:\/\/elsewhere\.test\/callback is not on this page's origin/,
    );
  }, 60_000);

  it("raised no error on the page", () => {
    expect(pageErrors).toEqual([]);
  });
});
