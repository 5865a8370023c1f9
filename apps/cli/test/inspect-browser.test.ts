/// <reference lib="dom" />
// `mcp inspect` in a real browser: headless Chromium (Debian's `chromium`, driven by playwright-core;
// nothing downloads a browser) against the embedded default server and a config of several servers.
// Each view is screenshotted (for packages/inspector's README with `pnpm screenshots`).
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEverything, type EverythingServer } from "mcp-test-utils";
import { fixture, sandbox, userConfig, type Sandbox } from "./helpers.js";
import { startInspect, type RunningInspector } from "./inspect-helpers.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
// `pnpm screenshots` (SCREENSHOTS=1) writes them where the README shows them; other runs take them too, into a temporary folder.
const SHOTS =
  process.env["SCREENSHOTS"] === "1"
    ? fileURLToPath(new URL("../../../packages/inspector/screenshots/", import.meta.url))
    : `${mkdtempSync(join(tmpdir(), "mcp-inspect-shots-"))}/`;

let box: Sandbox;
let inspector: RunningInspector;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: false });
}

async function openTool(name: string): Promise<void> {
  await page.click('button[name="view-tools"]');
  await page.fill('input[name="tool-search"]', name);
  await page.click(`.list button.item[data-tool="${name}"]`);
  await page.waitForSelector(`.tool-panel[data-tool="mcp__everything__${name}"]`);
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install chromium), or set CHROMIUM_PATH`,
    );
  mkdirSync(SHOTS, { recursive: true });
  box = sandbox();
  inspector = await startInspect(box);
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
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  await page.goto(inspector.url);
});

afterAll(async () => {
  await browser?.close();
  // The pages (and their event streams) went away first; the inspector still stops cleanly.
  expect(await inspector?.stop()).toBe(0);
  box?.remove();
});

describe("mcp inspect in Chromium", () => {
  it("shows the servers, live, with status, transport, source and time to connect", async () => {
    const row = page.locator('tr[data-server="everything"]');
    await expect.poll(() => row.locator(".status").textContent(), { timeout: 30_000 }).toBe("connected");
    const cells = await row.locator("td").allTextContents();
    expect(cells[0]).toBe("everything");
    expect(cells[2]).toBe("stdio");
    expect(cells[3]).toBe("(embedded default)");
    expect(Number(cells[4])).toBeGreaterThan(5);
    expect(cells[5]).toMatch(/^\d+ ms$/);
    expect(await page.locator(".live.on").textContent()).toBe("live");
  });

  it("fills a generated form and shows the echo result with its time", async () => {
    await openTool("echo");
    expect(await page.locator(".field .label").first().textContent()).toContain("message*string");
    // Submitting with the required field empty is refused in the page.
    await page.click('button[name="call"]');
    expect(await page.locator(".tool-panel .error-text").textContent()).toBe("Required: message");
    await page.fill('input[name="message"]', "hello from Chromium");
    await page.click('button[name="call"]');
    await page.waitForSelector(".result.ok");
    expect(await page.locator(".result pre.content.text").textContent()).toBe("Echo: hello from Chromium");
    expect(await page.locator(".result .ms").textContent()).toMatch(/ ms$/);
    await shot("tools");
  });

  it("draws what a server sends as text, never as HTML", async () => {
    await openTool("echo");
    const hostile = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>`;
    await page.fill('input[name="message"]', hostile);
    await page.click('button[name="call"]');
    await page.waitForSelector(".result.ok");
    expect(await page.locator(".result pre.content.text").textContent()).toBe(`Echo: ${hostile}`);
    expect(await page.locator(".result img").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  });

  it("types numbers by the schema, and has a raw-JSON mode", async () => {
    await openTool("get-sum");
    await page.fill('input[name="a"]', "2");
    await page.fill('input[name="b"]', "40");
    await page.click('button[name="raw-json"]');
    expect(JSON.parse(await page.inputValue('textarea[name="arguments-json"]'))).toEqual({ a: 2, b: 40 });
    await page.fill('textarea[name="arguments-json"]', '{"a": 1.5, "b": 2}');
    await page.click('button[name="call"]');
    await page.waitForSelector(".result.ok");
    expect(await page.locator(".result pre.content.text").textContent()).toContain("3.5");
  });

  it("shows structured content and inline images", async () => {
    await openTool("get-structured-content");
    await page.selectOption('select[name="location"]', { label: "Chicago" });
    await page.click('button[name="call"]');
    await page.waitForSelector(".result .structured");
    expect(JSON.parse((await page.locator(".structured pre").textContent())!)).toHaveProperty("temperature");
    await openTool("get-tiny-image");
    await page.click('button[name="call"]');
    const image = page.locator(".result img.content.image");
    await image.waitFor();
    expect(await image.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  });

  it("shows live progress of trigger-long-running-operation and cancels it", async () => {
    await openTool("trigger-long-running-operation");
    await page.fill('input[name="duration"]', "30");
    await page.fill('input[name="steps"]', "30");
    await page.click('button[name="call"]');
    const text = page.locator(".progress-text");
    await expect
      .poll(async () => /^(\d+) \/ 30/.exec((await text.textContent()) ?? "")?.[1], { timeout: 15_000 })
      .toMatch(/^[2-9]$|^\d\d$/);
    const width = await page.locator(".progress .bar").evaluate((bar: HTMLElement) => bar.style.width);
    expect(parseFloat(width)).toBeGreaterThan(0);
    await shot("progress");
    await page.click('button[name="cancel"]');
    await page.waitForSelector(".result.failed");
    expect(await page.locator(".result.failed .banner").textContent()).toContain("Cancelled");
    expect(await page.locator(".progress").count()).toBe(0);
  });

  it("shows a task's status line while it runs, and the call in the Tasks view", async () => {
    await openTool("simulate-research-query");
    await page.fill('input[name="topic"]', "tides");
    await page.click('button[name="call"]');
    await page.waitForSelector(".task-line");
    expect(await page.locator(".task-line").textContent()).toMatch(/^task (working|completed)/);
    await page.waitForSelector(".result.ok", { timeout: 15_000 });
    await page.click('button[name="view-tasks"]');
    const row = page.locator(".tasks tr[data-task]").first();
    await expect.poll(async () => row.locator(".status").textContent()).toBe("completed");
    expect(await row.locator("td.name").textContent()).toBe("simulate-research-query");
    await shot("tasks");
  });

  it("answers an elicitation request in a dialog", async () => {
    await openTool("trigger-elicitation-request");
    await page.click('button[name="call"]');
    const dialog = page.locator('.dialog[data-kind="elicitation"]');
    await dialog.waitFor();
    expect(await dialog.locator(".message").textContent()).toBe("Please provide inputs for the following fields:");
    // Defaults are filled in; the required name is not.
    expect(await page.inputValue('.dialog input[name="integer"]')).toBe("42");
    await page.click('.dialog button[name="accept"]');
    expect(await dialog.locator(".error-text").textContent()).toBe("Required: name");
    await page.fill('.dialog input[name="name"]', "Ada Lovelace");
    await page.check('.dialog input[name="check"]');
    await page.fill('.dialog input[name="email"]', "ada@example.com");
    await page.locator(".dialog-body").evaluate((body) => (body.scrollTop = 0));
    await shot("elicitation");
    await page.click('.dialog button[name="accept"]');
    await dialog.waitFor({ state: "detached" });
    await page.waitForSelector(".result.ok");
    const result = (await page.locator(".result").textContent()) ?? "";
    expect(result).toContain("- Name: Ada Lovelace");
    expect(result).toContain("- Agreed to terms: true");
    expect(result).toContain("- Favorite Integer: 42");
  });

  it("answers a sampling request in a dialog", async () => {
    await openTool("trigger-sampling-request");
    await page.fill('input[name="prompt"]', "Say hi");
    await page.click('button[name="call"]');
    const dialog = page.locator('.dialog[data-kind="sampling"]');
    await dialog.waitFor();
    expect(await dialog.locator(".message").first().textContent()).toContain("Say hi");
    await page.fill('textarea[name="sampling-reply"]', "Hi from a human");
    await page.click('.dialog button[name="accept"]');
    await page.waitForSelector(".result.ok");
    expect(await page.locator(".result").textContent()).toContain("Hi from a human");
  });

  it("follows a resource link from a tool result into the Resources view", async () => {
    await openTool("get-resource-links");
    await page.fill('input[name="count"]', "2");
    await page.click('button[name="call"]');
    const link = page.locator(".result .content.link a").first();
    await link.waitFor();
    const uri = (await page.locator(".result .content.link code").first().textContent())!;
    await link.click();
    expect(page.url()).toMatch(/#resources$/);
    const reader = page.locator(`.reader[data-uri="${uri}"]`);
    await reader.locator(".content-item").waitFor();
    expect(await reader.locator(".content-item code").first().textContent()).toBe(uri);
  });

  it("reads a resource, and a templated one filled in a form", async () => {
    await page.click('button[name="view-resources"]');
    const first = page.locator('.list button.item[data-uri^="demo://resource/static/document/"]').first();
    const uri = (await first.getAttribute("data-uri"))!;
    await first.click();
    const reader = page.locator(`.reader[data-uri="${uri}"]`);
    await reader.locator("pre.content.text").waitFor();
    expect(((await reader.locator("pre.content.text").textContent()) ?? "").length).toBeGreaterThan(20);
    await shot("resources");
    await page.click('.list button.item[data-uri="demo://resource/dynamic/text/{resourceId}"]');
    await page.fill('.template-form input[name="resourceId"]', "7");
    await page.click('button[name="read-template"]');
    const templated = page.locator('.reader[data-uri="demo://resource/dynamic/text/7"]');
    await templated.locator("pre.content.text").waitFor();
    expect(await templated.locator("pre.content.text").textContent()).toContain("7");
  });

  it("subscribes to a resource and re-reads it on notifications/resources/updated", async () => {
    const uri = "demo://resource/static/document/architecture.md";
    await page.click('button[name="view-resources"]');
    await page.click(`.list button.item[data-uri="${uri}"]`);
    await page.click('.reader button[name="subscribe"]');
    await page.waitForSelector(".reader .tag.live");
    // server-everything sends updates for subscribed resources once this tool turns them on.
    const answer = await page.evaluate(async (token) => {
      const response = await fetch("/api/call", {
        method: "POST",
        headers: { "content-type": "application/json", "x-inspector-token": token },
        body: JSON.stringify({ id: "toggle", tool: "mcp__everything__toggle-subscriber-updates", arguments: {} }),
      });
      return response.status;
    }, inspector.token);
    expect(answer).toBe(200);
    await expect
      .poll(
        async () => Number(/(\d+) updates/.exec((await page.locator(".reader .tag.live").textContent()) ?? "")?.[1]),
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    await page.click('.reader button[name="subscribe"]');
    await page.evaluate(async (token) => {
      await fetch("/api/call", {
        method: "POST",
        headers: { "content-type": "application/json", "x-inspector-token": token },
        body: JSON.stringify({ id: "toggle-off", tool: "mcp__everything__toggle-subscriber-updates", arguments: {} }),
      });
    }, inspector.token);
  });

  it("renders a prompt, with completion suggestions from the server", async () => {
    await page.click('button[name="view-prompts"]');
    await page.click('.list button.item[data-prompt="completable-prompt"]');
    await page.fill('input[name="department"]', "E");
    const chips = page.locator('.suggestions[data-for="department"] .chip');
    await expect.poll(() => chips.allTextContents(), { timeout: 10_000 }).toEqual(["Engineering"]);
    await chips.first().click();
    expect(await page.inputValue('input[name="department"]')).toBe("Engineering");
    await page.fill('input[name="name"]', "");
    await page.focus('input[name="name"]');
    await expect
      .poll(() => page.locator('.suggestions[data-for="name"] .chip').allTextContents(), { timeout: 10_000 })
      .toEqual(["Alice", "Bob", "Charlie"]);
    await page.locator('.suggestions[data-for="name"] .chip', { hasText: "Bob" }).click();
    await page.click('button[name="get-prompt"]');
    const message = page.locator(".messages .message").first();
    await message.waitFor();
    const rendered = (await message.textContent()) ?? "";
    expect(rendered).toContain("Engineering");
    expect(rendered).toContain("Bob");
    await shot("prompts");
  });

  it("logs every request and response with timing, filterable", async () => {
    await page.click('button[name="view-log"]');
    await page.fill('input[name="log-filter"]', "hello from Chromium");
    const rows = page.locator("tr.entry");
    await expect
      .poll(() =>
        rows.evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute("data-kind")} ${tr.getAttribute("data-method")}`)),
      )
      .toEqual(["response tools/call", "request tools/call"]);
    expect(await rows.first().locator(".ms").textContent()).toMatch(/ ms$/);
    await page.fill('input[name="log-filter"]', "");
    for (const method of [
      "resources/read",
      "prompts/get",
      "completion/complete",
      "elicitation/create",
      "sampling/createMessage",
    ]) {
      expect(await page.locator(`tr.entry[data-method="${method}"]`).count(), method).toBeGreaterThan(0);
    }
    await page.locator('tr.entry[data-method="prompts/get"]').first().click();
    expect(await page.locator(".entry-detail pre").textContent()).toContain('"method": "prompts/get"');
    await shot("log");
    // Only errors, copied as JSON.
    for (const kind of ["request", "response", "notification", "log", "server-request", "status"])
      await page.uncheck(`input[name="kind-${kind}"]`);
    await page.click('button[name="copy-log"]');
    await expect.poll(() => page.locator('button[name="copy-log"]').textContent()).toBe("copied");
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
      kind: string;
      method: string;
    }[];
    expect(copied.length).toBeGreaterThan(0);
    expect(new Set(copied.map((e) => e.kind))).toEqual(new Set(["error"]));
    expect(copied.map((e) => e.method)).toContain("tools/call");
  });

  it("sets the servers' log level and streams their log messages", async () => {
    await page.click('button[name="view-log"]');
    await page.selectOption('select[name="log-level"]', "debug");
    await expect.poll(() => page.locator(".level-said").textContent()).toBe("set on everything");
    const toggle = (id: string) =>
      page.evaluate(
        async ([token, id]) =>
          (
            await fetch("/api/call", {
              method: "POST",
              headers: { "content-type": "application/json", "x-inspector-token": token! },
              body: JSON.stringify({ id, tool: "mcp__everything__toggle-simulated-logging", arguments: {} }),
            })
          ).status,
        [inspector.token, id],
      );
    expect(await toggle("logging-on")).toBe(200);
    for (const kind of ["request", "response", "error", "notification", "server-request", "status"])
      await page.uncheck(`input[name="kind-${kind}"]`);
    await page.check('input[name="kind-log"]');
    const logs = page.locator('tr.entry[data-kind="log"]');
    await expect.poll(() => logs.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await logs.first().locator(".method").textContent()).toBe("notifications/message");
    expect(await logs.first().locator(".summary").textContent()).toMatch(
      /^(debug|info|notice|warning|error|critical|alert|emergency) /,
    );
    expect(await toggle("logging-off")).toBe(200);
    for (const kind of ["request", "response", "error", "notification", "server-request", "status"])
      await page.check(`input[name="kind-${kind}"]`);
  });

  it("disables and re-enables a server from its row", async () => {
    await page.click('button[name="view-servers"]');
    const status = page.locator('tr[data-server="everything"] .status');
    await page.click('button[name="disable-everything"]');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe("disabled");
    await page.click('button[name="reconnect-everything"]');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe("connected");
  });
});

describe("mcp inspect in Chromium, on several configured servers", () => {
  let many: Sandbox;
  let running: RunningInspector;
  let web: EverythingServer;
  let tab: Page;
  let marker: string;

  beforeAll(async () => {
    many = sandbox();
    marker = join(many.home, "cancelled.txt");
    web = await startEverything("streamableHttp");
    userConfig(many, {
      fixture: { command: process.execPath, args: [fixture], env: { CANCEL_MARKER: marker } },
      web: { type: "http", url: web.url },
      broken: { command: "no-such-mcp-server-command" },
      crashing: {
        command: process.execPath,
        args: ["-e", "console.error('cannot reach the database at db:5432'); process.exit(3)"],
      },
    });
    running = await startInspect(many);
    tab = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    tab.on("pageerror", (error) => pageErrors.push(error.message));
    await tab.goto(running.url);
  });

  afterAll(async () => {
    await tab?.close();
    expect(await running?.stop()).toBe(0);
    await web?.stop();
    many?.remove();
  });

  it("lists every server with its status, transport and last error", async () => {
    const status = (name: string) => tab.locator(`tr[data-server="${name}"] .status`).textContent();
    await expect.poll(() => status("fixture"), { timeout: 30_000 }).toBe("connected");
    await expect.poll(() => status("web"), { timeout: 30_000 }).toBe("connected");
    await expect.poll(() => status("broken"), { timeout: 30_000 }).toBe("failed");
    expect(await tab.locator('tr[data-server="web"] td').nth(2).textContent()).toBe("http");
    expect(await tab.locator('tr[data-server="broken"] .last-error').textContent()).toContain(
      "no-such-mcp-server-command",
    );
    expect(await tab.locator('tr[data-server="fixture"] .source').textContent()).toContain("mcp-client.json");
    await expect.poll(() => status("crashing"), { timeout: 30_000 }).toBe("failed");
    const crashed = tab.locator('tr[data-server="crashing"] .last-error');
    expect(await crashed.textContent()).toContain("exited with code 3");
    await crashed.locator("summary").click();
    expect(await crashed.locator("details pre").textContent()).toContain("cannot reach the database at db:5432");
    await tab.screenshot({ path: `${SHOTS}servers.png` });
  });

  it("searches tools across every server", async () => {
    await tab.click('button[name="view-tools"]');
    await tab.fill('input[name="tool-search"]', "e");
    expect(await tab.locator(".list .group h3").allTextContents()).toEqual(["fixture", "web"]);
    await tab.fill('input[name="tool-search"]', "courier");
    expect(
      await tab.locator(".list button.item").evaluateAll((items) => items.map((i) => i.getAttribute("data-tool"))),
    ).toEqual([]);
    await tab.fill('input[name="tool-search"]', "order");
    expect(
      await tab.locator(".list button.item").evaluateAll((items) => items.map((i) => i.getAttribute("data-tool"))),
    ).toEqual(["order"]);
  });

  it("generates a form for nested objects, arrays of objects, enums and defaults", async () => {
    await tab.click('.list button.item[data-tool="order"]');
    // Defaults are shown, required marks and descriptions drawn.
    expect(await tab.inputValue('input[name="note"]')).toBe("none");
    expect(await tab.locator('select[name="speed"] option:checked').textContent()).toBe("standard");
    expect(await tab.locator(".tool-panel .help").allTextContents()).toEqual(
      expect.arrayContaining(["Who orders", "What is ordered", "A note for the courier"]),
    );
    await tab.click('button[name="call"]');
    expect(await tab.locator(".tool-panel .error-text").textContent()).toBe("Required: customer.name, lines");
    await tab.fill('input[name="customer.name"]', "Grace");
    await tab.check('input[name="customer.vip"]');
    await tab.click('button[name="lines.add"]');
    await tab.click('button[name="lines.add"]');
    expect(await tab.inputValue('input[name="lines.1.qty"]')).toBe("1");
    await tab.fill('input[name="lines.0.sku"]', "A-1");
    await tab.fill('input[name="lines.0.qty"]', "3");
    await tab.fill('input[name="lines.1.sku"]', "B-2");
    await tab.selectOption('select[name="speed"]', { label: "express" });
    await tab.click('button[name="call"]');
    await tab.waitForSelector(".result.ok");
    expect(JSON.parse((await tab.locator(".structured pre").textContent())!)).toEqual({
      received: {
        customer: { name: "Grace", vip: true },
        lines: [
          { sku: "A-1", qty: 3 },
          { sku: "B-2", qty: 1 },
        ],
        speed: "express",
        note: "none",
      },
    });
    await tab.setViewportSize({ width: 1280, height: 1600 });
    await tab.screenshot({ path: `${SHOTS}form.png` });
    await tab.setViewportSize({ width: 1280, height: 720 });
  });

  it("marks a tool's isError result, and a cancelled call reaches the server as notifications/cancelled", async () => {
    await tab.fill('input[name="tool-search"]', "fail");
    await tab.click('.list button.item[data-tool="fail"]');
    await tab.click('button[name="call"]');
    await tab.waitForSelector(".result.is-error");
    expect(await tab.locator(".result.is-error").textContent()).toContain("The tool reported an error (isError)");
    expect(await tab.locator(".result.is-error").textContent()).toContain("the backend said no");

    await tab.fill('input[name="tool-search"]', "wait");
    await tab.click('.list button.item[data-tool="wait"]');
    await tab.fill('input[name="ms"]', "20000");
    await tab.click('button[name="call"]');
    await expect
      .poll(() => tab.locator(".progress-text").textContent(), { timeout: 10_000 })
      .toMatch(/^\d+ \/ 20000 — step \d+/);
    expect(existsSync(marker)).toBe(false);
    await tab.click('button[name="cancel"]');
    await tab.waitForSelector(".result.failed");
    await expect.poll(() => existsSync(marker) && readFileSync(marker, "utf8"), { timeout: 10_000 }).toBe("cancelled");
  });
});

describe("the pages", () => {
  it("raised no error", () => {
    expect(pageErrors).toEqual([]);
  });
});
