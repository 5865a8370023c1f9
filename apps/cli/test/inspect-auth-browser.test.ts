/// <reference lib="dom" />
// `mcp inspect`'s sign-in doctor panel in headless Chromium (Debian's `chromium`, playwright-core),
// against the official SDK's authorization server and protected MCP server on loopback: the panel
// shows the steps of `mcp auth doctor` in the same words, never signs in, and registers a client
// only from the button that says so. Its API route is token-protected and refuses stdio servers.
// Its sign-in button signs in as `mcp auth <server>` does, each step shown, the tokens saved.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { freePort, startSdkOAuthServer, type SdkOAuthServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcp, sandbox, userConfig } from "./helpers.js";
import { startInspect, type RunningInspector } from "./inspect-helpers.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const SECRET = "inspect-doctor-secret-value";

interface Report {
  server: string;
  ok: boolean;
  steps: { step: string; status: string; clause: string; advice: string; detail?: string }[];
}

const box = sandbox();
let sdk: SdkOAuthServer;
let inspector: RunningInspector | undefined;
let browser: Browser | undefined;
/** The loopback port the sign-in from the page listens on for the redirect. */
let callbackPort = 0;
beforeAll(async () => {
  sdk = await startSdkOAuthServer();
  callbackPort = await freePort();
  userConfig(box, {
    signin: { type: "http", url: sdk.url, oauth: { callbackPort } },
    secure: { type: "http", url: sdk.url },
    "with-secret": { type: "http", url: sdk.url, oauth: { clientId: "pre-registered", clientSecret: SECRET } },
    local: { command: process.execPath, args: ["-e", "process.exit(3)"] },
  });
  inspector = await startInspect(box);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  expect(await inspector?.stop()).toBe(0);
  await sdk.stop();
  box.remove();
});

function doctor(body: unknown, token: string | undefined): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== undefined) headers["x-inspector-token"] = token;
  return fetch(`${new URL(inspector!.url).origin}/api/auth/doctor`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
}

