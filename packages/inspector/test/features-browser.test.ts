/// <reference lib="dom" />
// Views of the inspector (startInspector on a manager) in headless Chromium, with server-everything and a server that lacks
// `resources/templates/list` (test/fixtures/no-templates-server.mjs, on the official SDK: it answers
// -32601): the one lacking the method lists its resources alone, everything's resources and
// templates are still there; each tool keeps its calls (request, answer, time) and its typed
// arguments when the user goes to another tool and back, and runs a past call again.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadAllMCPConfigs, MCPManager } from "@mcp/manager";
import { everythingEntry } from "mcp-test-utils";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectorHooks, startInspector, type CallAnswer, type Inspector, type InspectorState } from "../src/index.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const FIXTURE = fileURLToPath(new URL("./fixtures/no-templates-server.mjs", import.meta.url));
const TASK_FIXTURE = fileURLToPath(new URL("./fixtures/task-server.mjs", import.meta.url));

/** A home of the test's own, whose user config file the page edits (and an empty project). */
const root = mkdtempSync(join(tmpdir(), "inspector-features-"));
const home = join(root, "home");
const configFile = join(home, ".config", "mcp-client", "mcp-client.json");
const hooks = inspectorHooks();
const manager = new MCPManager({ ...hooks, cache: false, pins: false });
let inspector: Inspector;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(join(root, "project"), { recursive: true });
  inspector = await startInspector(manager, {
    hooks,
    config: {
      file: configFile,
      load: () =>
        loadAllMCPConfigs(join(root, "project"), {
          home,
          env: { ...process.env, XDG_CONFIG_HOME: join(home, ".config") },
        }),
    },
  });
  // Servers connect after the inspector listens: the page shows them arrive.
  void manager.connectServers({
    plain: { command: process.execPath, args: [FIXTURE], timeout: 20_000 },
    everything: { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 },
    brewer: { command: process.execPath, args: [TASK_FIXTURE], timeout: 20_000 },
  });
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
  for (const name of ["plain", "everything", "brewer"])
    await page.locator(`tr[data-server="${name}"] .status`, { hasText: /^connected$/ }).waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await inspector?.close();
  await manager.disconnectAll();
  rmSync(root, { recursive: true, force: true });
});

