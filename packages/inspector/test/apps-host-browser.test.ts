/// <reference lib="dom" />
// What the inspector, as an MCP Apps host (SEP-1865, 2026-01-26), tells an app, in headless Chromium
// with an app on the official SDK (test/fixtures/host-app-server.mjs: its tool `hold` answers only
// once `release` is called, and its app records every message the host sends): the app opens when
// the call starts and has the call's input before the call ends, its result after; its host context
// holds the page's styles and its container's width; it changes display mode (inline, fullscreen,
// pip) by `ui/request-display-mode`, answered with the mode set, the frame changing; and it is told
// of each change (mode, theme, width) by `ui/notifications/host-context-changed`.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MCPManager } from "@mcp/manager";
import { chromium, type Browser, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectorHooks, startInspector, type CallAnswer, type Inspector } from "../src/index.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const FIXTURE = fileURLToPath(new URL("./fixtures/host-app-server.mjs", import.meta.url));

/** The user's config file the page may edit: an app must never get a server into it. */
const configDir = mkdtempSync(join(tmpdir(), "inspector-apps-config-"));
const configFile = join(configDir, "mcp-client.json");
const hooks = inspectorHooks();
const manager = new MCPManager({ ...hooks, cache: false, pins: false });
let inspector: Inspector;
let browser: Browser;
let page: Page;

type Got = { method?: string; params?: Record<string, unknown> };
type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

beforeAll(async () => {
  inspector = await startInspector(manager, { hooks, config: { file: configFile } });
  await manager.connectServers({ host: { command: process.execPath, args: [FIXTURE], timeout: 20_000 } });
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
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
    ],
  });
  page = await (await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: "light" })).newPage();
  await page.goto(inspector.url);
});

afterAll(async () => {
  await browser?.close();
  await inspector?.close();
  await manager.disconnectAll();
  rmSync(configDir, { recursive: true, force: true });
});

/** The API, as a script with the token would use it. */
async function callApi<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${inspector.port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-inspector-token": inspector.token },
    body: JSON.stringify(body),
  });
  return (await response.json()) as T;
}

/** Starts a call of `hold` in page `on`. */
async function startHeld(label: string, on: Page = page): Promise<void> {
  await on.click('button[name="view-tools"]');
  await on.fill('input[name="tool-search"]', "host hold");
  await on.click('.list button.item[data-tool="hold"]');
  await on.fill('input[name="label"]', label);
  await on.click('button[name="call"]');
}

/** The app's frame (inside the frame page and the sandbox proxy) in page `on`, once it is initialized. */
async function appFrame(on: Page = page): Promise<Frame> {
  const outer = (await (await on.waitForSelector(".app-view iframe.app-frame", { timeout: 20_000 })).contentFrame())!;
  await expect.poll(() => outer.childFrames().length, { timeout: 20_000 }).toBe(1);
  const proxy = outer.childFrames()[0]!;
  await expect.poll(() => proxy.childFrames().length, { timeout: 20_000 }).toBe(1);
  const app = proxy.childFrames()[0]!;
  await expect.poll(() => app.locator("#status").textContent(), { timeout: 20_000 }).toBe("initialized");
  return app;
}

/** Starts a call of `hold` and answers the permission prompt, if there is one, with deny; resolves with the app's frame. */
async function openHeld(label: string): Promise<Frame> {
  await startHeld(label);
  await page.waitForSelector(".app-permissions, .app-view iframe.app-frame", { timeout: 20_000 });
  if ((await page.locator(".app-permissions").count()) > 0) await page.click('button[name="app-deny"]');
  return appFrame();
}

/** What the app gets when it asks for the microphone: the number of audio tracks, or the error's name. */
const microphone = (app: Frame): Promise<string> =>
  app.evaluate(() =>
    navigator.mediaDevices.getUserMedia({ audio: true }).then(
      (stream) => {
        const tracks = stream.getAudioTracks().length;
        for (const track of stream.getTracks()) track.stop();
        return `${tracks} audio track`;
      },
      (error: Error) => error.name,
    ),
  );

/** The app's frame element in the inspector's page: its `src` and `allow`. */
async function frameAttributes(on: Page): Promise<{ src: string; allow: string }> {
  const frame = on.locator(".app-view iframe.app-frame");
  return { src: (await frame.getAttribute("src")) ?? "", allow: (await frame.getAttribute("allow")) ?? "" };
}

