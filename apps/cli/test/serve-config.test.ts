// What `mcp serve` reads from the config file besides servers: each server entry's `gateway`
// credentials (token exchange per user, or shared), the exchange secret from the environment only.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { MCPServerConfig } from "@mcp/client";
import { canonicalResource, FileTokenStore } from "@mcp/oauth";
import { checkServeSharing, consentOptions, readServeConfig } from "../src/serve/views.js";
import { mcp, sandboxes, userConfig } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "serve-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, document: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(document));
  return path;
};

describe("mcp serve: a server entry's gateway credentials", () => {
  it("reads exchange (secret from the environment) and shared; entries without gateway are left out", async () => {
    const path = file("ok.json", {
      servers: {
        crm: {
          type: "http",
          url: "http://127.0.0.1:1/mcp",
          gateway: { credentials: "exchange", audience: "https://crm.example/mcp", scope: "crm:read", clientId: "gw" },
        },
        wiki: {
          type: "http",
          url: "http://127.0.0.1:2/mcp",
          gateway: { credentials: "exchange", resource: "https://wiki.example/mcp", clientSecretEnv: "WIKI_SECRET" },
        },
        docs: { type: "http", url: "http://127.0.0.1:3/mcp", gateway: { credentials: "shared" } },
        plain: { command: "node" },
      },
    });
    const found = await readServeConfig(dir, [path], "introspector", { MCP_EXCHANGE_SECRET: "s1", WIKI_SECRET: "s2" });
    expect(found.credentials).toEqual({
      crm: {
        mode: "exchange",
        clientId: "gw",
        clientSecret: "s1",
        audience: "https://crm.example/mcp",
        resource: undefined,
        scope: "crm:read",
      },
      wiki: {
        mode: "exchange",
        clientId: "introspector",
        clientSecret: "s2",
        audience: undefined,
        resource: "https://wiki.example/mcp",
        scope: undefined,
      },
      docs: { mode: "shared" },
    });
  });

  it("refuses an unknown mode, a missing secret or client id, a non-string field, naming file and field", async () => {
    const one = (gateway: unknown): string =>
      file(`bad-${Math.random().toString(36).slice(2)}.json`, {
        servers: { crm: { type: "http", url: "http://127.0.0.1:1/mcp", gateway } },
      });
    await expect(readServeConfig(dir, [one({ credentials: "borrowed" })], "gw", {})).rejects.toThrow(
      /servers\.crm\.gateway\.credentials must be "exchange", "consent" or "shared"/,
    );
    await expect(readServeConfig(dir, [one({ credentials: "exchange", audience: "a" })], "gw", {})).rejects.toThrow(
      /secret of client gw in \$MCP_EXCHANGE_SECRET/,
    );
    await expect(
      readServeConfig(dir, [one({ credentials: "exchange", audience: "a" })], undefined, { MCP_EXCHANGE_SECRET: "s" }),
    ).rejects.toThrow(/needs the gateway's clientId/);
    await expect(
      readServeConfig(dir, [one({ credentials: "exchange", audience: 7 })], "gw", { MCP_EXCHANGE_SECRET: "s" }),
    ).rejects.toMatchObject({ code: "invalid_config", field: "servers.crm.gateway" });
    await expect(readServeConfig(dir, [one("exchange")], "gw", {})).rejects.toThrow(/must be an object/);
  });

  it("reads consent (a secret only from the variable it names), and its options from the environment", async () => {
    const path = file("consent.json", {
      servers: {
        crm: {
          type: "http",
          url: "http://127.0.0.1:1/mcp",
          gateway: { credentials: "consent", issuer: "https://login.crm.example", scope: "crm:read" },
        },
        wiki: {
          type: "http",
          url: "http://127.0.0.1:2/mcp",
          gateway: { credentials: "consent", clientId: "gw", clientSecretEnv: "WIKI_SECRET" },
        },
      },
    });
    const { credentials } = await readServeConfig(dir, [path], undefined, { WIKI_SECRET: "s3" });
    expect(credentials).toEqual({
      crm: {
        mode: "consent",
        clientId: undefined,
        clientSecret: undefined,
        issuer: "https://login.crm.example",
        scope: "crm:read",
        resource: undefined,
      },
      wiki: {
        mode: "consent",
        clientId: "gw",
        clientSecret: "s3",
        issuer: undefined,
        scope: undefined,
        resource: undefined,
      },
    });
    await expect(readServeConfig(dir, [path], undefined, {})).rejects.toThrow(
      /names \$WIKI_SECRET for its client secret, which is not set/,
    );
    expect(consentOptions({ x: { mode: "shared" } }, undefined, {})).toBeUndefined();
    expect(() => consentOptions(credentials, undefined, {})).toThrow(
      /MCP_CONSENT_REDIRECT_URI .* MCP_CONSENT_KEY .* MCP_CONSENT_CLIENT_ID/,
    );
    const env = { MCP_CONSENT_REDIRECT_URI: "https://gw.example/oauth/callback", MCP_CONSENT_KEY: "k" };
    expect(() => consentOptions(credentials, undefined, env)).toThrow(/MCP_CONSENT_CLIENT_ID/);
    expect(consentOptions(credentials, undefined, { ...env, MCP_CONSENT_CLIENT_ID: "gw" })).toEqual({
      redirectUri: "https://gw.example/oauth/callback",
      key: "k",
      store: undefined,
      signIn: { clientId: "gw", clientSecret: undefined },
    });
    expect(
      consentOptions(credentials, undefined, { ...env, MCP_CONSENT_CLIENT_ID: "gw", MCP_CONSENT_CLIENT_SECRET: "s" })
        ?.signIn,
    ).toEqual({ clientId: "gw", clientSecret: "s" });
  });
});

describe("mcp serve: an upstream with credentials of its own, and several callers", () => {
  const { box, removeAll } = sandboxes();
  afterAll(removeAll);

  it('refuses to start, naming the server and the config\'s fix; with "credentials": "shared" said, the check passes', async () => {
    const b = box();
    const callers = b.write(join(b.project, "callers.json"), {
      alice: { token: "alice-token-0123456789" },
      bob: { token: "bob-token-0123456789ab" },
    });
    // Nothing listens on port 9: the refusal comes before any server is reached.
    const crm = { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer service" } };
    userConfig(b, { crm });
    const refused = await mcp(b, ["serve", "--http", "--callers", callers]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/"crm" \(header Authorization\) carries credentials of its own/);
    expect(refused.stderr).toContain(`Add "gateway": { "credentials": "shared" } to the entry of "crm" in your config`);
    expect(refused.stdout).toBe("");
    // The check itself, with the entry said: it passes; a stdio server's secret-looking variable is a warning in the config's terms.
    const warnings: string[] = [];
    const local = { command: "node", env: { API_TOKEN: "t" } };
    const options = { callers: [{ id: "a" }, { id: "b" }], credentials: { crm: { mode: "shared" as const } } };
    checkServeSharing({ crm: crm as MCPServerConfig, local }, options, (m) => warnings.push(m));
    expect(warnings).toEqual([
      expect.stringContaining(`add "gateway": { "credentials": "shared" } to "local"'s entry`),
    ]);
    // One caller: nothing to refuse.
    checkServeSharing({ crm: crm as MCPServerConfig }, { callers: [{ id: "a" }], credentials: {} }, () => undefined);
  }, 60_000);

  it("counts the operator's own OAuth sign-in (mcp auth login) for a plain HTTP server: every caller would use it", async () => {
    const b = box();
    const callers = b.write(join(b.project, "callers.json"), {
      alice: { token: "alice-token-0123456789" },
      bob: { token: "bob-token-0123456789ab" },
    });
    // A server entry with nothing of its own: no header, no oauth field. The manager signs in to
    // such a server with the user's token store, which `mcp auth login github` filled.
    const url = "http://127.0.0.1:9/mcp";
    userConfig(b, { github: { type: "http", url }, public: { type: "http", url: "http://127.0.0.1:9/other" } });
    await new FileTokenStore(join(b.home, ".config", "mcp-client", "oauth")).set({
      issuer: "http://127.0.0.1:9",
      resource: canonicalResource(url),
      tokens: { accessToken: "the-operator-s-own-token", tokenType: "Bearer", expiresAt: Date.now() + 3_600_000 },
    });
    // Started instead of refusing, it would serve until killed: 40 s is far past any refusal.
    const refused = await mcp(b, ["serve", "--http", "--callers", callers], {}, 40_000);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/"github" \(a stored OAuth sign-in\) carries credentials of its own/);
    expect(refused.stderr).not.toMatch(/"public"/);
    expect(refused.stdout).toBe("");
  }, 60_000);
});