describe("the Resources view", () => {
  it("lists the resources of a server without resources/templates/list, and every other server's resources and templates", async () => {
    await page.click('button[name="view-resources"]');
    const plain = page.locator('.list button.item[data-uri="note://plain/readme"]');
    await plain.waitFor({ timeout: 20_000 });
    expect(await page.locator(".list .banner.error").count()).toBe(0);
    expect(
      await page.locator('.list button.item[data-uri^="demo://resource/static/document/"]').count(),
    ).toBeGreaterThan(0);
    expect(
      await page.locator(".list button.item", { has: page.locator(".tag", { hasText: "template" }) }).count(),
    ).toBeGreaterThan(0);
    await plain.click();
    await expect
      .poll(() => page.locator('.reader[data-uri="note://plain/readme"]').textContent(), { timeout: 15_000 })
      .toContain("plain text, no templates here");
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
    expect(await page.locator(".run-request .json-view").textContent()).toBe(
      JSON.stringify({ message: "first call" }, null, 2),
    );
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

describe("the Requests view", () => {
  /** Sends `method` with `params` (as typed) from the raw request builder and waits for its answer. */
  async function send(method: string, params: string): Promise<string> {
    await page.fill('input[name="rpc-method"]', method);
    await page.fill('textarea[name="rpc-params"]', params);
    await page.click('button[name="rpc-send"]');
    const answer = page.locator(".rpc-answer");
    await answer.waitFor({ timeout: 15_000 });
    return (await answer.textContent()) ?? "";
  }

  it("pings a server, sends a hand-built JSON-RPC request and shows the raw answer or error, and lists the server's notifications", async () => {
    await page.click('button[name="view-requests"]');
    await page.selectOption('select[name="rpc-server"]', "everything");
    await page.click('button[name="ping"]');
    await expect
      .poll(() => page.locator(".ping-answer.ok").textContent(), { timeout: 15_000 })
      .toMatch(/^ping answered in [\d.]+ ms$/);
    // A method the builder knows nothing about: the server's answer, raw.
    const listed = await send("tools/list", "{}");
    expect(listed).toContain('"result"');
    expect(listed).toContain('"name": "echo"');
    // The server's JSON-RPC error, as it sent it.
    await send("no/such-method", "");
    await expect
      .poll(() => page.locator(".rpc-answer.error .json-view").textContent(), { timeout: 15_000 })
      .toContain('"code": -32601');
    // Params that are not an object are refused in the page, before anything is sent.
    await page.fill('textarea[name="rpc-params"]', "[1]");
    await page.click('button[name="rpc-send"]');
    expect(await page.locator(".rpc-failure").textContent()).toContain("must be a JSON object");
    // Notifications: subscribe to a resource and have the server send updates, all through raw requests.
    const uri = "demo://resource/static/document/architecture.md";
    await send("resources/subscribe", JSON.stringify({ uri }));
    expect(await send("tools/call", JSON.stringify({ name: "toggle-subscriber-updates", arguments: {} }))).toContain(
      '"result"',
    );
    const note = page.locator('.notes li.note[data-method="notifications/resources/updated"]').first();
    await note.waitFor({ timeout: 20_000 });
    expect(await note.locator(".json-view").textContent()).toContain(uri);
    // The other server's pane has none of everything's notifications.
    await page.selectOption('select[name="rpc-server"]', "plain");
    await page.locator('.view.rpc[data-server="plain"]').waitFor();
    expect(await page.locator('.notes li.note[data-method="notifications/resources/updated"]').count()).toBe(0);
    await page.selectOption('select[name="rpc-server"]', "everything");
    await send("tools/call", JSON.stringify({ name: "toggle-subscriber-updates", arguments: {} }));
  });

  it("refuses /api/rpc, /api/ping and /api/roots without the token, from another origin, and cross-site", async () => {
    const base = `http://127.0.0.1:${inspector.port}`;
    const bodies: Record<string, string> = {
      "/api/rpc": JSON.stringify({ server: "everything", method: "tools/list", params: {} }),
      "/api/ping": JSON.stringify({ server: "everything" }),
      "/api/roots": JSON.stringify({ roots: [] }),
    };
    const post = (path: string, headers: Record<string, string>) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: bodies[path]!,
      });
    for (const path of Object.keys(bodies)) {
      expect((await post(path, {})).status).toBe(401);
      expect((await post(path, { "x-inspector-token": "x".repeat(inspector.token.length) })).status).toBe(401);
      expect((await post(path, { "x-inspector-token": inspector.token, origin: "http://evil.example" })).status).toBe(
        403,
      );
      expect((await post(path, { "x-inspector-token": inspector.token, origin: "http://127.0.0.1:1" })).status).toBe(
        403,
      );
      expect((await post(path, { "x-inspector-token": inspector.token, "sec-fetch-site": "cross-site" })).status).toBe(
        403,
      );
      expect((await post(path, { "x-inspector-token": inspector.token })).status).toBe(200);
    }
    // Bad input is a typed refusal saying what is wrong.
    const bad = await fetch(`${base}/api/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-inspector-token": inspector.token },
      body: JSON.stringify({ server: "everything", method: "tools/list", params: [1] }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('"params" must be a JSON object');
  });
});

describe("roots declared in the page", () => {
  it("answers every server's roots/list with the page's roots, tells them they changed, and everything's get-roots-list shows them", async () => {
    await page.click('button[name="view-servers"]');
    await page.fill('textarea[name="roots"]', "file:///tmp/inspector-root the project\nnot-a-uri");
    await page.click('button[name="save-roots"]');
    expect(await page.locator(".roots-failure").textContent()).toContain("line 2");
    await page.fill('textarea[name="roots"]', "file:///tmp/inspector-root the project");
    await page.click('button[name="save-roots"]');
    await expect.poll(() => page.locator(".roots-said").textContent(), { timeout: 15_000 }).toContain("everything");
    // server-everything asks again on notifications/roots/list_changed: its answer is in the log.
    const log = async () =>
      (
        (await (
          await fetch(`http://127.0.0.1:${inspector.port}/api/state`, {
            headers: { "x-inspector-token": inspector.token },
          })
        ).json()) as InspectorState
      ).log;
    await expect
      .poll(
        async () =>
          (await log()).some(
            (e) =>
              e.server === "everything" &&
              e.method === "roots/list" &&
              e.kind === "response" &&
              JSON.stringify(e.result).includes("inspector-root"),
          ),
        { timeout: 15_000 },
      )
      .toBe(true);
    await openTool("get-roots-list");
    await page.click('button[name="call"]');
    await page.locator(".result.ok", { hasText: "file:///tmp/inspector-root" }).waitFor({ timeout: 15_000 });
    // The page shows the roots it declared after a reload.
    await page.reload();
    await page.click('button[name="view-servers"]');
    await expect
      .poll(() => page.inputValue('textarea[name="roots"]'), { timeout: 15_000 })
      .toBe("file:///tmp/inspector-root the project");
  });
});

