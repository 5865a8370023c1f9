// Never one shared token for many users unless the config says `shared`: a gateway that several
// callers can use refuses, at creation, an upstream carrying credentials of its own with no
// `credentials` entry (a typed error naming the servers and the fix); `{ mode: "shared" }` accepts
// it, and every caller then reaches the upstream (a real SDK v2 server checking its bearer token)
// as that one identity; a single-caller gateway is unaffected; a stdio server's secret-looking
// environment is a warning.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { MCPServerConfig } from "@mcp/client";
import { InvalidConfigError } from "@mcp/client";
import { MCPManager } from "@mcp/manager";
import { canonicalResource, MemoryTokenStore } from "@mcp/oauth";
import { startV2HttpServer, type V2HttpServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkSharing,
  createGateway,
  SharedCredentialsError,
  type Caller,
  type CreateGatewayOptions,
} from "../src/index.js";
import { mountGateway } from "./app.js";
import { callAdd } from "./oidc-helpers.js";

const SERVICE = "the-upstream-service-token";
const TWO = new Map<string, Caller>([
  ["alice-token-0123456789", { id: "u-alice", name: "alice" }],
  ["bob-token-0123456789ab", { id: "u-bob", name: "bob" }],
]);

/** createGateway over a manager holding `configs` (registered, never started). */
async function create(
  configs: Record<string, MCPServerConfig>,
  options: Partial<CreateGatewayOptions>,
): Promise<() => Promise<void>> {
  const manager = new MCPManager({ cache: false });
  await manager.addServers(configs);
  try {
    const gateway = createGateway(manager, options);
    return async () => {
      await gateway.close();
      await manager.disconnectAll();
    };
  } catch (error) {
    await manager.disconnectAll();
    throw error;
  }
}

const idle = "http://127.0.0.1:9/mcp";