describe("an MCP App's permissions", () => {
  it("asks the user before the app's frame exists; denied, the frame may not use the microphone, and the answer is remembered", async () => {
    await startHeld("deny");
    const ask = page.locator(".app-permissions");
    await ask.waitFor({ timeout: 20_000 });
    expect(await ask.getAttribute("data-ask")).toBe("microphone");
    expect(await page.locator(".app-view iframe.app-frame").count()).toBe(0);
    await page.click('button[name="app-deny"]');
    const app = await appFrame();
    const { src, allow } = await frameAttributes(page);
    expect(allow).toContain("microphone 'none'");
    expect(src).not.toContain("allow=");
    expect(await microphone(app)).toBe("NotAllowedError");
    const init = await app.evaluate(
      () => (window as unknown as { __init: { hostCapabilities: { sandbox: { permissions: unknown } } } }).__init,
    );
    expect(init.hostCapabilities.sandbox.permissions).toEqual({});
    await callApi<CallAnswer>("/api/call", { id: "release-deny", tool: "mcp__host__release", arguments: {} });
    await page.locator(".result.ok", { hasText: "held deny released" }).waitFor({ timeout: 15_000 });
    // Again in this tab: not asked again.
    await startHeld("deny again");
    await appFrame();
    expect(await page.locator(".app-permissions").count()).toBe(0);
    expect(await page.locator(".app-granted").textContent()).toContain("Denied: microphone");
    await callApi<CallAnswer>("/api/call", { id: "release-deny-2", tool: "mcp__host__release", arguments: {} });
    await page.locator(".result.ok", { hasText: "held deny again released" }).waitFor({ timeout: 15_000 });
  });

  it("granted in another tab, the frame chain delegates the microphone to the app, which gets a track", async () => {
    const other = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    try {
      await other.goto(inspector.url);
      await startHeld("allow", other);
      await other.locator('.app-permissions[data-ask="microphone"]').waitFor({ timeout: 20_000 });
      await other.click('button[name="app-allow"]');
      const app = await appFrame(other);
      const { src, allow } = await frameAttributes(other);
      expect(allow).toContain(`microphone ${new URL(src).origin}`);
      expect(allow).toContain("camera 'none'");
      expect(new URL(src).searchParams.get("allow")).toBe("microphone");
      expect(await other.locator(".app-granted").getAttribute("data-granted")).toBe("microphone");
      expect(await microphone(app)).toBe("1 audio track");
      const init = await app.evaluate(
        () => (window as unknown as { __init: { hostCapabilities: { sandbox: { permissions: unknown } } } }).__init,
      );
      expect(init.hostCapabilities.sandbox.permissions).toEqual({ microphone: {} });
      await callApi<CallAnswer>("/api/call", { id: "release-allow", tool: "mcp__host__release", arguments: {} });
      await other.locator(".result.ok", { hasText: "held allow released" }).waitFor({ timeout: 15_000 });
    } finally {
      await other.context().close();
    }
  });
});

const got = (app: Frame): Promise<Got[]> => app.evaluate(() => (window as unknown as { __got: Got[] }).__got);
const changes = async (app: Frame): Promise<Record<string, unknown>[]> =>
  (await got(app)).filter((m) => m.method === "ui/notifications/host-context-changed").map((m) => m.params ?? {});
const request = (app: Frame, method: string, params: Record<string, unknown>): Promise<Answer> =>
  app.evaluate(
    ([m, p]) =>
      (window as unknown as { __request: (method: string, params: unknown) => Promise<Answer> }).__request(m, p),
    [method, params] as const,
  );