describe("URL-mode elicitation", () => {
  it("declares it, so everything offers trigger-url-elicitation; the page shows the URL as a link to open, and the user's accept reaches the tool", async () => {
    await openTool("trigger-url-elicitation");
    // A loopback URL nobody serves: the test never opens it.
    await page.fill('input[name="url"]', "http://127.0.0.1:9/sign-in");
    await page.click('button[name="call"]');
    const link = page.locator('.dialog .elicit-url a[href="http://127.0.0.1:9/sign-in"]');
    await link.waitFor({ timeout: 15_000 });
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    await page.click('.dialog button[name="accept"]');
    await page
      .locator(".result.ok", { hasText: "User completed the URL elicitation flow" })
      .waitFor({ timeout: 15_000 });
    // Declined: the tool hears that too.
    await page.click('button[name="call"]');
    await link.waitFor({ timeout: 15_000 });
    await page.click('.dialog button[name="decline"]');
    await page.locator(".result.ok", { hasText: "User declined to open the URL" }).waitFor({ timeout: 15_000 });
  });
});

describe("client-side tasks", () => {
  it("declares them, so everything offers its async elicitation and sampling tools; the inspector runs each request as a task (a dialog, a row in Tasks) and the server polls for the answer", async () => {
    const tasks = async () =>
      (
        (await (
          await fetch(new URL("/api/state", inspector.url), { headers: { "x-inspector-token": inspector.token } })
        ).json()) as InspectorState
      ).tasks;
    // Elicitation as a task: the dialog says so, the Tasks view has it running for the server.
    await openTool("trigger-elicitation-request-async");
    await page.click('button[name="call"]');
    const note = page.locator(".dialog .dialog-task");
    await note.waitFor({ timeout: 15_000 });
    const running = (await tasks()).find((t) => t.runner === "client" && t.tool === "elicitation/create");
    expect(running).toMatchObject({ server: "everything", status: "working", ended: false });
    expect(await note.textContent()).toContain(running!.taskId.slice(0, 8));
    await page.fill('.dialog input[name="name"]', "Ada Tasks");
    await page.click('.dialog button[name="accept"]');
    const result = page.locator(".result.ok", { hasText: "[COMPLETED] User provided the requested information!" });
    await result.waitFor({ timeout: 20_000 });
    // What the server polled is the task the inspector ran, and its answer is the user's.
    expect(await result.textContent()).toContain(`Task created: ${running!.taskId}`);
    expect(await result.textContent()).toContain("Ada Tasks");
    // Sampling as a task: the user's reply is the model's, fetched by the server with tasks/result.
    await openTool("trigger-sampling-request-async");
    await page.fill('input[name="prompt"]', "tides");
    await page.click('button[name="call"]');
    await page.locator(".dialog .dialog-task").waitFor({ timeout: 15_000 });
    await page.fill('.dialog textarea[name="sampling-reply"]', "a reply typed as a task");
    await page.click('.dialog button[name="accept"]');
    await page.locator(".result.ok", { hasText: "a reply typed as a task" }).waitFor({ timeout: 20_000 });
    await page.click('button[name="view-tasks"]');
    for (const method of ["elicitation/create", "sampling/createMessage"]) {
      const row = page.locator('tr[data-runner="client"]', { hasText: method });
      await row.locator(".status", { hasText: "completed" }).waitFor({ timeout: 15_000 });
      expect(await row.textContent()).toContain("answered accept");
      expect(await row.textContent()).toContain("for the server");
    }
  }, 90_000);
});