describe("an upstream with credentials of its own, and several callers", () => {
  it("is refused at creation, naming every such server and the fix", async () => {
    const configs: Record<string, MCPServerConfig> = {
      crm: { type: "http", url: idle, headers: { Authorization: "Bearer x" } },
      wiki: { type: "http", url: idle, headers: { "X-Api-Key": "k" } },
      plain: { type: "http", url: idle, headers: { "X-Tenant": "acme" } },
      local: { command: process.execPath, args: ["-e", "0"] },
    };
    const failure = await create(configs, { tokens: TWO }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SharedCredentialsError);
    expect(failure).toBeInstanceOf(InvalidConfigError);
    const error = failure as SharedCredentialsError;
    expect(error.code).toBe("shared_credentials");
    expect(error.field).toBe("credentials");
    expect(error.servers).toEqual(["crm", "wiki"]);
    expect(error.message).toMatch(/"crm" \(header Authorization\), "wiki" \(header X-Api-Key\)/);
    expect(error.message).toContain(`credentials: { "crm": { mode: "shared" }, "wiki": { mode: "shared" } }`);
    expect(error.message).toMatch(/exchange.*consent/);
  });

  it("counts OAuth, an auth provider, a headers helper and a password or key in the URL; not a plain header", async () => {
    const cases: [MCPServerConfig, RegExp][] = [
      [{ type: "http", url: idle, oauth: { clientId: "c" } } as MCPServerConfig, /\(oauth\)/],
      [{ type: "sse", url: idle, authProvider: { headers: async () => ({}) } }, /\(authProvider\)/],
      [{ type: "http", url: idle, headersHelper: "print-token" } as MCPServerConfig, /\(headersHelper\)/],
      [{ type: "http", url: "http://me:pw@127.0.0.1:9/mcp" }, /user or password in its URL/],
      [{ type: "http", url: `${idle}?api_key=k` }, /URL parameter api_key/],
    ];
    for (const [config, what] of cases) await expect(create({ up: config }, { tokens: TWO })).rejects.toThrow(what);
    await (
      await create({ up: { type: "http", url: idle, headers: { "X-Tenant": "acme" } } }, { tokens: TWO })
    )();
  });

  it("a credential under another name, or in the value of a plainly named header, counts too", async () => {
    const cases: [MCPServerConfig, RegExp][] = [
      [{ type: "http", url: idle, headers: { "X-AccessKey": "AKIA0123" } }, /header X-AccessKey/],
      [{ type: "http", url: idle, headers: { "X-JWT-Assertion": "eyJ.x.y" } }, /header X-JWT-Assertion/],
      [{ type: "http", url: idle, headers: { "X-Upstream": "Bearer the-service-token" } }, /header X-Upstream/],
      [{ type: "http", url: idle, headers: { "X-Forwarded-Creds": "Basic bWU6cHc=" } }, /header X-Forwarded-Creds/],
      [{ type: "http", url: `${idle}?sv=2024&sig=abc123` }, /URL parameter sig/],
      [{ type: "http", url: `${idle}?user=me&pwd=pw` }, /URL parameter pwd/],
      [{ type: "http", url: `${idle}?jwt=eyJ.x.y` }, /URL parameter jwt/],
      [{ type: "sse", url: `${idle}?X-Amz-Signature=ab12` }, /URL parameter X-Amz-Signature/],
      // A hosted server's secret URL (the key is a part of the path), a session in a path parameter.
      [{ type: "http", url: "http://127.0.0.1:9/api/mcp/s/ODk0Y2ZhNjMtZTI4Zi00YjQ2LWI5Mz/mcp" }, /key-like part/],
      [{ type: "http", url: "http://127.0.0.1:9/u/3f1c2b9e-7d4a-4c1e-9b2f-0a6d5e8c7b1a/sse" }, /key-like part/],
      [{ type: "http", url: "http://127.0.0.1:9/mcp;jsessionid=A1B2C3" }, /URL parameter jsessionid/],
    ];
    for (const [config, what] of cases) await expect(create({ up: config }, { tokens: TWO })).rejects.toThrow(what);
    // Plain settings stay plain.
    await (
      await create(
        {
          up: {
            type: "http",
            url: "http://127.0.0.1:9/v2/server-everything-2025/mcp-streamable-http?region=eu&page=2",
            headers: { "X-Tenant": "acme", Accept: "application/json", "X-Keyboard": "qwerty" },
          },
        },
        { tokens: TWO },
      )
    )();
  });

  it("callers naming one caller while tokens bring two is two callers", async () => {
    const up = { up: { type: "http" as const, url: idle, headers: { authorization: "Bearer x" } } };
    const alice = TWO.get("alice-token-0123456789")!;
    await expect(create(up, { tokens: TWO, callers: [alice] })).rejects.toThrow(SharedCredentialsError);
  });

  it("every way of having several callers counts: an issuer, a custom authenticate, two static callers", async () => {
    const up = { up: { type: "http" as const, url: idle, headers: { authorization: "Bearer x" } } };
    const oidc = { issuer: "https://id.example", audience: "https://gw.example/mcp" };
    await expect(create(up, { oidc })).rejects.toThrow(SharedCredentialsError);
    await expect(create(up, { authenticate: () => undefined })).rejects.toThrow(SharedCredentialsError);
    await expect(create(up, { authenticate: () => undefined, callers: [...TWO.values()] })).rejects.toThrow(
      SharedCredentialsError,
    );
    // Exchange or consent entries are entries too: only the servers with none are named.
    await expect(
      create(
        { ...up, other: { type: "http", url: idle, headers: { cookie: "s=1" } } },
        { oidc, credentials: { up: { mode: "shared" } } },
      ),
    ).rejects.toThrow(/^"other" \(header cookie\)/);
  });

  it("a single caller (one static token, or a custom authenticate with its one caller named) keeps today's behaviour", async () => {
    const up = { up: { type: "http" as const, url: idle, headers: { authorization: "Bearer x" } } };
    await (
      await create(up, {})
    )();
    await (
      await create(up, { tokens: new Map([["only-token-0123456789", { id: "me", name: "me" }]]) })
    )();
    // Two tokens of the same caller are one identity.
    const me = { id: "me", name: "me" };
    await (
      await create(up, {
        tokens: new Map([
          ["t1-0123456789abcdef", me],
          ["t2-0123456789abcdef", me],
        ]),
      })
    )();
    await (
      await create(up, { authenticate: () => me, callers: [me] })
    )();
  });

  it("a stdio server with a secret-looking environment variable and no entry is a warning, not a refusal", async () => {
    const warnings: string[] = [];
    const local = { command: process.execPath, args: ["-e", "0"], env: { GITHUB_TOKEN: "t", LOG_LEVEL: "debug" } };
    await (
      await create({ local }, { tokens: TWO, warn: (m) => warnings.push(m) })
    )();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/"local" runs with GITHUB_TOKEN in its environment/);
    expect(warnings[0]).not.toMatch(/LOG_LEVEL/);
    warnings.length = 0;
    await (
      await create(
        { local },
        { tokens: TWO, warn: (m) => warnings.push(m), credentials: { local: { mode: "shared" } } },
      )
    )();
    expect(warnings).toEqual([]);
  });

  it("a stdio server given a secret on its command line, or from a secret-named variable, is warned of too", async () => {
    const warnings: string[] = [];
    const configs: Record<string, MCPServerConfig> = {
      flag: { command: process.execPath, args: ["server.js", "--api-key", "sk-123", "--port", "3"] },
      joined: { command: process.execPath, args: ["--token=ghp_123"] },
      renamed: { command: process.execPath, env: { GH: "${GITHUB_TOKEN}" } },
      plain: { command: process.execPath, args: ["--verbose", "--keyboard", "us"], env: { MODE: "${LOG_LEVEL}" } },
    };
    await (
      await create(configs, { tokens: TWO, warn: (m) => warnings.push(m) })
    )();
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/"flag" runs with argument --api-key in its arguments/);
    expect(warnings[1]).toMatch(/"joined" runs with argument --token in its arguments/);
    expect(warnings[2]).toMatch(/"renamed" runs with GH in its environment/);
  });
});