describe("an MCP App in the inspector", () => {
  it("opens when the call starts, with the input before the call ends and the result after", async () => {
    const app = await openHeld("early");
    await expect
      .poll(async () => (await got(app)).map((m) => m.method), { timeout: 15_000 })
      .toContain("ui/notifications/tool-input");
    expect((await got(app)).find((m) => m.method === "ui/notifications/tool-input")?.params).toEqual({
      arguments: { label: "early" },
    });
    // The call is still running: no result yet, and the page says so.
    expect((await got(app)).some((m) => m.method === "ui/notifications/tool-result")).toBe(false);
    expect(await page.locator(".app-running").count()).toBe(1);
    const released = await callApi<CallAnswer>("/api/call", {
      id: "release-1",
      tool: "mcp__host__release",
      arguments: {},
    });
    expect(released.error).toBeUndefined();
    await expect
      .poll(async () => (await got(app)).map((m) => m.method), { timeout: 15_000 })
      .toContain("ui/notifications/tool-result");
    const methods = (await got(app)).map((m) => m.method);
    expect(methods.indexOf("ui/notifications/tool-input")).toBeLessThan(
      methods.indexOf("ui/notifications/tool-result"),
    );
    expect(JSON.stringify((await got(app)).find((m) => m.method === "ui/notifications/tool-result")?.params)).toContain(
      "held early released",
    );
    await page.locator(".result.ok", { hasText: "held early released" }).waitFor({ timeout: 15_000 });
  });

  it("tells the app its host context, changes display mode on request, and tells it of every change", async () => {
    const app = await openHeld("modes");
    const init = await app.evaluate(
      () => (window as unknown as { __init: { hostContext: Record<string, unknown> } }).__init,
    );
    const context = init.hostContext as {
      theme: string;
      displayMode: string;
      availableDisplayModes: string[];
      containerDimensions: { width: number; maxHeight: number };
      styles: { variables: Record<string, string> };
    };
    expect(context.theme).toBe("light");
    expect(context.displayMode).toBe("inline");
    expect(context.availableDisplayModes).toEqual(["inline", "fullscreen", "pip"]);
    const frameWidth = (await page.locator(".app-view iframe.app-frame").boundingBox())!.width;
    expect(context.containerDimensions.width).toBe(Math.round(frameWidth));
    expect(context.containerDimensions.maxHeight).toBeGreaterThan(0);
    expect(context.styles.variables["--color-text-primary"]).toMatch(/^#|^rgb/);
    expect(context.styles.variables["--font-sans"]).toBeTruthy();

    // Fullscreen: answered with the mode set, the frame covers the window, the app is told.
    expect((await request(app, "ui/request-display-mode", { mode: "fullscreen" })).result).toEqual({
      mode: "fullscreen",
    });
    await page.locator('.app-view[data-mode="fullscreen"]').waitFor();
    await expect.poll(async () => (await page.locator(".app-view").boundingBox())?.width).toBe(1400);
    await expect
      .poll(() => changes(app))
      .toContainEqual(
        expect.objectContaining({ displayMode: "fullscreen", containerDimensions: { width: 1400, height: 900 } }),
      );
    // Picture in picture, then a mode the host has not: the current one is the answer.
    expect((await request(app, "ui/request-display-mode", { mode: "pip" })).result).toEqual({ mode: "pip" });
    await page.locator('.app-view[data-mode="pip"]').waitFor();
    await expect.poll(async () => (await page.locator(".app-view").boundingBox())?.width).toBe(420);
    await expect
      .poll(() => changes(app))
      .toContainEqual(
        expect.objectContaining({ displayMode: "pip", containerDimensions: { width: 420, height: 320 } }),
      );
    expect((await request(app, "ui/request-display-mode", { mode: "sideways" })).result).toEqual({ mode: "pip" });
    // The user takes it back inline.
    await page.click('button[name="app-inline"]');
    await page.locator('.app-view[data-mode="inline"]').waitFor();
    await expect.poll(() => changes(app)).toContainEqual(expect.objectContaining({ displayMode: "inline" }));

    // The theme changes: the app is told, with the styles of the new theme.
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(() => changes(app)).toContainEqual(expect.objectContaining({ theme: "dark" }));
    const dark = (await changes(app)).find((c) => c["theme"] === "dark") as {
      styles: { variables: Record<string, string> };
    };
    expect(dark.styles.variables["--color-text-primary"]).not.toBe(context.styles.variables["--color-text-primary"]);
    await page.emulateMedia({ colorScheme: "light" });

    // The window narrows (the page's layout changes the frame's width): the app is told its container's new width.
    await page.setViewportSize({ width: 1000, height: 900 });
    const narrowed = Math.round((await page.locator(".app-view iframe.app-frame").boundingBox())!.width);
    expect(narrowed).not.toBe(Math.round(frameWidth));
    await expect
      .poll(() => changes(app))
      .toContainEqual({ containerDimensions: { width: narrowed, maxHeight: context.containerDimensions.maxHeight } });
    await page.setViewportSize({ width: 1400, height: 900 });
    await callApi<CallAnswer>("/api/call", { id: "release-2", tool: "mcp__host__release", arguments: {} });
    await page.locator(".result.ok", { hasText: "held modes released" }).waitFor({ timeout: 15_000 });
  });
});

describe("an MCP App's big messages", () => {
  it("relays a message over 1 MB in parts (a 4.5 MB tools/call reaches the server whole), and refuses one over 16 MiB with a JSON-RPC error that says why", async () => {
    const app = await openHeld("big");
    const call = (blob: { unit: string; times: number }): Promise<Answer> =>
      app.evaluate(
        ({ unit, times }) =>
          (window as unknown as { __request: (method: string, params: unknown) => Promise<Answer> }).__request(
            "tools/call",
            { name: "measure", arguments: { blob: unit.repeat(times) } },
          ),
        blob,
      );
    // 3,000,000 characters, half of them quotes (escaped twice: in the message's JSON and in each part's body) and half not ASCII.
    const big = await call({ unit: 'é"', times: 1_500_000 });
    expect(big.error).toBeUndefined();
    expect(JSON.stringify(big.result)).toContain("got 3000000 characters");
    // Over the limit: never sent; the app is told why, and so is the page's user.
    const huge = await call({ unit: "x", times: 17 * 1024 * 1024 });
    expect(huge.error?.code).toBe(-32600);
    expect(huge.error?.message).toContain("at most 16 MiB");
    await page.locator(".app-view .app-refused", { hasText: "tools/call" }).waitFor({ timeout: 15_000 });
    // The API takes parts in order only, and no more of them than the limit.
    const view = (await page.locator(".app-view").getAttribute("data-view"))!;
    const part = (index: number, count: number) =>
      fetch(`http://127.0.0.1:${inspector.port}/api/app/message`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-inspector-token": inspector.token },
        body: JSON.stringify({ view, part: { id: "p", index, count, data: "{" } }),
      });
    expect((await part(1, 3)).status).toBe(400);
    expect((await part(0, 1000)).status).toBe(413);
    await callApi<CallAnswer>("/api/call", { id: "release-big", tool: "mcp__host__release", arguments: {} });
    await page.locator(".result.ok", { hasText: "held big released" }).waitFor({ timeout: 15_000 });
  }, 90_000);
});

