// A gateway from a config file (what `mcp serve` reads besides the servers): each server entry's
// `gateway` credentials (token exchange per user, consent, or shared), their secrets from the
// environment only; the consent options from the environment; the sharing check in the file's terms.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { MCPServerConfig } from "@mcp/client";
import { checkConfigSharing, consentFromEnv, readGatewayConfig } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "gateway-config-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, document: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(document));
  return path;
};

describe("readGatewayConfig: a server entry's gateway credentials", () => {
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
    const found = await readGatewayConfig({
      home: dir,
      files: [path],
      introspectionClient: "introspector",
      env: { MCP_EXCHANGE_SECRET: "s1", WIKI_SECRET: "s2" },
    });
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
    await expect(
      readGatewayConfig({ home: dir, files: [one({ credentials: "borrowed" })], introspectionClient: "gw", env: {} }),
    ).rejects.toThrow(/servers\.crm\.gateway\.credentials must be "exchange", "consent" or "shared"/);
    await expect(
      readGatewayConfig({
        home: dir,
        files: [one({ credentials: "exchange", audience: "a" })],
        introspectionClient: "gw",
        env: {},
      }),
    ).rejects.toThrow(/secret of client gw in \$MCP_EXCHANGE_SECRET/);
    await expect(
      readGatewayConfig({
        home: dir,
        files: [one({ credentials: "exchange", audience: "a" })],
        introspectionClient: undefined,
        env: { MCP_EXCHANGE_SECRET: "s" },
      }),
    ).rejects.toThrow(/needs the gateway's clientId/);
    await expect(
      readGatewayConfig({
        home: dir,
        files: [one({ credentials: "exchange", audience: 7 })],
        introspectionClient: "gw",
        env: { MCP_EXCHANGE_SECRET: "s" },
      }),
    ).rejects.toMatchObject({ code: "invalid_config", field: "servers.crm.gateway" });
    await expect(
      readGatewayConfig({ home: dir, files: [one("exchange")], introspectionClient: "gw", env: {} }),
    ).rejects.toThrow(/must be an object/);
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
    const { credentials } = await readGatewayConfig({
      home: dir,
      files: [path],
      introspectionClient: undefined,
      env: { WIKI_SECRET: "s3" },
    });
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
    await expect(
      readGatewayConfig({ home: dir, files: [path], introspectionClient: undefined, env: {} }),
    ).rejects.toThrow(/names \$WIKI_SECRET for its client secret, which is not set/);
    expect(consentFromEnv({ x: { mode: "shared" } }, undefined, {})).toBeUndefined();
    expect(() => consentFromEnv(credentials, undefined, {})).toThrow(
      /MCP_CONSENT_REDIRECT_URI .* MCP_CONSENT_KEY .* MCP_CONSENT_CLIENT_ID/,
    );
    const env = { MCP_CONSENT_REDIRECT_URI: "https://gw.example/oauth/callback", MCP_CONSENT_KEY: "k" };
    expect(() => consentFromEnv(credentials, undefined, env)).toThrow(/MCP_CONSENT_CLIENT_ID/);
    expect(consentFromEnv(credentials, undefined, { ...env, MCP_CONSENT_CLIENT_ID: "gw" })).toEqual({
      redirectUri: "https://gw.example/oauth/callback",
      key: "k",
      store: undefined,
      signIn: { clientId: "gw", clientSecret: undefined },
    });
    expect(
      consentFromEnv(credentials, undefined, { ...env, MCP_CONSENT_CLIENT_ID: "gw", MCP_CONSENT_CLIENT_SECRET: "s" })
        ?.signIn,
    ).toEqual({ clientId: "gw", clientSecret: "s" });
  });
});

describe("readGatewayConfig: the file itself", () => {
  it("reads views beside servers, with comments and trailing commas; a missing file has none; a malformed one is named", async () => {
    const path = join(dir, "views.jsonc");
    writeFileSync(
      path,
      '{\n  // the support desk\n  "views": { "support": { "tools": ["crm__*"] } },\n  "mcpServers": { "crm": { "type": "http", "url": "http://127.0.0.1:1/mcp", "gateway": { "credentials": "shared" } } },\n}\n',
    );
    const found = await readGatewayConfig({ files: [path, join(dir, "missing.json")], env: {} });
    expect([...found.views.keys()]).toEqual(["support"]);
    expect(found.credentials).toEqual({ crm: { mode: "shared" } });
    const broken = join(dir, "broken.json");
    writeFileSync(broken, '{ "views": ');
    await expect(readGatewayConfig({ files: [broken], env: {} })).rejects.toMatchObject({
      code: "invalid_config",
      file: broken,
      message: expect.stringMatching(
        new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not JSON \\(\\w+ at offset \\d+\\)$`),
      ),
    });
  });
});

describe("checkConfigSharing: an upstream with credentials of its own, and several callers", () => {
  const noSignIn = { hasSignIn: async () => false };
  const crm = {
    type: "http",
    url: "http://127.0.0.1:9/mcp",
    headers: { Authorization: "Bearer service" },
  } as MCPServerConfig;

  it('refuses, naming the server and the config\'s fix; with "credentials": "shared" said, the check passes', async () => {
    const two = { callers: [{ id: "a" }, { id: "b" }], credentials: {} };
    const refused = checkConfigSharing(noSignIn, { crm }, two, () => undefined);
    await expect(refused).rejects.toMatchObject({ code: "invalid_config", field: "credentials" });
    await expect(refused).rejects.toThrow(/"crm" \(header Authorization\) carries credentials of its own/);
    await expect(refused).rejects.toThrow(
      `Add "gateway": { "credentials": "shared" } to the entry of "crm" in your config`,
    );
    // With the entry said: it passes; a stdio server's secret-looking variable is a warning in the config's terms.
    const warnings: string[] = [];
    const local = { command: "node", env: { API_TOKEN: "t" } };
    const options = { callers: [{ id: "a" }, { id: "b" }], credentials: { crm: { mode: "shared" as const } } };
    await checkConfigSharing(noSignIn, { crm, local }, options, (m) => warnings.push(m));
    expect(warnings).toEqual([
      expect.stringContaining(`add "gateway": { "credentials": "shared" } to "local"'s entry`),
    ]);
    // One caller: nothing to refuse.
    await checkConfigSharing(noSignIn, { crm }, { callers: [{ id: "a" }], credentials: {} }, () => undefined);
  });

  it("counts a stored OAuth sign-in the manager holds for a plain HTTP server, and asks only about servers with no entry", async () => {
    const asked: string[] = [];
    const manager = {
      hasSignIn: async (config: MCPServerConfig) => {
        asked.push((config as { url: string }).url);
        return (config as { url: string }).url.endsWith("/github");
      },
    };
    const configs = {
      github: { type: "http", url: "http://127.0.0.1:9/github" } as MCPServerConfig,
      public: { type: "http", url: "http://127.0.0.1:9/public" } as MCPServerConfig,
      docs: { type: "http", url: "http://127.0.0.1:9/docs" } as MCPServerConfig,
    };
    const options = { callers: [{ id: "a" }, { id: "b" }], credentials: { docs: { mode: "shared" as const } } };
    const refused = checkConfigSharing(manager, configs, options, () => undefined);
    await expect(refused).rejects.toThrow(/"github" \(a stored OAuth sign-in\) carries credentials of its own/);
    await expect(refused).rejects.not.toThrow(/"public"/);
    expect(asked.sort()).toEqual(["http://127.0.0.1:9/github", "http://127.0.0.1:9/public"]);
  });
});
