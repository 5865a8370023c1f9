// `mcp auth doctor` and `mcp auth --no-browser` as a user runs them, against real authorization
// servers on loopback: the official SDK's (approves at once) and oidc-provider (a login page; its
// quirks switched on).
import { spawn } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { freePort, startOidcServer, startSdkOAuthServer, type SdkOAuthServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, mcp, sandboxes, userConfig } from "./helpers.js";

const { box, removeAll } = sandboxes();
let sdk: SdkOAuthServer;
beforeAll(async () => {
  sdk = await startSdkOAuthServer();
});
afterAll(async () => {
  await sdk.stop();
  removeAll();
});

interface Report {
  server: string;
  ok: boolean;
  steps: { step: string; status: string; clause: string; advice: string }[];
}

describe("mcp auth doctor", () => {
  it("a URL with --json: the report's shape, exit 0 when no step fails", { timeout: 60_000 }, async () => {
    const run = await mcp(box(), ["auth", "doctor", sdk.url, "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report).toMatchObject({ server: sdk.url, ok: true });
    expect(report.steps.length).toBe(17);
    for (const s of report.steps) {
      expect(Object.keys(s).filter((k) => k !== "detail")).toEqual(["step", "status", "clause", "advice"]);
      expect(["pass", "warn", "skip"]).toContain(s.status);
    }
    expect(report.steps.find((s) => s.step === "token-accepted")?.status).toBe("pass");
  });

  it(
    "--no-register: no client is registered at the authorization server; the step says registration is offered, not tried",
    { timeout: 60_000 },
    async () => {
      const b = box();
      const trace = join(b.home, "no-register.json");
      const run = await mcp(b, ["auth", "doctor", sdk.url, "--json", "--no-register", "--trace", trace]);
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout) as Report;
      expect(report.steps.find((s) => s.step === "client-identification")?.advice).toBe(
        "Dynamic registration is offered (not tried)",
      );
      const written = JSON.parse(readFileSync(trace, "utf8")) as { requests: { url: string; method?: string }[] };
      expect(written.requests.length).toBeGreaterThan(0);
      const registrations = (requests: { url: string; method?: string }[]): string[] =>
        requests.filter((r) => r.method === "POST" && new URL(r.url).pathname.endsWith("/register")).map((r) => r.url);
      expect(written.requests.some((r) => new URL(r.url).pathname.includes("oauth-authorization-server"))).toBe(true); // it did look
      expect(registrations(written.requests)).toEqual([]);
      // Without the flag, the same doctor registers a client (a POST to the registration endpoint).
      const registering = await mcp(b, ["auth", "doctor", sdk.url, "--json", "--trace", trace]);
      expect(registering.code).toBe(0);
      const again = JSON.parse(readFileSync(trace, "utf8")) as { requests: { url: string; method?: string }[] };
      expect(registrations(again.requests)).toHaveLength(1);
    },
  );

  it(
    "a configured server: exit 1 naming the failing step; --trace writes a redacted trace (mode 600); the config's client id and profile are used",
    { timeout: 60_000 },
    async () => {
      const oidc = await startOidcServer({
        registration: false,
        clients: [
          {
            client_id: "cli-app",
            client_secret: "cli-app-secret-value",
            redirect_uris: ["http://127.0.0.1:33418/callback"],
          },
        ],
      });
      try {
        const b = box();
        userConfig(b, {
          bare: { type: "http", url: oidc.mcpUrl },
          configured: {
            type: "http",
            url: oidc.mcpUrl,
            oauth: { clientId: "cli-app", clientSecret: "cli-app-secret-value", profile: "keycloak" },
          },
        });
        const trace = join(b.home, "trace.json");
        const bare = await mcp(b, ["auth", "doctor", "bare", "--trace", trace]);
        expect(bare.code).toBe(1);
        expect(bare.stdout).toMatch(
          /FAIL {2}client-identification +The authorization server offers no way for a client to register itself/,
        );
        expect(bare.stdout).toContain("RFC 7591 §3");
        expect(statSync(trace).mode & 0o777).toBe(0o600);
        const written = JSON.parse(readFileSync(trace, "utf8")) as { requests: { url: string }[] };
        expect(written.requests.map((r) => new URL(r.url).pathname)).toContain(
          "/.well-known/oauth-protected-resource/mcp",
        );

        const configured = await mcp(b, ["auth", "doctor", "configured", "--json", "--trace", trace]);
        expect(configured.code).toBe(0);
        const report = JSON.parse(configured.stdout) as Report;
        expect(report.steps.find((s) => s.step === "client-identification")?.advice).toBe(
          "A pre-registered client id is configured",
        );
        expect(report.steps.find((s) => s.step === "profile")?.advice).toMatch(/^Keycloak \(chosen in the config\)/);
        expect(`${configured.stdout}${configured.stderr}${readFileSync(trace, "utf8")}`).not.toContain(
          "cli-app-secret-value",
        );
      } finally {
        await oidc.stop();
      }
    },
  );
});

describe("mcp auth doctor --sign-in", () => {
  it(
    "completes the sign-in through the browser and the loopback listener, checks the token, and saves nothing",
    { timeout: 60_000 },
    async () => {
      const b = box();
      userConfig(b, { protected: { type: "http", url: sdk.url, oauth: { callbackPort: await freePort() } } });
      const child = spawn(process.execPath, [bin, "auth", "doctor", "protected", "--sign-in", "--no-open", "--json"], {
        cwd: b.project,
        env: b.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      let opened = false;
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const url = /To sign in to protected, open: (\S+)/.exec(stderr)?.[1];
        if (url && !opened) {
          opened = true;
          // The "browser": the SDK's authorization server redirects to the doctor's loopback listener at once.
          void fetch(url).then((r) => r.text());
        }
      });
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(opened).toBe(true);
      const report = JSON.parse(stdout) as Report;
      expect(
        report.steps
          .filter((s) => ["authorization-request", "token", "token-accepted"].includes(s.step))
          .map((s) => s.status),
      ).toEqual(["pass", "pass", "pass"]);
      expect(code).toBe(0);
      expect(() => readdirSync(join(b.home, ".config", "mcp-client", "oauth"))).toThrow();
    },
  );
});

describe("mcp auth --no-browser", () => {
  it(
    "prints the URL, takes the pasted redirect address from stdin, and saves the tokens",
    { timeout: 60_000 },
    async () => {
      const b = box();
      userConfig(b, { protected: { type: "http", url: sdk.url, oauth: { callbackPort: await freePort() } } });
      const child = spawn(process.execPath, [bin, "auth", "protected", "--no-browser"], {
        cwd: b.project,
        env: b.env,
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      let pasted = false;
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const url = /open this URL in a browser on any machine:\s+(\S+)/.exec(stderr)?.[1];
        if (url && !pasted && stderr.includes("Paste it here")) {
          pasted = true;
          // The "browser" elsewhere: the SDK's authorization server redirects at once; the user copies the address it was sent to.
          void fetch(url, { redirect: "manual" }).then((r) => child.stdin.end(`${r.headers.get("location")}\n`));
        }
      });
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(stderr).toContain("(the page will not load)");
      expect(stdout).toContain('Authorized "protected"');
      expect(code).toBe(0);
      expect(readdirSync(join(b.home, ".config", "mcp-client", "oauth"))).toHaveLength(1);
    },
  );

  it("stdin that ends without an address fails clearly", { timeout: 60_000 }, async () => {
    const b = box();
    userConfig(b, { protected: { type: "http", url: sdk.url, oauth: { callbackPort: await freePort() } } });
    const run = await mcp(b, ["auth", "protected", "--no-browser"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("no address was pasted (stdin ended)");
  });
});