describe("several MCP Apps side by side", () => {
  /** Calls `tool` of the fixture with `label` (denying the microphone if asked); resolves with its app's frame. */
  async function open(tool: "show" | "hold", label: string): Promise<Frame> {
    await page.click('button[name="view-tools"]');
    await page.fill('input[name="tool-search"]', `host ${tool}`);
    await page.click(`.list button.item[data-tool="${tool}"]`);
    await page.fill('input[name="label"]', label);
    await page.click('button[name="call"]');
    // The new call's app (not kept open yet).
    const selector = `.app-view[data-tool="mcp__host__${tool}"][data-kept="false"]`;
    const view = page.locator(selector);
    await page.waitForSelector(`${selector} :is(.app-permissions, iframe.app-frame)`, { timeout: 20_000 });
    if ((await view.locator(".app-permissions").count()) > 0) await view.locator('button[name="app-deny"]').click();
    const outer = (await (await view.locator("iframe.app-frame").elementHandle({ timeout: 20_000 })).contentFrame())!;
    await expect.poll(() => outer.childFrames()[0]?.childFrames().length, { timeout: 20_000 }).toBe(1);
    const app = outer.childFrames()[0]!.childFrames()[0]!;
    await expect.poll(() => app.locator("#status").textContent(), { timeout: 20_000 }).toBe("initialized");
    return app;
  }
  const inputOf = async (app: Frame): Promise<unknown> =>
    (await got(app)).find((m) => m.method === "ui/notifications/tool-input")?.params?.["arguments"];

  it("keeps an app open beside the next call's app, of another tool too; the others close as before", async () => {
    const left = await open("show", "left");
    await page.locator(".result.ok", { hasText: "shown left" }).waitFor({ timeout: 15_000 });
    await page.click('.app-view[data-tool="mcp__host__show"] button[name="app-keep"]');
    await page.locator('.app-view[data-tool="mcp__host__show"][data-kept="true"]').waitFor();
    // Another tool's call: its app opens beside the kept one, and each has its own call's input.
    const right = await open("hold", "right");
    expect(await page.locator(".apps-board .app-view").count()).toBe(2);
    expect(await inputOf(left)).toEqual({ label: "left" });
    expect(await inputOf(right)).toEqual({ label: "right" });
    // Both are live: each answers its own requests.
    expect((await request(left, "ping", {})).result).toEqual({});
    expect((await request(right, "ping", {})).result).toEqual({});
    // Hostile, the left app cannot speak for the right one: it sends `release` (which would end the
    // right one's call) to every frame it can reach — each app's frame page, the other's proxy — and
    // to the page.
    const logged = async (): Promise<number> =>
      (
        await (
          await fetch(`http://127.0.0.1:${inspector.port}/api/state`, {
            headers: { "x-inspector-token": inspector.token },
          })
        ).json()
      ).log.filter((e: { kind: string; method: string }) => e.kind === "app" && e.method === "tools/call").length;
    const before = await logged();
    const reached = await left.evaluate(() => {
      const forged = { jsonrpc: "2.0", id: 999, method: "tools/call", params: { name: "release", arguments: {} } };
      const targets: Window[] = [top!];
      for (let i = 0; i < top!.frames.length; i++) {
        targets.push(top!.frames[i]!);
        for (let j = 0; j < top!.frames[i]!.frames.length; j++) targets.push(top!.frames[i]!.frames[j]!);
      }
      // Not its own proxy: through it, the app speaks as itself (and may call its own server's tools).
      const others = targets.filter((target) => target !== parent);
      for (const target of others) target.postMessage(forged, "*");
      return others.length;
    });
    // The page, the two frame pages, the right app's proxy (and any closing app's frames, kept until it answers its teardown).
    expect(reached).toBeGreaterThanOrEqual(4);
    // A round trip of each app after the forged messages: nothing of them was relayed, nor run.
    expect((await request(left, "ping", {})).result).toEqual({});
    expect((await request(right, "ping", {})).result).toEqual({});
    expect(await logged()).toBe(before);
    expect(await page.locator(".app-running").count()).toBe(1);
    await callApi<CallAnswer>("/api/call", { id: "release-side", tool: "mcp__host__release", arguments: {} });
    await page.locator(".result.ok", { hasText: "held right released" }).waitFor({ timeout: 15_000 });
    // Another call of show: the app not kept (hold's) closes; the kept one stays beside the new one.
    await open("show", "again");
    await expect.poll(() => page.locator(".apps-board .app-view").count(), { timeout: 15_000 }).toBe(2);
    expect(await page.locator('.app-view[data-tool="mcp__host__hold"]').count()).toBe(0);
    expect(await page.locator('.app-view[data-kept="true"]').count()).toBe(1);
    // Closing the kept one leaves the last call's app alone.
    await page.click('.app-view[data-kept="true"] button[name="app-close"]');
    await expect.poll(() => page.locator(".apps-board .app-view").count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator('.app-view[data-kept="false"]').count()).toBe(1);
  }, 90_000);
});

