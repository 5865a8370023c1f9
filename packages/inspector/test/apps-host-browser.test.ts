/// <reference lib="dom" />
// What the inspector, as an MCP Apps host (SEP-1865, 2026-01-26), tells an app, in headless Chromium
// with an app on the official SDK (test/fixtures/host-app-server.mjs: its tool `hold` answers only
// once `release` is called, and its app records every message the host sends): the app opens when
// the call starts and has the call's input before the call ends, its result after; its host context
// holds the page's styles and its container's width; it changes display mode (inline, fullscreen,
// pip) by `ui/request-display-mode`, answered with the mode set, the frame changing; and it is told
// of each change (mode, theme, width) by `ui/notifications/host-context-changed`.
import { fileURLToPath } from "node:url";
import { MCPManager } from "@mcp/manager";
import { chromium, type Browser, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectorHooks, startInspector, type CallAnswer, type Inspector } from "../src/index.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const FIXTURE = fileURLToPath(new URL("./fixtures/host-app-server.mjs", import.meta.url));

const hooks = inspectorHooks();
const manager = new MCPManager({ ...hooks, cache: false, pins: false });
let inspector: Inspector;
let browser: Browser;
let page: Page;

type Got = { method?: string; params?: Record<string, unknown> };
type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

beforeAll(async () => {
  inspector = await startInspector(manager, { hooks });
  await manager.connectServers({ host: { command: process.execPath, args: [FIXTURE], timeout: 20_000 } });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"],
  });
  page = await (await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: "light" })).newPage();
  await page.goto(inspector.url);
});

afterAll(async () => {
  await browser?.close();
  await inspector?.close();
  await manager.disconnectAll();
});

/** The API, as a script with the token would use it. */
async function callApi<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${inspector.port}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-inspector-token": inspector.token }, body: JSON.stringify(body) });
  return (await response.json()) as T;
}

/** Starts a call of `hold` in the page; resolves with the app's frame (inside the frame page and the sandbox proxy) once it is initialized. */
async function openHeld(label: string): Promise<Frame> {
  await page.click('button[name="view-tools"]');
  await page.fill('input[name="tool-search"]', "host hold");
  await page.click('.list button.item[data-tool="hold"]');
  await page.fill('input[name="label"]', label);
  await page.click('button[name="call"]');
  const outer = (await (await page.waitForSelector(".app-view iframe.app-frame", { timeout: 20_000 })).contentFrame())!;
  await expect.poll(() => outer.childFrames().length, { timeout: 20_000 }).toBe(1);
  const proxy = outer.childFrames()[0]!;
  await expect.poll(() => proxy.childFrames().length, { timeout: 20_000 }).toBe(1);
  const app = proxy.childFrames()[0]!;
  await expect.poll(() => app.locator("#status").textContent(), { timeout: 20_000 }).toBe("initialized");
  return app;
}

const got = (app: Frame): Promise<Got[]> => app.evaluate(() => (window as unknown as { __got: Got[] }).__got);
const changes = async (app: Frame): Promise<Record<string, unknown>[]> => (await got(app)).filter((m) => m.method === "ui/notifications/host-context-changed").map((m) => m.params ?? {});
const request = (app: Frame, method: string, params: Record<string, unknown>): Promise<Answer> =>
  app.evaluate(([m, p]) => (window as unknown as { __request: (method: string, params: unknown) => Promise<Answer> }).__request(m, p), [method, params] as const);

