// Tokens shared between processes through one FileTokenStore folder: real child processes
// against an authorization server that counts refreshes and spends each refresh token once.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileTokenStore, OAuthProvider, followRedirectAuthorize, type StoredCredentials } from "../src/index.js";
import { startAuthFixture, type AuthFixture } from "./fixture.js";

const child = fileURLToPath(new URL("./fixtures/refresh-child.mjs", import.meta.url));
const run = promisify(execFile);

let f: AuthFixture;
let dir: string;
beforeEach(async () => {
  // A slow refresh, so that processes started together are inside it at the same time.
  f = await startAuthFixture({ rotateRefresh: true, refreshDelayMs: 1500 });
  dir = mkdtempSync(join(tmpdir(), "mcp-tokens-"));
});
afterEach(async () => {
  await f.stop();
  rmSync(dir, { recursive: true, force: true });
});

function inProcess(options: { refreshMarginMs?: number } = {}): OAuthProvider {
  return new OAuthProvider({
    serverUrl: f.mcpUrl,
    redirectUri: "http://127.0.0.1:1/callback",
    authorize: followRedirectAuthorize(),
    store: new FileTokenStore(dir),
    ...options,
  });
}

async function inChild(margin?: number): Promise<string | null> {
  const { stdout } = await run(
    process.execPath,
    [child, f.mcpUrl, dir, ...(margin === undefined ? [] : [String(margin)])],
    { timeout: 20_000 },
  );
  return (JSON.parse(stdout.trim()) as { authorization: string | null }).authorization;
}

/** The one credentials file, as stored. */
function stored(): { file: string; value: StoredCredentials } {
  const name = readdirSync(dir).find((n) => n.endsWith(".json"))!;
  return { file: join(dir, name), value: JSON.parse(readFileSync(join(dir, name), "utf8")) as StoredCredentials };
}

const refreshes = (): number => f.log.filter((l) => l.form.get("grant_type") === "refresh_token").length;

describe("one FileTokenStore, several processes", () => {
  it("two processes with an expired token refresh it once; both use the fresh token", async () => {
    await inProcess().authorizeNow();
    const { file, value } = stored();
    writeFileSync(file, JSON.stringify({ ...value, tokens: { ...value.tokens, expiresAt: Date.now() - 1000 } }));
    const [a, b, c] = await Promise.all([inChild(), inChild(), inChild()]);
    expect(refreshes()).toBe(1);
    const fresh = `Bearer ${stored().value.tokens!.accessToken}`;
    expect([a, b, c]).toEqual([fresh, fresh, fresh]);
    expect(fresh).not.toBe(`Bearer ${value.tokens!.accessToken}`);
    expect(readdirSync(dir).filter((n) => n.endsWith(".lock"))).toEqual([]);
  });

  it("a token another process wrote is used on the next request, without a refresh of our own", async () => {
    const ours = inProcess();
    await ours.authorizeNow();
    const first = (await ours.headers()).authorization;
    // Another process refreshes (its margin makes any token due).
    const theirs = await inChild(10 * 365 * 24 * 3600 * 1000);
    expect(theirs).not.toBe(first);
    expect(refreshes()).toBe(1);
    expect((await ours.headers()).authorization).toBe(theirs);
    expect(refreshes()).toBe(1);
  });

  it("a lock left by a process that died, or one too old, is broken", async () => {
    await inProcess().authorizeNow();
    const { file, value } = stored();
    writeFileSync(file, JSON.stringify({ ...value, tokens: { ...value.tokens, expiresAt: Date.now() - 1000 } }));
    // A pid that is surely gone: a child that already exited.
    const gone = await run(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    writeFileSync(`${file}.lock`, `${gone.stdout}\n`);
    const started = performance.now();
    expect(await inChild()).toMatch(/^Bearer access-/);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(refreshes()).toBe(1);

    // A live pid (ours) but an old lock: stale after staleLockMs.
    const again = stored();
    writeFileSync(
      again.file,
      JSON.stringify({ ...again.value, tokens: { ...again.value.tokens, expiresAt: Date.now() - 1000 } }),
    );
    writeFileSync(`${again.file}.lock`, `${process.pid}\n`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${again.file}.lock`, old, old);
    expect(await inChild()).toMatch(/^Bearer access-/);
    expect(refreshes()).toBe(2);
  });
});
