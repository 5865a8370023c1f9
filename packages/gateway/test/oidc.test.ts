// The gateway as an OAuth protected resource: JWT access tokens of a real OpenID provider
// (oidc-provider, on loopback) reach the upstream; every bad token is refused with the status and
// challenge the MCP authorization spec says, and nothing of it reaches the upstream (an SDK v2
// server that records every request it gets). Static tokens keep working beside the issuer's.
import { importJWK, SignJWT } from "jose";
import { signingKey, startIdp, startV2HttpServer, type TestIdp, type V2HttpServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callAdd, oidcGateway, type OidcGateway } from "./oidc-helpers.js";

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("the gateway as an OAuth protected resource (a real OpenID provider on loopback)", () => {
  let idp: TestIdp;
  let other: TestIdp;
  let upstream: V2HttpServer;
  let front: OidcGateway;
  const calls = (): number => upstream.requests.filter((r) => r.body.includes('"method":"tools/call"')).length;
  /** Signs `claims` with the IdP's own key (or `key`), as the IdP would, for the cases it will not make. */
  const sign = async (claims: Record<string, unknown>, key: Record<string, unknown> & { kid: string; alg: string } = idp.key): Promise<string> =>
    new SignJWT({ scope: "mcp:tools", ...claims }).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "at+jwt" }).sign(await importJWK(key, key.alg));

  beforeAll(async () => {
    [idp, other, upstream] = await Promise.all([startIdp({ clients: ["alice", "bob", "narrow"] }), startIdp({ clients: ["alice"] }), startV2HttpServer({ legacy: "reject" })]);
    front = await oidcGateway(upstream.url, (origin) => ({
      oidc: { issuer: idp.issuer, audience: `${origin}/mcp`, requiredScopes: ["mcp:tools"], keysCooldownMs: 60_000 },
      tokens: new Map([["machine-token-0123456789", { id: "machine", name: "machine" }]]),
    }));
  }, 60_000);

  afterAll(async () => {
    await front?.stop();
    await Promise.all([idp?.stop(), other?.stop(), upstream?.stop()]);
  });

  it("serves its protected resource metadata (RFC 9728) at the well-known place, under its path too", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const response = await fetch(`${front.origin}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ resource: front.url, authorization_servers: [idp.issuer], bearer_methods_supported: ["header"], scopes_supported: ["mcp:tools"] });
    }
  });

  it("answers a request with no token 401 naming its metadata and scope", async () => {
    const response = await callAdd(front.url, undefined);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${front.origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`);
  });

  it("lets an IdP's token for this resource reach the tool, without passing the token upstream", async () => {
    const token = await idp.clientToken("alice", front.url, "mcp:tools");
    const before = upstream.requests.length;
    const response = await callAdd(front.url, token, 20, 22);
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('"text":"42"');
    const sent = upstream.requests.slice(before);
    expect(sent.filter((r) => r.body.includes('"method":"tools/call"'))).toHaveLength(1);
    // The spec forbids token passthrough: the upstream sees none of the caller's credentials.
    expect(sent.filter((r) => r.headers.authorization !== undefined || r.body.includes(token))).toEqual([]);
  });

  it("keeps the static tokens working beside the issuer's", async () => {
    expect((await callAdd(front.url, "machine-token-0123456789")).status).toBe(200);
  });

  it.each([
    ["another audience", async () => idp.clientToken("alice", "http://127.0.0.1:9/elsewhere", "mcp:tools"), /aud/],
    ["expired (past the leeway)", async () => sign({ iss: idp.issuer, aud: front.url, sub: "alice", iat: Math.floor(Date.now() / 1000) - 600, exp: Math.floor(Date.now() / 1000) - 120 }), /exp/],
    ["not yet valid (past the leeway)", async () => sign({ iss: idp.issuer, aud: front.url, sub: "alice", nbf: Math.floor(Date.now() / 1000) + 300, exp: Math.floor(Date.now() / 1000) + 600 }), /nbf/],
    ["another issuer (a second real IdP)", async () => other.clientToken("alice", front.url, "mcp:tools"), /no applicable key|matching key|kid/i],
    ["another issuer's name on this issuer's key", async () => sign({ iss: other.issuer, aud: front.url, sub: "alice", exp: Math.floor(Date.now() / 1000) + 300 }), /iss/],
    ["an unknown key id", async () => sign({ iss: idp.issuer, aud: front.url, sub: "alice", exp: Math.floor(Date.now() / 1000) + 300 }, signingKey("ES256")), /no applicable key|matching key|kid/i],
    ["alg none", async () => `${b64({ alg: "none", typ: "JWT" })}.${b64({ iss: idp.issuer, aud: front.url, sub: "alice", scope: "mcp:tools", exp: Math.floor(Date.now() / 1000) + 300 })}.`, /alg|JWS/i],
    [
      "HS256 signed with the issuer's public key",
      async () => {
        const { d: _d, ...pub } = idp.key;
        const secret = Buffer.from(JSON.stringify(pub));
        return new SignJWT({ iss: idp.issuer, aud: front.url, sub: "alice", scope: "mcp:tools" }).setProtectedHeader({ alg: "HS256", kid: idp.key.kid }).setExpirationTime("5m").sign(secret);
      },
      /alg/i,
    ],
    [
      "a tampered payload",
      async () => {
        const [head, , sig] = (await idp.clientToken("alice", front.url, "mcp:tools")).split(".");
        return `${head}.${b64({ iss: idp.issuer, aud: front.url, sub: "admin", scope: "mcp:tools", exp: Math.floor(Date.now() / 1000) + 300 })}.${sig}`;
      },
      /signature/i,
    ],
  ] as const)("refuses a token for %s: 401 invalid_token, nothing upstream", async (_case, make, why) => {
    const token = await make();
    const before = calls();
    const response = await callAdd(front.url, token);
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]*", resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp", scope="mcp:tools"$/);
    expect(challenge).toMatch(why);
    expect(calls()).toBe(before);
  });

  it("refuses a valid token without the required scope: 403 insufficient_scope, nothing upstream", async () => {
    const token = await idp.clientToken("narrow", front.url, "mcp:admin");
    const before = calls();
    const response = await callAdd(front.url, token);
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="mcp:tools", error_description="the scope mcp:tools is required", resource_metadata="/);
    expect(calls()).toBe(before);
  });

  it("fetches the issuer's keys once, and not again for every unknown key id (a cool-down)", async () => {
    const fetched = idp.keyFetches;
    for (let i = 0; i < 5; i++) {
      const token = await sign({ iss: idp.issuer, aud: front.url, sub: "alice", exp: Math.floor(Date.now() / 1000) + 300 }, signingKey("ES256"));
      expect((await callAdd(front.url, token)).status).toBe(401);
    }
    expect((await callAdd(front.url, await idp.clientToken("bob", front.url, "mcp:tools"))).status).toBe(200);
    // At most one fetch for the five unknown keys (the first may fall past the cool-down), none for the known one.
    expect(idp.keyFetches - fetched).toBeLessThanOrEqual(1);
  });
});