describe("an MCP App's tool calls, asked of the user", () => {
  it("asks before a call of a tool annotated destructive, and before every call while the app's switch is on; a refusal is the app's error and nothing runs", async () => {
    const app = await openHeld("ask");
    const calls = async (tool: string): Promise<number> =>
      (
        await (
          await fetch(`http://127.0.0.1:${inspector.port}/api/state`, {
            headers: { "x-inspector-token": inspector.token },
          })
        ).json()
      ).log.filter(
        (e: { kind: string; method: string; params?: { name?: string } }) =>
          e.kind === "request" && e.method === "tools/call" && e.params?.name === tool,
      ).length;
    const ask = page.locator(".app-view .app-ask-call");
    // Destructive: asked; refused, the app gets an error and the server is never called.
    const refused = request(app, "tools/call", { name: "wipe", arguments: {} });
    await ask.locator('button[name="app-call-refuse"]').click({ timeout: 15_000 });
    expect((await refused).error?.message).toContain('the user refused the call of "wipe"');
    expect(await calls("wipe")).toBe(0);
    // Allowed: it runs.
    const allowed = request(app, "tools/call", { name: "wipe", arguments: {} });
    expect(await ask.getAttribute("data-tool", { timeout: 15_000 })).toBe("wipe");
    await ask.locator('button[name="app-call-allow"]').click();
    expect(JSON.stringify((await allowed).result)).toContain("wiped");
    expect(await calls("wipe")).toBe(1);
    // Not destructive: not asked, until the switch is on.
    expect(JSON.stringify((await request(app, "tools/call", { name: "measure", arguments: {} })).result)).toContain(
      "got 0 characters",
    );
    expect(await ask.count()).toBe(0);
    // A click, then the switch's state once the page has rendered it: `page.check` reads the state right after
    // its click and failed once on a busy machine; the dialog below proves the switch took.
    const askAll = page.locator('.app-view input[name="app-ask"]');
    await askAll.click();
    await expect.poll(() => askAll.isChecked(), { timeout: 15_000 }).toBe(true);
    const measured = request(app, "tools/call", { name: "measure", arguments: { blob: "abc" } });
    await ask.locator('button[name="app-call-allow"]').click({ timeout: 15_000 });
    expect(JSON.stringify((await measured).result)).toContain("got 3 characters");
    await callApi<CallAnswer>("/api/call", { id: "release-ask", tool: "mcp__host__release", arguments: {} });
    await page.locator(".result.ok", { hasText: "held ask released" }).waitFor({ timeout: 15_000 });
  }, 90_000);
});

