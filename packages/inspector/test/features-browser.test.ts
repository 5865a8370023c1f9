/// <reference lib="dom" />
// Views of the inspector (startInspector on a manager) in headless Chromium, with server-everything and a server that lacks
// `resources/templates/list` (test/fixtures/no-templates-server.mjs, on the official SDK: it answers
// -32601): the one lacking the method lists its resources alone, everything's resources and
// templates are still there; each tool keeps its calls (request, answer, time) and its typed
// arguments when the user goes to another tool and back, and runs a past call again.
import { fileURLToPath } from "node:url";
import { MCPManager } from "@mcp/manager";
import { everythingEntry } from "mcp-test-utils";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectorHooks, startInspector, type Inspector } from "../src/index.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const FIXTURE = fileURLToPath(new URL("./fixtures/no-templates-server.mjs", import.meta.url));

const hooks = inspectorHooks();
const manager = new MCPManager({ ...hooks, cache: false, pins: false });
let inspector: Inspector;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  inspector = await startInspector(manager, { hooks });
  // Servers connect after the inspector listens: the page shows them arrive.
  void manager.connectServers({
    plain: { command: process.execPath, args: [FIXTURE], timeout: 20_000 },
    everything: { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 },
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
  page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(inspector.url);
  for (const name of ["plain", "everything"]) await page.locator(`tr[data-server="${name}"] .status`, { hasText: /^connected$/ }).waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await inspector?.close();
  await manager.disconnectAll();
});

describe("the Resources view", () => {
  it("lists the resources of a server without resources/templates/list, and every other server's resources and templates", async () => {
    await page.click('button[name="view-resources"]');
    const plain = page.locator('.list button.item[data-uri="note://plain/readme"]');
    await plain.waitFor({ timeout: 20_000 });
    expect(await page.locator(".list .banner.error").count()).toBe(0);
    expect(await page.locator('.list button.item[data-uri^="demo://resource/static/document/"]').count()).toBeGreaterThan(0);
    expect(await page.locator(".list button.item", { has: page.locator(".tag", { hasText: "template" }) }).count()).toBeGreaterThan(0);
    await plain.click();
    await expect.poll(() => page.locator('.reader[data-uri="note://plain/readme"]').textContent(), { timeout: 15_000 }).toContain("plain text, no templates here");
  });
});

/** Selects `tool` of server-everything in the Tools view. */
async function openTool(tool: string): Promise<void> {
  await page.click('button[name="view-tools"]');
  await page.fill('input[name="tool-search"]', `everything ${tool}`);
  await page.click(`.list button.item[data-tool="${tool}"]`);
  await page.waitForSelector(`.tool-panel[data-tool="mcp__everything__${tool}"]`);
}

describe("the Tools view's history", () => {
  it("keeps each tool's calls and typed arguments across tools, shows a past call's request and answer, and runs it again", async () => {
    await openTool("echo");
    for (const message of ["first call", "second call"]) {
      await page.fill('input[name="message"]', message);
      await page.click('button[name="call"]');
      await page.locator(".result.ok", { hasText: message }).waitFor({ timeout: 15_000 });
    }
    await page.fill('input[name="message"]', "typed, not sent");
    await openTool("get-sum");
    await page.fill('input[name="a"]', "2");
    await openTool("echo");
    // Back on echo: what was typed, the last answer, and both calls.
    expect(await page.inputValue('input[name="message"]')).toBe("typed, not sent");
    await page.locator(".result.ok", { hasText: "second call" }).waitFor({ timeout: 15_000 });
    const runs = page.locator(".history li.run");
    expect(await runs.count()).toBe(2);
    expect(await runs.nth(1).locator(".run-args").textContent()).toBe('{"message":"first call"}');
    expect(await runs.nth(0).locator(".ms").textContent()).toMatch(/^[\d.]+ ms$/);
    // The first call again: its request and its answer.
    await runs.nth(1).locator('button[name="show-run"]').click();
    expect(await page.locator(".run-request .json-view").textContent()).toBe(JSON.stringify({ message: "first call" }, null, 2));
    await page.locator(".result.ok", { hasText: "first call" }).waitFor({ timeout: 15_000 });
    // Run again: a third call with its arguments, which are in the form now.
    await runs.nth(1).locator('button[name="rerun"]').click();
    await expect.poll(() => runs.count(), { timeout: 15_000 }).toBe(3);
    expect(await runs.nth(0).locator(".run-args").textContent()).toBe('{"message":"first call"}');
    expect(await page.inputValue('input[name="message"]')).toBe("first call");
    await page.locator(".result.ok", { hasText: "first call" }).waitFor({ timeout: 15_000 });
    // get-sum kept its own typing.
    await openTool("get-sum");
    expect(await page.inputValue('input[name="a"]')).toBe("2");
  });
});