describe("an MCP App in the inspector", () => {
  it("opens when the call starts, with the input before the call ends and the result after", async () => {
    const app = await openHeld("early");
    await expect.poll(async () => (await got(app)).map((m) => m.method), { timeout: 15_000 }).toContain("ui/notifications/tool-input");
    expect((await got(app)).find((m) => m.method === "ui/notifications/tool-input")?.params).toEqual({ arguments: { label: "early" } });
    // The call is still running: no result yet, and the page says so.
    expect((await got(app)).some((m) => m.method === "ui/notifications/tool-result")).toBe(false);
    expect(await page.locator(".app-running").count()).toBe(1);
    const released = await callApi<CallAnswer>("/api/call", { id: "release-1", tool: "mcp__host__release", arguments: {} });
    expect(released.error).toBeUndefined();
    await expect.poll(async () => (await got(app)).map((m) => m.method), { timeout: 15_000 }).toContain("ui/notifications/tool-result");
    const methods = (await got(app)).map((m) => m.method);
    expect(methods.indexOf("ui/notifications/tool-input")).toBeLessThan(methods.indexOf("ui/notifications/tool-result"));
    expect(JSON.stringify((await got(app)).find((m) => m.method === "ui/notifications/tool-result")?.params)).toContain("held early released");
    await page.locator(".result.ok", { hasText: "held early released" }).waitFor({ timeout: 15_000 });
  });

  it("tells the app its host context, changes display mode on request, and tells it of every change", async () => {
    const app = await openHeld("modes");
    const init = await app.evaluate(() => (window as unknown as { __init: { hostContext: Record<string, unknown> } }).__init);
    const context = init.hostContext as { theme: string; displayMode: string; availableDisplayModes: string[]; containerDimensions: { width: number; maxHeight: number }; styles: { variables: Record<string, string> } };
    expect(context.theme).toBe("light");
    expect(context.displayMode).toBe("inline");
    expect(context.availableDisplayModes).toEqual(["inline", "fullscreen", "pip"]);
    const frameWidth = (await page.locator(".app-view iframe.app-frame").boundingBox())!.width;
    expect(context.containerDimensions.width).toBe(Math.round(frameWidth));
    expect(context.containerDimensions.maxHeight).toBeGreaterThan(0);
    expect(context.styles.variables["--color-text-primary"]).toMatch(/^#|^rgb/);
    expect(context.styles.variables["--font-sans"]).toBeTruthy();

    // Fullscreen: answered with the mode set, the frame covers the window, the app is told.
    expect((await request(app, "ui/request-display-mode", { mode: "fullscreen" })).result).toEqual({ mode: "fullscreen" });
    await page.locator('.app-view[data-mode="fullscreen"]').waitFor();
    await expect.poll(async () => (await page.locator(".app-view").boundingBox())?.width).toBe(1400);
    await expect.poll(() => changes(app)).toContainEqual(expect.objectContaining({ displayMode: "fullscreen", containerDimensions: { width: 1400, height: 900 } }));
    // Picture in picture, then a mode the host has not: the current one is the answer.
    expect((await request(app, "ui/request-display-mode", { mode: "pip" })).result).toEqual({ mode: "pip" });
    await page.locator('.app-view[data-mode="pip"]').waitFor();
    await expect.poll(async () => (await page.locator(".app-view").boundingBox())?.width).toBe(420);
    await expect.poll(() => changes(app)).toContainEqual(expect.objectContaining({ displayMode: "pip", containerDimensions: { width: 420, height: 320 } }));
    expect((await request(app, "ui/request-display-mode", { mode: "sideways" })).result).toEqual({ mode: "pip" });
    // The user takes it back inline.
    await page.click('button[name="app-inline"]');
    await page.locator('.app-view[data-mode="inline"]').waitFor();
    await expect.poll(() => changes(app)).toContainEqual(expect.objectContaining({ displayMode: "inline" }));

    // The theme changes: the app is told, with the styles of the new theme.
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(() => changes(app)).toContainEqual(expect.objectContaining({ theme: "dark" }));
    const dark = (await changes(app)).find((c) => c["theme"] === "dark") as { styles: { variables: Record<string, string> } };
    expect(dark.styles.variables["--color-text-primary"]).not.toBe(context.styles.variables["--color-text-primary"]);
    await page.emulateMedia({ colorScheme: "light" });

    // The window narrows (the page's layout changes the frame's width): the app is told its container's new width.
    await page.setViewportSize({ width: 1000, height: 900 });
    const narrowed = Math.round((await page.locator(".app-view iframe.app-frame").boundingBox())!.width);
    expect(narrowed).not.toBe(Math.round(frameWidth));
    await expect.poll(() => changes(app)).toContainEqual({ containerDimensions: { width: narrowed, maxHeight: context.containerDimensions.maxHeight } });
    await page.setViewportSize({ width: 1400, height: 900 });
    await callApi<CallAnswer>("/api/call", { id: "release-2", tool: "mcp__host__release", arguments: {} });
    await page.locator(".result.ok", { hasText: "held modes released" }).waitFor({ timeout: 15_000 });
  });
});
