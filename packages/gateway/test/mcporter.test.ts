// mcporter (0.12.3, a real MCP client CLI people use; on the Node 24 it needs) signs in to the
// gateway through the organization's identity provider (a real oidc-provider on loopback): it
// reads the gateway's protected resource metadata, registers itself at the issuer, and runs
// authorization code + PKCE headless (`--no-browser`), the test playing the person at the
// provider's login and consent pages; then it calls a tool through the gateway with its token.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startIdp, startV2HttpServer, type TestIdp, type V2HttpServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "../src/index.js";
import { oidcGateway, type OidcGateway } from "./oidc-helpers.js";

// Installed by `pnpm run runtimes` (tools/runtimes/binaries; `pnpm test:matrix` and `pnpm run ci` run it first).
const peer = fileURLToPath(new URL("../../../tools/runtimes/binaries/node_modules/", import.meta.url));
const node24 = join(peer, "node24/bin/node");
const mcporter = join(peer, "mcporter/dist/cli.js");
const present = existsSync(node24) && existsSync(mcporter);

/** Runs mcporter; `onOut` sees its stdout as it comes. Resolves with its exit code and output. */
function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  onOut?: (text: string, child: ChildProcess) => void,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node24, [mcporter, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      onOut?.(out, child);
    });
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

describe.skipIf(!present)("mcporter signs in through the gateway's identity provider", () => {
  let idp: TestIdp;
  let upstream: V2HttpServer;
  let front: OidcGateway;
  let home: string;
  let env: NodeJS.ProcessEnv;
  let config: string;
  const audit: AuditEntry[] = [];

  beforeAll(async () => {
    [idp, upstream] = await Promise.all([startIdp({ scopes: ["mcp:tools"] }), startV2HttpServer({ legacy: "reject" })]);
    front = await oidcGateway(upstream.url, (origin) => ({
      oidc: { issuer: idp.issuer, audience: `${origin}/mcp`, requiredScopes: ["mcp:tools"] },
      audit: (entry) => audit.push(entry),
    }));
    home = mkdtempSync(join(tmpdir(), "mcporter-home-"));
    env = {
      PATH: process.env["PATH"],
      HOME: home,
      XDG_CONFIG_HOME: join(home, "config"),
      XDG_DATA_HOME: join(home, "data"),
      XDG_CACHE_HOME: join(home, "cache"),
      XDG_STATE_HOME: join(home, "state"),
      MCPORTER_OAUTH_NO_BROWSER: "1",
      NO_COLOR: "1",
    };
    config = join(home, "mcporter.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { gw: { url: front.url, auth: "oauth" } } }));
  }, 60_000);

  afterAll(async () => {
    await front?.stop();
    await Promise.all([upstream?.stop(), idp?.stop()]);
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("signs in (authorization code + PKCE, registered at the issuer) and calls a tool through the gateway", async () => {
    let signing: Promise<void> | undefined;
    const auth = await run(["--config", config, "auth", "gw", "--no-browser"], env, (out) => {
      const url = /(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)/.exec(out)?.[1];
      if (!url || signing) return;
      // The person at the provider's pages; then the browser follows the redirect to mcporter's callback.
      signing = idp
        .signIn("erin")(new URL(url))
        .then(async (redirect) => void (await (await fetch(redirect)).text()));
    });
    await signing;
    expect(auth.code, `${auth.out}\n${auth.err}`).toBe(0);
    // It found the issuer through the gateway's metadata, registered a client there, and asked for this resource with PKCE.
    const asked = new URL(/(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)/.exec(auth.out)![1]!);
    expect(asked.origin).toBe(idp.issuer);
    expect(
      Object.fromEntries(["resource", "code_challenge_method", "scope"].map((k) => [k, asked.searchParams.get(k)])),
    ).toEqual({ resource: front.url, code_challenge_method: "S256", scope: "mcp:tools" });
    const call = await run(["--config", config, "call", "gw.up__add", "a=2", "b=3"], env);
    expect(call.code, `${call.out}\n${call.err}`).toBe(0);
    expect(call.out.trim()).toBe("5");
    // The call came as the person who signed in, with a token of the issuer.
    expect(audit.filter((e) => e.method === "tools/call").map((e) => [e.caller, e.decision, e.outcome])).toEqual([
      ["oidc:erin", "allowed", "ok"],
    ]);
  }, 120_000);
});
