/// <reference lib="dom" />
// MCP Apps in `mcp inspect`, in headless Chromium (Debian's, driven by playwright-core), with the
// real example servers from npm (@modelcontextprotocol/server-basic-vanillajs, -react, -preact,
// -vue 2.0.3, on ext-apps 2.0.4): each app renders beside its tool's result, receives the result,
// calls a tool back through the inspector, and everything it sends is in the log; it runs on an
// origin of its own and cannot reach the inspector's token or API, nor pass for the host, nor call
// another server's tools.
import { mkdirSync, mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { InspectorState, LogEntry } from "@mcp/inspector";
import { everythingEntry } from "mcp-test-utils";
import { chromium, type Browser, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { sandbox, userConfig, type Sandbox } from "./helpers.js";
import { startInspect, type RunningInspector } from "./inspect-helpers.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const SHOTS =
  process.env["SCREENSHOTS"] === "1"
    ? fileURLToPath(new URL("../../../packages/inspector/screenshots/", import.meta.url))
    : `${mkdtempSync(join(tmpdir(), "mcp-apps-shots-"))}/`;
const require = createRequire(import.meta.url);
/** An example server's stdio entry (its package exports only the server module, next to it). */
const entry = (name: string): string =>
  join(dirname(require.resolve(`@modelcontextprotocol/server-basic-${name}`)), "index.js");
const APPS = ["vanillajs", "react", "preact", "vue"] as const;

let box: Sandbox;
let inspector: RunningInspector;
let browser: Browser;
let page: Page;
let firstOrigin: string;

async function state(): Promise<InspectorState> {
  const response = await fetch(`http://127.0.0.1:${inspector.port}/api/state`, {
    headers: { "x-inspector-token": inspector.token },
  });
  return (await response.json()) as InspectorState;
}

/** The log's entries of what the app of `server` sent. */
async function appLog(server: string): Promise<LogEntry[]> {
  return (await state()).log.filter((e) => e.server === server && e.kind === "app");
}

/** Calls `get-time` of `server` in the page; resolves with the app's frame (inside the sandbox proxy) and the result's time. */
async function openApp(server: string): Promise<{ app: Frame; time: string }> {
  await page.click('button[name="view-tools"]');
  await page.fill('input[name="tool-search"]', `${server} get-time`);
  await page.click('.list button.item[data-tool="get-time"]');
  await page.waitForSelector(`.tool-panel[data-tool="mcp__${server}__get-time"]`);
  await page.click('button[name="call"]');
  await page.waitForSelector(".result.ok");
  const time = (await page.locator(".result pre.content.text").first().textContent())!;
  // The inspector frames a page of the app's own that frames the proxy.
  const outer = (await (await page.waitForSelector(".app-view iframe.app-frame")).contentFrame())!;
  await expect.poll(() => outer.childFrames().length, { timeout: 20_000 }).toBe(1);
  const proxy = outer.childFrames()[0]!;
  await expect.poll(() => proxy.childFrames().length, { timeout: 20_000 }).toBe(1);
  const app = proxy.childFrames()[0]!;
  // The app received the tool's result: it shows the time the call returned.
  await expect.poll(() => app.locator("body").textContent(), { timeout: 20_000 }).toContain(time);
  return { app, time };
}

/** Sends a raw JSON-RPC request from inside the app's frame to its parent (the proxy), and waits for the answer. */
type Answer = { id?: unknown; result?: unknown; error?: { code: number; message: string } };

function rawRequest(app: Frame, message: Record<string, unknown>): Promise<Answer> {
  return app.evaluate(
    (sent) =>
      new Promise<Answer>((resolve) => {
        addEventListener("message", (event: MessageEvent<Answer>) => {
          if (event.data?.id === sent["id"]) resolve(event.data);
        });
        parent.postMessage({ jsonrpc: "2.0", ...sent }, "*");
      }),
    message,
  );
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  box = sandbox();
  userConfig(box, {
    ...Object.fromEntries(APPS.map((name) => [name, { command: process.execPath, args: [entry(name), "--stdio"] }])),
    everything: { command: process.execPath, args: [everythingEntry, "stdio"] },
  });
  inspector = await startInspect(box);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(inspector.url);
  for (const name of APPS)
    await page.locator(`tr[data-server="${name}"] .status`, { hasText: /^connected$/ }).waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  expect(await inspector?.stop()).toBe(0);
  box?.remove();
});

describe("MCP Apps in mcp inspect", () => {
  it("renders the vanilla JS app beside the result; it calls a tool back, sends a message, a log line and a link, all in the log", async () => {
    const { app, time } = await openApp("vanillajs");
    firstOrigin = await app.evaluate(() => self.origin);
    expect(await page.locator(".tool-panel .tag.app").textContent()).toBe("MCP App ui://get-time/mcp-app.html");
    await page.screenshot({ path: `${SHOTS}apps.png` });

    const calls = async () =>
      (await state()).log.filter((e) => e.server === "vanillajs" && e.kind === "request" && e.method === "tools/call")
        .length;
    const before = await calls();
    await app.getByRole("button", { name: "Get Server Time" }).click();
    // The app's call ran as the user's do: a tools/call to the server, logged with its answer.
    await expect.poll(calls, { timeout: 15_000 }).toBe(before + 1);
    await expect
      .poll(async () => (await app.locator("#server-time").textContent()) !== time, { timeout: 15_000 })
      .toBe(true);

    await app.getByRole("button", { name: "Send Message" }).click();
    await expect
      .poll(() => page.locator(".app-said.message .app-said-text").textContent(), { timeout: 15_000 })
      .toBe("This is message text.");
    await app.getByRole("button", { name: "Send Log" }).click();
    await app.getByRole("button", { name: "Open Link" }).click();
    await expect
      .poll(() => page.locator(".app-said.link a").getAttribute("href"), { timeout: 15_000 })
      .toBe("https://modelcontextprotocol.io/");
    expect(await page.locator(".app-said.link a").getAttribute("rel")).toBe("noopener noreferrer");

    await expect
      .poll(async () => (await appLog("vanillajs")).some((e) => e.method === "notifications/message"), {
        timeout: 15_000,
      })
      .toBe(true);
    const methods = new Set((await appLog("vanillajs")).map((e) => e.method));
    for (const method of [
      "ui/initialize",
      "ui/notifications/initialized",
      "tools/call",
      "ui/message",
      "notifications/message",
      "ui/open-link",
    ])
      expect(methods, method).toContain(method);
    const logged = (await appLog("vanillajs")).find((e) => e.method === "notifications/message");
    expect(JSON.stringify(logged?.params)).toContain("This is log text.");
    await page.click('button[name="view-log"]');
    await page.fill('input[name="log-filter"]', "vanillajs");
    await page.locator('tr.entry[data-kind="app"][data-method="ui/open-link"]').waitFor();
    await page.screenshot({ path: `${SHOTS}apps-log.png` });
  });

  it("keeps the app away from the inspector's token and API, and from the host's place", async () => {
    const { app } = await openApp("vanillajs");
    // A server on loopback the app tries to reach: each request it gets is a way out of the app's CSP.
    const hits: string[] = [];
    const probe = createServer((req, res) => {
      hits.push(req.url ?? "");
      res.end("reached");
    });
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const listener = { url: `http://127.0.0.1:${(probe.address() as AddressInfo).port}`, hits };
    onTestFinished(() => new Promise<void>((resolve) => probe.close(() => resolve())));
    const seen = await app.evaluate(
      async ({ port, token, probe }) => {
        const attempt = async (run: () => unknown): Promise<unknown> => {
          try {
            return await run();
          } catch (error) {
            return `denied (${(error as Error).name})`;
          }
        };
        return {
          origin: self.origin,
          href: location.href,
          referrer: document.referrer,
          parentReferrer: document.referrer + window.parent.document.referrer,
          top: await attempt(() => window.top!.location.href),
          topPage: await attempt(() => window.top!.document.title),
          // Even with the token in hand, nothing reaches the inspector: its CSP allows no network.
          api: await attempt(
            async () =>
              (await fetch(`http://127.0.0.1:${port}/api/state`, { headers: { "x-inspector-token": token } })).status,
          ),
          pageWithToken: await attempt(async () => (await fetch(`http://127.0.0.1:${port}/?token=${token}`)).status),
          // Its CSP allows no network: not from its own window, nor from its proxy's, whose origin it shares.
          ownFetch: await attempt(async () => (await fetch(`${probe}/own`, { mode: "no-cors" })).type),
          parentFetch: await attempt(
            async () => (await window.parent.fetch(`${probe}/parent`, { mode: "no-cors" })).type,
          ),
        };
      },
      { port: inspector.port, token: inspector.token, probe: listener.url },
    );
    // An origin of its own (a site of its own: app-<id>.localhost), not the inspector's, and not the last app's.
    expect(seen.origin).toMatch(/^http:\/\/app-[0-9a-f]{12}\.localhost:\d+$/);
    expect(seen.origin).not.toBe(`http://127.0.0.1:${inspector.port}`);
    expect(seen.origin).not.toBe(firstOrigin);
    expect(seen.href).toBe("about:srcdoc");
    expect(`${seen.href} ${seen.referrer} ${seen.parentReferrer}`).not.toContain(inspector.token);
    expect(seen.top).toBe("denied (SecurityError)");
    expect(seen.topPage).toBe("denied (SecurityError)");
    expect(seen.api).toBe("denied (TypeError)");
    expect(seen.pageWithToken).toBe("denied (TypeError)");
    expect(seen.ownFetch).toBe("denied (TypeError)");
    expect(seen.parentFetch).toBe("denied (TypeError)");
    expect(listener.hits).toEqual([]);
    // And were the network open, the API refuses a request from the app's origin, token or not.
    const fromApp = await fetch(`http://127.0.0.1:${inspector.port}/api/state`, {
      headers: { "x-inspector-token": inspector.token, origin: seen.origin },
    });
    expect(fromApp.status).toBe(403);

    // A message the app posts straight to the inspector's page is not the proxy's: ignored.
    await app.evaluate(() =>
      window.top!.postMessage(
        { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "FORGED-TO-TOP" } },
        "*",
      ),
    );
    // Nor can the app hand the proxy another document, as if it were the host.
    await app.evaluate(() =>
      parent.postMessage(
        { jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: { html: "<p>replaced</p>" } },
        "*",
      ),
    );
    await app.getByRole("button", { name: "Send Log" }).click();
    await expect
      .poll(async () => (await appLog("vanillajs")).filter((e) => e.method === "notifications/message").length, {
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(await appLog("vanillajs"))).not.toContain("FORGED-TO-TOP");
    expect(app.parentFrame()!.childFrames()).toHaveLength(1);
    expect(await app.locator("body").textContent()).toContain("Get Server Time");

    // Its calls go to its own server only, and through the same route as the user's.
    const other = await rawRequest(app, {
      id: "probe-echo",
      method: "tools/call",
      params: { name: "echo", arguments: { message: "hi" } },
    });
    expect(other.error?.message).toBe(
      'no tool "echo" on server "vanillajs": an app calls only the tools of its own server',
    );
    const own = await rawRequest(app, {
      id: "probe-own",
      method: "tools/call",
      params: { name: "get-time", arguments: {} },
    });
    expect(JSON.stringify(own.result)).toMatch(/"time":"\d{4}-/);
  });

  it("sizes the frame's content box to the app's height, lets its forms submit, says what the sandbox stops, keeps one model context, and asks the app before ending it", async () => {
    const { app } = await openApp("vanillajs");
    const frame = page.locator(".app-view iframe.app-frame");
    // The app's own size, told again and again, stays its size (a border-box frame lost 2 px a round).
    for (let i = 0; i < 5; i++)
      await app.evaluate(() =>
        parent.postMessage(
          { jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { width: 300, height: 160 } },
          "*",
        ),
      );
    await expect
      .poll(
        async () =>
          (await appLog("vanillajs")).filter(
            (e) => e.method === "ui/notifications/size-changed" && (e.params as { height?: number }).height === 160,
          ).length,
        { timeout: 15_000 },
      )
      .toBeGreaterThanOrEqual(5);
    await expect.poll(() => frame.evaluate((el) => el.clientHeight), { timeout: 15_000 }).toBe(160);

    // A form's submit event reaches the app (the frame allows forms; its policy still stops the submission's navigation).
    const submitted = await app.evaluate(() => {
      const form = document.createElement("form");
      let fired = false;
      form.addEventListener("submit", (event) => {
        fired = true;
        event.preventDefault();
      });
      document.body.append(form);
      form.requestSubmit();
      form.remove();
      return fired;
    });
    expect(submitted).toBe(true);
    expect(await page.locator(".app-view .app-limits").textContent()).toBe(
      " sandboxed: its own origin, no HTTP, no WebSockets; WebRTC is not blocked",
    );

    // The model context the app sets replaces the one before it.
    for (const [i, text] of ["context one", "context two"].entries()) {
      const set = await rawRequest(app, {
        id: `context-${i}`,
        method: "ui/update-model-context",
        params: { content: [{ type: "text", text }] },
      });
      expect(set.result).toEqual({});
    }
    await expect
      .poll(() => page.locator(".app-said.context .app-said-text").allTextContents(), { timeout: 15_000 })
      .toEqual(["context two"]);

    // Closing it (another call) sends ui/resource-teardown to the app while it is still there: its answer is logged.
    const answers = async () => (await appLog("vanillajs")).filter((e) => e.method === "(answer)").length;
    const before = await answers();
    await openApp("vanillajs");
    await expect.poll(answers, { timeout: 15_000 }).toBe(before + 1);
  });

  it.each(["react", "preact", "vue"] as const)(
    "renders the %s app: it gets the result and calls a tool back",
    async (server) => {
      const { app } = await openApp(server);
      const calls = async () =>
        (await state()).log.filter((e) => e.server === server && e.kind === "request" && e.method === "tools/call")
          .length;
      const before = await calls();
      await app.getByRole("button", { name: "Get Server Time" }).click();
      await expect.poll(calls, { timeout: 15_000 }).toBe(before + 1);
      const methods = new Set((await appLog(server)).map((e) => e.method));
      for (const method of ["ui/initialize", "ui/notifications/initialized", "tools/call"])
        expect(methods, method).toContain(method);
    },
  );
});