describe("mcp inspect: the sign-in doctor", () => {
  it(
    "the API route: refused without the token, refuses a stdio server and an unknown one, never answers a secret",
    { timeout: 60_000 },
    async () => {
      const refused = await doctor({ server: "secure" }, undefined);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { message: string }).message).toContain("token");
      const wrong = await doctor({ server: "secure" }, "not-the-token");
      expect(wrong.status).toBe(401);

      const stdio = await doctor({ server: "local" }, inspector!.token);
      expect(stdio.status).toBe(400);
      expect(((await stdio.json()) as { message: string }).message).toBe(
        `"local" is a stdio server; OAuth applies to HTTP servers (a stdio server gets its credentials from its env)`,
      );
      expect((await doctor({ server: "nowhere" }, inspector!.token)).status).toBe(404);
      expect((await doctor({ server: "secure", register: "yes" }, inspector!.token)).status).toBe(400);

      const answer = await doctor({ server: "with-secret" }, inspector!.token);
      expect(answer.status).toBe(200);
      const raw = await answer.text();
      expect(raw).not.toContain(SECRET);
      const report = JSON.parse(raw) as Report;
      expect(report.server).toBe(sdk.url);
      expect(report.steps.find((s) => s.step === "client-identification")?.advice).toBe(
        "A pre-registered client id is configured",
      );
      expect(report.steps.find((s) => s.step === "token")).toMatchObject({
        status: "skip",
        advice: "Needs an authorization code",
      }); // no sign-in
    },
  );

  it(
    "the panel on an HTTP server's row shows each step as `mcp auth doctor --no-register` words it; registering is its own button",
    { timeout: 120_000 },
    async () => {
      if (!existsSync(CHROMIUM))
        throw new Error(
          `no Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install chromium), or set CHROMIUM_PATH`,
        );
      const cli = await mcp(box, ["auth", "doctor", "secure", "--json", "--no-register"]);
      expect(cli.code).toBe(0);
      const expected = JSON.parse(cli.stdout) as Report;

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
      const page = await browser.newPage();
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      await page.goto(inspector!.url);
      await page.locator('tr[data-server="local"]').waitFor({ timeout: 30_000 });
      expect(await page.locator('.auth-doctor[data-doctor="local"]').count()).toBe(0); // stdio: no panel
      const panel = page.locator('.auth-doctor[data-doctor="secure"]');
      await panel.locator("summary").click();
      await panel.locator('button[name="doctor-secure"]').click();
      await panel.locator(".doctor-report").waitFor({ timeout: 60_000 });

      const rows = await panel.locator(".doctor-report tr").evaluateAll((trs) =>
        trs.map((tr) => ({
          step: tr.getAttribute("data-step"),
          status: tr.querySelector(".doctor-status")?.textContent,
          advice: tr.querySelector(".doctor-advice")?.textContent,
          clause: tr.querySelector(".doctor-clause")?.textContent,
        })),
      );
      const mark = (status: string): string => (status === "fail" ? "FAIL" : status);
      expect(rows).toEqual(
        expected.steps.map((s) => ({ step: s.step, status: mark(s.status), advice: s.advice, clause: s.clause })),
      );
      expect(rows.length).toBe(17);
      expect(rows.find((r) => r.step === "client-identification")?.advice).toBe(
        "Dynamic registration is offered (not tried)",
      );
      expect(rows.find((r) => r.step === "token")?.advice).toBe("Needs an authorization code");
      expect(await panel.locator(".doctor-report p").textContent()).toBe(`Sign-in to ${sdk.url}: no step fails`);

      // The button that says it registers a client does register one.
      await panel.locator('button[name="doctor-register-secure"]').click();
      await page.waitForFunction(
        () =>
          document.querySelector(
            '.auth-doctor[data-doctor="secure"] tr[data-step="client-identification"] .doctor-advice',
          )?.textContent !== "Dynamic registration is offered (not tried)",
        undefined,
        { timeout: 60_000 },
      );
      expect(await panel.locator('tr[data-step="client-identification"] .doctor-status').textContent()).toBe("pass");
      // The authorization server approves at once, so the doctor reads a code from its redirect and
      // trades it; but no user step ran and nothing is kept: the token store is untouched.
      expect(
        existsSync(join(box.home, ".config", "mcp-client", "oauth"))
          ? readdirSync(join(box.home, ".config", "mcp-client", "oauth"))
          : [],
      ).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
  );

  it(
    "signs in from the page: each step shown, the link the user opens comes back to the loopback listener, the tokens are saved and the server reconnects",
    { timeout: 120_000 },
    async () => {
      const signIn = (body: unknown, token: string | undefined): Promise<Response> =>
        fetch(`${new URL(inspector!.url).origin}/api/auth/sign-in`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(token === undefined ? {} : { "x-inspector-token": token }),
          },
          body: JSON.stringify(body),
        });
      expect((await signIn({ server: "signin" }, undefined)).status).toBe(401);
      expect((await signIn({ server: "local" }, inspector!.token)).status).toBe(400);
      expect((await signIn({ server: "nowhere" }, inspector!.token)).status).toBe(404);

      browser ??= await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
      });
      const page = await browser.newPage();
      await page.goto(inspector!.url);
      const row = page.locator('tr[data-server="signin"]');
      await row.locator(".status", { hasText: "needs authentication" }).waitFor({ timeout: 30_000 });
      const panel = page.locator('.auth-doctor[data-doctor="signin"]');
      await panel.locator("summary").click();
      await panel.locator('button[name="sign-in-signin"]').click();
      const link = panel.locator(".sign-in-link");
      await link.waitFor({ timeout: 60_000 });
      expect(await panel.locator('li[data-step="discovery"]').getAttribute("data-state")).toBe("done");
      expect(await panel.locator('li[data-step="redirect"]').textContent()).toContain(
        `http://127.0.0.1:${callbackPort}/callback`,
      );
      expect(await link.getAttribute("href")).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/authorize\\?`));
      // The user's click: the authorization server approves at once and sends the browser back.
      const [tab] = await Promise.all([page.waitForEvent("popup"), link.click()]);
      await expect.poll(() => tab.textContent("body"), { timeout: 30_000 }).toContain("Authorized");
      await panel.locator('li[data-step="reconnect"][data-state="done"]').waitFor({ timeout: 60_000 });
      expect(await panel.locator('li[data-step="redirect"]').getAttribute("data-state")).toBe("done");
      await row.locator(".status", { hasText: /^connected$/ }).waitFor({ timeout: 30_000 });
      expect(readdirSync(join(box.home, ".config", "mcp-client", "oauth")).length).toBeGreaterThan(0);
      await page.close();
    },
  );
});