describe("claim rules: a token's claims choose its caller's lists", () => {
  let idp: TestIdp;
  let upstream: V2HttpServer;
  let front: OidcGateway;

  beforeAll(async () => {
    [idp, upstream] = await Promise.all([startIdp({ clients: ["ops", "reader", "stranger"], scopes: ["mcp:tools", "mcp:admin", "mcp:read"] }), startV2HttpServer({ legacy: "reject" })]);
    front = await oidcGateway(upstream.url, (origin) => ({
      oidc: {
        issuer: idp.issuer,
        audience: `${origin}/mcp`,
        rules: [
          { claim: "scope", value: "mcp:admin", caller: { name: "admins" } },
          { claim: "scope", value: "mcp:read", caller: { name: "readers", deny: ["up__add"] } },
        ],
      },
    }));
  }, 60_000);

  afterAll(async () => {
    await front?.stop();
    await Promise.all([idp?.stop(), upstream?.stop()]);
  });

  it("gives the first matching rule's caller, and refuses a token no rule matches (403)", async () => {
    const admin = await callAdd(front.url, await idp.clientToken("ops", front.url, "mcp:tools mcp:admin"));
    expect(admin.status).toBe(200);
    expect(JSON.stringify(await admin.json())).toContain('"text":"5"');
    const reader = await callAdd(front.url, await idp.clientToken("reader", front.url, "mcp:read"));
    expect(JSON.stringify(await reader.json())).not.toContain('"text":"5"');
    const stranger = await callAdd(front.url, await idp.clientToken("stranger", front.url, "mcp:tools"));
    expect(stranger.status).toBe(403);
    expect(stranger.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  });
});
