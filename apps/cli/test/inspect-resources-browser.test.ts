/// <reference lib="dom" />
// The Resources view of `mcp inspect` in headless Chromium with a server that lacks
// `resources/templates/list` (test/fixtures/no-templates-server.mjs, on the official SDK: it answers
// -32601) beside server-everything: the one lacking the method lists its resources alone, and
// everything's resources and templates are still there.
import { fileURLToPath } from "node:url";
import { everythingEntry } from "mcp-test-utils";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandbox, userConfig, type Sandbox } from "./helpers.js";
import { startInspect, type RunningInspector } from "./inspect-helpers.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const FIXTURE = fileURLToPath(new URL("./fixtures/no-templates-server.mjs", import.meta.url));

let box: Sandbox;
let inspector: RunningInspector;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  box = sandbox();
  userConfig(box, {
    plain: { command: process.execPath, args: [FIXTURE] },
    everything: { command: process.execPath, args: [everythingEntry, "stdio"] },
  });
  inspector = await startInspect(box);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
  page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(inspector.url);
  for (const name of ["plain", "everything"]) await page.locator(`tr[data-server="${name}"] .status`, { hasText: /^connected$/ }).waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  expect(await inspector?.stop()).toBe(0);
  box?.remove();
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