describe("a tool that may run as a task", () => {
  it("offers to run it as one (execution.taskSupport optional): its status in the panel and in Tasks, its result at the end; Cancel sends tasks/cancel", async () => {
    /** Calls a tool of the brewer through the API; its text. */
    const run = async (tool: string): Promise<string> => {
      const response = await fetch(new URL("/api/call", inspector.url), {
        method: "POST",
        headers: { "content-type": "application/json", "x-inspector-token": inspector.token },
        body: JSON.stringify({ id: crypto.randomUUID(), tool: `mcp__brewer__${tool}`, arguments: {} }),
      });
      return JSON.stringify(((await response.json()) as CallAnswer).result);
    };
    const openBrew = async (): Promise<void> => {
      await page.click('button[name="view-tools"]');
      await page.fill('input[name="tool-search"]', "brewer brew");
      await page.click('.list button.item[data-tool="brew"]');
      await page.waitForSelector('.tool-panel[data-tool="mcp__brewer__brew"]');
    };
    // Offered only where the tool may run as a task.
    await openTool("echo");
    expect(await page.locator('input[name="as-task"]').count()).toBe(0);
    await openBrew();
    await page.check('input[name="as-task"]');
    await page.click('button[name="call"]');
    await page.locator('.task-line[data-task-status="working"]').waitFor({ timeout: 20_000 });
    expect(await run("tasks")).toMatch(/working/);
    expect(await run("pour")).toContain("poured");
    await page.locator(".result.ok", { hasText: "brewed" }).waitFor({ timeout: 20_000 });
    await page.click('button[name="view-tasks"]');
    const done = page.locator('tr[data-runner="server"]', { hasText: "brew" });
    await done.locator(".status", { hasText: "completed" }).waitFor({ timeout: 15_000 });
    // Cancelled from the panel: the server's task is cancelled (tasks/cancel), the call says so.
    await openBrew();
    await page.check('input[name="as-task"]');
    await page.click('button[name="call"]');
    await page.locator('.task-line[data-task-status="working"]').waitFor({ timeout: 20_000 });
    await page.click('button[name="cancel"]');
    await expect.poll(() => run("tasks"), { timeout: 20_000 }).toContain("cancelled");
    await page.click('button[name="view-tasks"]');
    await page
      .locator('tr[data-runner="server"]', { hasText: "brew" })
      .locator(".status", { hasText: "cancelled" })
      .waitFor({ timeout: 15_000 });
  }, 90_000);
});

describe("servers from the page", () => {
  it("adds a server to the user's config file from the Servers view, which starts it; edits it; removes it, which stops it", async () => {
    await page.click('button[name="view-servers"]');
    await page.locator(".config-editor .config-file", { hasText: configFile }).waitFor({ timeout: 15_000 });
    await page.fill('input[name="config-name"]', "added");
    await page.fill('input[name="config-command"]', process.execPath);
    await page.fill('textarea[name="config-args"]', FIXTURE);
    await page.fill('textarea[name="config-env"]', "MARK=one");
    await page.click('button[name="config-save"]');
    await page.locator(".config-said", { hasText: 'Saved "added"' }).waitFor({ timeout: 15_000 });
    await page.locator('tr[data-server="added"] .status', { hasText: /^connected$/ }).waitFor({ timeout: 30_000 });
    const written = () =>
      (JSON.parse(readFileSync(configFile, "utf8")) as { servers: Record<string, unknown> }).servers;
    expect(written()).toEqual({ added: { command: process.execPath, args: [FIXTURE], env: { MARK: "one" } } });
    // Edit: the form holds the entry; saved, the file has the new one and the server runs it.
    await page.click('button[name="config-edit-added"]');
    expect(await page.inputValue('textarea[name="config-env"]')).toBe("MARK=one");
    await page.fill('textarea[name="config-env"]', "MARK=two");
    await page.click('button[name="config-save"]');
    await expect.poll(() => JSON.stringify(written()), { timeout: 15_000 }).toContain('"MARK":"two"');
    await expect
      .poll(() => (manager.getServerConfig("added") as { env?: Record<string, string> } | undefined)?.env?.["MARK"], {
        timeout: 30_000,
      })
      .toBe("two");
    // Remove (asked once more first): gone from the file and from the list.
    await page.click('button[name="config-remove-added"]');
    await page.click('button[name="config-remove-confirm-added"]');
    await page.locator('tr[data-server="added"]').waitFor({ state: "detached", timeout: 15_000 });
    expect(written()).toEqual({});
    expect(manager.getConnection("added")).toBeUndefined();
  }, 90_000);
});