describe('credentials: { mode: "shared" } said explicitly', () => {
  let upstream: V2HttpServer;
  const seen: (string | undefined)[] = [];

  beforeAll(async () => {
    upstream = await startV2HttpServer({
      legacy: "reject",
      authorize: async (authorization) => (seen.push(authorization), authorization === `Bearer ${SERVICE}`),
    });
  });
  afterAll(async () => {
    await upstream?.stop();
  });

  it("a server added to the manager after the gateway was made is not served when it carries credentials of its own and has no entry", async () => {
    for (const credentials of [undefined, { up: { mode: "shared" as const } }]) {
      const warnings: string[] = [];
      const mounted = await mountGateway({}, { tokens: TWO, credentials, warn: (m) => warnings.push(m) });
      try {
        const before = upstream.requests.filter((r) => r.headers["mcp-method"] === "tools/call").length;
        await mounted.manager.connectServers({
          up: { type: "http", url: upstream.url, headers: { authorization: `Bearer ${SERVICE}` } },
        });
        const answer = (await (await callAdd(mounted.url, [...TWO.keys()][1], 1, 2)).json()) as {
          result?: { content: { text: string }[] };
          error?: { message: string };
        };
        const calls = upstream.requests.filter((r) => r.headers["mcp-method"] === "tools/call").length - before;
        if (credentials) {
          expect(answer.result?.content[0]?.text).toBe("3");
          expect(calls).toBe(1);
          expect(warnings.filter((w) => w.includes('"up"'))).toEqual([]);
        } else {
          expect(answer.error?.message).toMatch(/up__add/);
          expect(calls).toBe(0);
          expect(warnings.filter((w) => w.includes('"up" (header authorization) carries credentials'))).toHaveLength(1);
        }
      } finally {
        await mounted.stop();
      }
    }
  });

  it("two callers both reach the upstream, as its one configured identity", async () => {
    const start = upstream.requests.length;
    const mounted = await mountGateway(
      { up: { type: "http", url: upstream.url, headers: { authorization: `Bearer ${SERVICE}` } } },
      { tokens: TWO, credentials: { up: { mode: "shared" } } },
    );
    try {
      for (const [token, a] of [...TWO.keys()].map((t, i) => [t, 10 + i] as const)) {
        const answer = (await (await callAdd(mounted.url, token, a, 1)).json()) as {
          result?: { content: { text: string }[] };
        };
        expect(answer.result?.content[0]?.text).toBe(String(a + 1));
      }
      const calls = upstream.requests.slice(start).filter((r) => r.headers["mcp-method"] === "tools/call");
      expect(calls).toHaveLength(2);
      expect(calls.map((r) => r.headers.authorization)).toEqual([`Bearer ${SERVICE}`, `Bearer ${SERVICE}`]);
      // The callers' own tokens never went upstream.
      for (const token of TWO.keys()) expect(seen.some((h) => h?.includes(token))).toBe(false);
    } finally {
      await mounted.stop();
    }
  });
});