describe("a process per app", () => {
  it("runs each app on a site of its own (app-<id>.localhost), out of the page's process: the app's 4 s busy loop leaves the page's timers running; the app cannot reach the config endpoints", async () => {
    const app = await openHeld("busy");
    const host = new URL(await app.evaluate(() => self.origin)).hostname;
    expect(host).toMatch(/^app-[0-9a-f]{12}\.localhost$/);
    // Chromium made the app's frames out-of-process frames: targets of their own in the protocol.
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send("Target.getTargets")) as {
      targetInfos: { type: string; url: string }[];
    };
    await cdp.detach();
    const oopifs = targetInfos.filter((t) => t.type === "iframe" && t.url.startsWith(`http://${host}:`));
    expect(oopifs.length).toBeGreaterThan(0);
    // The page ticks every 50 ms (started before the app spins), the app spins 4 s; then the page's
    // longest wait between ticks, its last one included. In one process the ticks stop for the loop.
    type Ticks = Window & { __last: number; __gap: number; __tick: ReturnType<typeof setInterval> };
    await page.evaluate(() => {
      const w = window as unknown as Ticks;
      w.__last = performance.now();
      w.__gap = 0;
      w.__tick = setInterval(() => {
        const now = performance.now();
        w.__gap = Math.max(w.__gap, now - w.__last);
        w.__last = now;
      }, 50);
    });
    await app.evaluate(() => {
      const end = Date.now() + 4_000;
      while (Date.now() < end);
    });
    const gap = await page.evaluate(() => {
      const w = window as unknown as Ticks;
      clearInterval(w.__tick);
      return Math.max(w.__gap, performance.now() - w.__last);
    });
    expect(gap).toBeLessThan(1_500);
    // Hostile, the app cannot add a server to the user's config (nor list or remove one), even with
    // the token: its policy allows no HTTP, from its window or its proxy's; and the API refuses its origin.
    const attempts = await app.evaluate(
      async ({ port, token }) => {
        const attempt = (run: () => Promise<number>): Promise<string> =>
          run().then(
            (status) => `status ${status}`,
            (error: Error) => `denied (${error.name})`,
          );
        const init = {
          method: "POST",
          headers: { "content-type": "application/json", "x-inspector-token": token },
          body: JSON.stringify({ name: "planted", config: { command: "sh", args: ["-c", "id"] } }),
        };
        const url = (path: string): string => `http://127.0.0.1:${port}/api/config/${path}`;
        return [
          await attempt(async () => (await fetch(url("save"), init)).status),
          await attempt(async () => (await window.parent.fetch(url("save"), init)).status),
          await attempt(async () => (await fetch(url("servers"), init)).status),
          await attempt(async () => (await fetch(url("remove"), init)).status),
        ];
      },
      { port: inspector.port, token: inspector.token },
    );
    expect(attempts).toEqual(Array(4).fill("denied (TypeError)"));
    const fromApp = await fetch(`http://127.0.0.1:${inspector.port}/api/config/save`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-inspector-token": inspector.token, origin: `http://${host}:1` },
      body: JSON.stringify({ name: "planted", config: { command: "sh" } }),
    });
    expect(fromApp.status).toBe(403);
    expect(existsSync(configFile)).toBe(false);
    // The page itself may (the token holder's own act): the same file, so the checks above could fail.
    expect((await callApi<{ servers: unknown[] }>("/api/config/servers", {})).servers).toEqual([]);
    await callApi<CallAnswer>("/api/call", { id: "release-busy", tool: "mcp__host__release", arguments: {} });
    await page.locator(".result.ok", { hasText: "held busy released" }).waitFor({ timeout: 15_000 });
  }, 60_000);
});
