// HTTP servers and the pool: a host reaches an HTTP server itself (the shim refuses one), and the
// daemon, which serves `mcp call` for every shell, refreshes an expired OAuth token once however
// many calls need it at the same time (a local authorization server that spends each refresh token once).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FileTokenStore, followRedirectAuthorize, OAuthProvider } from "@mcp/oauth";
import { startAuthFixture, type AuthFixture } from "mcp-test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";

describe.skipIf(process.platform !== "linux")("HTTP servers and the mcp daemon", () => {
  let box: Sandbox;
  let f: AuthFixture;
  beforeEach(async () => {
    box = sandbox();
    // A slow refresh, so that the calls are inside it at the same time; each refresh token works once.
    f = await startAuthFixture({ rotateRefresh: true, refreshDelayMs: 500, mcp: true });
    userConfig(box, { up: { type: "http", url: f.mcpUrl } });
  });
  afterEach(async () => {
    await mcp(box, ["daemon", "stop"]);
    await f.stop();
    box.remove();
  });

  it("mcp daemon stdio refuses an HTTP server (exit 2): a host reaches it directly, and nothing runs in the pool", async () => {
    const refused = await mcp(box, ["daemon", "stdio", "up"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'server "up" is an HTTP server: a host reaches it directly, the pool serves stdio servers',
    );
    const ps = JSON.parse((await mcp(box, ["--json", "ps"])).stdout) as { servers: unknown[] };
    expect(ps.servers).toEqual([]);
  }, 60_000);

  /** Signs in once, into the CLI's token folder (as `mcp auth up` does); the token file. */
  async function signIn(): Promise<string> {
    const dir = join(box.home, ".config", "mcp-client", "oauth");
    await new OAuthProvider({
      serverUrl: f.mcpUrl,
      redirectUri: "http://127.0.0.1:1/callback",
      authorize: followRedirectAuthorize(),
      store: new FileTokenStore(dir),
    }).authorizeNow();
    return join(
      dir,
      readdirSync(dir).find((name) => name.endsWith(".json"))!,
    );
  }
  const refreshes = (): number => f.log.filter((l) => l.form.get("grant_type") === "refresh_token").length;

  it("three calls at once through the daemon with an expired token: one refresh reaches the token endpoint, every call succeeds with the fresh token", async () => {
    // Signed in once, then the token runs out.
    const file = await signIn();
    const saved = JSON.parse(readFileSync(file, "utf8")) as { tokens: { accessToken: string; expiresAt: number } };
    writeFileSync(file, JSON.stringify({ ...saved, tokens: { ...saved.tokens, expiresAt: Date.now() - 1000 } }));

    expect((await mcp(box, ["daemon", "start"])).code).toBe(0);
    const calls = await Promise.all([0, 1, 2].map(() => mcp(box, ["call", "up.whoami"])));
    expect(refreshes()).toBe(1);
    const fresh = (JSON.parse(readFileSync(file, "utf8")) as typeof saved).tokens.accessToken;
    expect(fresh).not.toBe(saved.tokens.accessToken);
    for (const call of calls) {
      expect(call.code, call.stderr).toBe(0);
      expect(call.stdout.trim()).toBe(fresh);
    }
    // They went through the daemon (one connection for the three).
    const status = JSON.parse((await mcp(box, ["--json", "daemon", "status"])).stdout) as { calls: number };
    expect(status.calls).toBe(3);
  }, 60_000);

  it("a server the daemon keeps connected revokes its token: three calls at once get one refresh (401s, not expiry), and each gets its answer with the fresh token", async () => {
    // A 3 s refresh here: the three calls (three `mcp call` processes) all reach the daemon inside it.
    await f.stop();
    f = await startAuthFixture({ rotateRefresh: true, refreshDelayMs: 3000, mcp: true });
    userConfig(box, { up: { type: "http", url: f.mcpUrl } });
    const file = await signIn();
    expect((await mcp(box, ["daemon", "start"])).code).toBe(0);
    const first = await mcp(box, ["call", "up.whoami"]);
    expect(first.code, first.stderr).toBe(0);
    const old = first.stdout.trim();
    // The daemon's connection to the server stays open; the server stops taking the token it holds.
    expect(f.valid.delete(old)).toBe(true);
    const revokedAt = f.log.length;
    const calls = await Promise.all([0, 1, 2].map(() => mcp(box, ["call", "up.whoami"])));
    expect(refreshes()).toBe(1);
    const fresh = (JSON.parse(readFileSync(file, "utf8")) as { tokens: { accessToken: string } }).tokens.accessToken;
    expect(fresh).not.toBe(old);
    for (const call of calls) {
      expect(call.code, call.stderr).toBe(0);
      expect(call.stdout.trim()).toBe(fresh);
    }
    // The server refused the old token (the 401 path ran, not the expiry check).
    const refused = f.log
      .slice(revokedAt)
      .filter((l) => l.server === "mcp" && l.headers.authorization === `Bearer ${old}`);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    const status = JSON.parse((await mcp(box, ["--json", "daemon", "status"])).stdout) as { calls: number };
    expect(status.calls).toBe(4);
  }, 60_000);
});