describe("an HTTP upstream with nothing of its own in its config, but the manager's stored OAuth sign-in", () => {
  let upstream: V2HttpServer;

  /** What `auth <server>` (the CLI's `mcp auth login`) leaves in the store: the service token for the upstream. */
  const signIn = (store: MemoryTokenStore): Promise<void> =>
    store.set({
      issuer: "https://as.example",
      resource: canonicalResource(upstream.url),
      tokens: { accessToken: SERVICE, tokenType: "Bearer", expiresAt: Date.now() + 3_600_000 },
    });

  beforeAll(async () => {
    upstream = await startV2HttpServer({
      legacy: "reject",
      authorize: async (authorization) => authorization === `Bearer ${SERVICE}`,
    });
  });
  afterAll(async () => {
    await upstream?.stop();
  });

  it("is sent to the upstream whoever asks: MCPManager.hasSignIn says so, and the sharing check counts it", async () => {
    const store = new MemoryTokenStore();
    const config: MCPServerConfig = { type: "http", url: upstream.url };
    const manager = new MCPManager({ cache: false, oauth: { store } });
    try {
      expect(await manager.hasSignIn(config)).toBe(false);
      await signIn(store);
      expect(await manager.hasSignIn(config)).toBe(true);
      // Not for a config whose OAuth is off, or that brings its own Authorization.
      expect(await manager.hasSignIn({ ...config, oauth: false } as MCPServerConfig)).toBe(false);
      expect(await manager.hasSignIn({ ...config, headers: { Authorization: "Bearer other" } })).toBe(false);
      expect(await new MCPManager({ cache: false, oauth: false }).hasSignIn(config)).toBe(false);
      // The manager's connection does send it: the one identity every caller of a gateway would share.
      await manager.connectServers({ up: config });
      const sent = upstream.requests.map((r) => r.headers.authorization);
      expect(sent.length).toBeGreaterThan(0);
      expect(new Set(sent)).toEqual(new Set([`Bearer ${SERVICE}`]));
      const refused = (() => {
        try {
          checkSharing({ up: config }, { tokens: TWO, signedIn: new Set(["up"]) });
        } catch (error) {
          return error;
        }
      })();
      expect(refused).toBeInstanceOf(SharedCredentialsError);
      expect((refused as Error).message).toMatch(/^"up" \(a stored OAuth sign-in\) carries credentials of its own/);
      // Said shared, or one caller: it passes.
      checkSharing({ up: config }, { tokens: TWO, signedIn: new Set(["up"]), credentials: { up: { mode: "shared" } } });
      checkSharing({ up: config }, { signedIn: new Set(["up"]) });
    } finally {
      await manager.disconnectAll();
    }
  });

  it("createGateway (the library, no signedIn given) looks the sign-in up itself: several callers get no call through it unless the config says shared", async () => {
    for (const credentials of [undefined, { up: { mode: "shared" as const } }]) {
      const store = new MemoryTokenStore();
      await signIn(store);
      const manager = new MCPManager({ cache: false, oauth: { store } });
      await manager.connectServers({ up: { type: "http", url: upstream.url } });
      const warnings: string[] = [];
      const gateway = createGateway(manager, { tokens: TWO, credentials, warn: (m) => warnings.push(m) });
      const app = createServer((req, res) => void gateway.handle(req, res));
      await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/mcp`;
      try {
        const before = upstream.requests.filter((r) => r.headers["mcp-method"] === "tools/call").length;
        // The very first request: it waits for the look-up instead of finding the server missing or served.
        const answer = (await (await callAdd(url, [...TWO.keys()][0], 4, 5)).json()) as {
          result?: { content: { text: string }[] };
          error?: { message: string };
        };
        const calls = upstream.requests.filter((r) => r.headers["mcp-method"] === "tools/call").length - before;
        if (credentials) {
          expect(answer.result?.content[0]?.text).toBe("9");
          expect(calls).toBe(1);
          expect(warnings.filter((w) => w.includes('"up"'))).toEqual([]);
        } else {
          expect(answer.error?.message).toMatch(/up__add/);
          expect(calls).toBe(0);
          expect(warnings.filter((w) => w.includes('"up" (a stored OAuth sign-in) carries credentials'))).toHaveLength(
            1,
          );
        }
      } finally {
        app.closeAllConnections();
        await new Promise<void>((resolve) => app.close(() => resolve()));
        await gateway.close();
        await manager.disconnectAll();
      }
    }
  });
});
