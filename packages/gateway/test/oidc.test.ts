// The gateway as an OAuth protected resource: JWT access tokens of a real OpenID provider
// (oidc-provider, on loopback) reach the upstream; every bad token is refused with the status and
// challenge the MCP authorization spec says, and nothing of it reaches the upstream (an SDK v2
// server that records every request it gets). Static tokens keep working beside the issuer's.
import { importJWK, SignJWT } from "jose";
import { signingKey, startIdp, startV2HttpServer, type TestIdp, type V2HttpServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { IncomingMessage } from "node:http";
import { oidcAuthenticate, oidcCallerId, parseCallers, parseClaimRules } from "../src/index.js";
import { callAdd, oidcGateway, type OidcGateway } from "./oidc-helpers.js";

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("the gateway as an OAuth protected resource (a real OpenID provider on loopback)", () => {
  let idp: TestIdp;
  let other: TestIdp;
  let upstream: V2HttpServer;
  let front: OidcGateway;
  const calls = (): number => upstream.requests.filter((r) => r.body.includes('"method":"tools/call"')).length;
  /** Signs `claims` with the IdP's own key (or `key`), as the IdP would, for the cases it will not make. */
  const sign = async (
    claims: Record<string, unknown>,
    key: Record<string, unknown> & { kid: string; alg: string } = idp.key,
  ): Promise<string> =>
    new SignJWT({ scope: "mcp:tools", ...claims })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "at+jwt" })
      .sign(await importJWK(key, key.alg));

  beforeAll(async () => {
    [idp, other, upstream] = await Promise.all([
      startIdp({ clients: ["alice", "bob", "narrow"] }),
      startIdp({ clients: ["alice"] }),
      startV2HttpServer({ legacy: "reject" }),
    ]);
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
      expect(await response.json()).toEqual({
        resource: front.url,
        authorization_servers: [idp.issuer],
        bearer_methods_supported: ["header"],
        scopes_supported: ["mcp:tools"],
      });
    }
  });

  it("answers a request with no token 401 naming its metadata and scope", async () => {
    const response = await callAdd(front.url, undefined);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${front.origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`,
    );
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
    [
      "expired (past the leeway)",
      async () =>
        sign({
          iss: idp.issuer,
          aud: front.url,
          sub: "alice",
          iat: Math.floor(Date.now() / 1000) - 600,
          exp: Math.floor(Date.now() / 1000) - 120,
        }),
      /exp/,
    ],
    [
      "not yet valid (past the leeway)",
      async () =>
        sign({
          iss: idp.issuer,
          aud: front.url,
          sub: "alice",
          nbf: Math.floor(Date.now() / 1000) + 300,
          exp: Math.floor(Date.now() / 1000) + 600,
        }),
      /nbf/,
    ],
    [
      "another issuer (a second real IdP)",
      async () => other.clientToken("alice", front.url, "mcp:tools"),
      /no applicable key|matching key|kid/i,
    ],
    [
      "another issuer's name on this issuer's key",
      async () => sign({ iss: other.issuer, aud: front.url, sub: "alice", exp: Math.floor(Date.now() / 1000) + 300 }),
      /iss/,
    ],
    [
      "an unknown key id",
      async () =>
        sign(
          { iss: idp.issuer, aud: front.url, sub: "alice", exp: Math.floor(Date.now() / 1000) + 300 },
          signingKey("ES256"),
        ),
      /no applicable key|matching key|kid/i,
    ],
    [
      "alg none",
      async () =>
        `${b64({ alg: "none", typ: "JWT" })}.${b64({ iss: idp.issuer, aud: front.url, sub: "alice", scope: "mcp:tools", exp: Math.floor(Date.now() / 1000) + 300 })}.`,
      /alg|JWS/i,
    ],
    [
      "HS256 signed with the issuer's public key",
      async () => {
        const { d: _d, ...pub } = idp.key;
        const secret = Buffer.from(JSON.stringify(pub));
        return new SignJWT({ iss: idp.issuer, aud: front.url, sub: "alice", scope: "mcp:tools" })
          .setProtectedHeader({ alg: "HS256", kid: idp.key.kid })
          .setExpirationTime("5m")
          .sign(secret);
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
    expect(challenge).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]*", resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp", scope="mcp:tools"$/,
    );
    expect(challenge).toMatch(why);
    expect(calls()).toBe(before);
  });

  it("refuses a valid token without the required scope: 403 insufficient_scope, nothing upstream", async () => {
    const token = await idp.clientToken("narrow", front.url, "mcp:admin");
    const before = calls();
    const response = await callAdd(front.url, token);
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toMatch(
      /^Bearer error="insufficient_scope", scope="mcp:tools", error_description="the scope mcp:tools is required", resource_metadata="/,
    );
    expect(calls()).toBe(before);
  });

  it("fetches the issuer's keys once, and not again for every unknown key id (a cool-down)", async () => {
    const fetched = idp.keyFetches;
    for (let i = 0; i < 5; i++) {
      const token = await sign(
        { iss: idp.issuer, aud: front.url, sub: "alice", exp: Math.floor(Date.now() / 1000) + 300 },
        signingKey("ES256"),
      );
      expect((await callAdd(front.url, token)).status).toBe(401);
    }
    expect((await callAdd(front.url, await idp.clientToken("bob", front.url, "mcp:tools"))).status).toBe(200);
    // At most one fetch for the five unknown keys (the first may fall past the cool-down), none for the known one.
    expect(idp.keyFetches - fetched).toBeLessThanOrEqual(1);
  });
});

describe("a key rotation at the issuer", () => {
  let idp: TestIdp;
  let upstream: V2HttpServer;
  let front: OidcGateway;

  beforeAll(async () => {
    [idp, upstream] = await Promise.all([startIdp({ clients: ["alice"] }), startV2HttpServer({ legacy: "reject" })]);
    front = await oidcGateway(upstream.url, (origin) => ({
      oidc: { issuer: idp.issuer, audience: `${origin}/mcp`, keysCooldownMs: 0 },
    }));
  }, 60_000);

  afterAll(async () => {
    await front?.stop();
    await Promise.all([idp?.stop(), upstream?.stop()]);
  });

  it("is followed: a token of the new key fetches the keys again, and the old key still works while it is published", async () => {
    const before = await idp.clientToken("alice", front.url);
    expect((await callAdd(front.url, before)).status).toBe(200);
    const fetched = idp.keyFetches;
    const old = idp.key;
    expect(idp.rotate().kid).not.toBe(old.kid);
    const after = await idp.clientToken("alice", front.url);
    expect(JSON.parse(Buffer.from(after.split(".")[0]!, "base64url").toString())).toMatchObject({ kid: idp.key.kid });
    expect((await callAdd(front.url, after)).status).toBe(200);
    expect(idp.keyFetches).toBe(fetched + 1);
    // A token the old key signs now (not one remembered): its key is still in the set fetched.
    const byOld = await new SignJWT({ scope: "mcp:tools" })
      .setProtectedHeader({ alg: old.alg, kid: old.kid })
      .setIssuer(idp.issuer)
      .setAudience(front.url)
      .setSubject("alice")
      .setExpirationTime("5m")
      .sign(await importJWK(old, old.alg));
    expect((await callAdd(front.url, byOld)).status).toBe(200);
    expect(idp.keyFetches).toBe(fetched + 1);
  });
});

describe("a token checked once is remembered until it expires, not after", () => {
  let idp: TestIdp;
  afterAll(() => idp?.stop());

  it("accepts it again from memory, and refuses it once past its exp (and the leeway)", async () => {
    idp = await startIdp({ clients: ["alice"] });
    const resource = "http://127.0.0.1:1/mcp";
    const auth = oidcAuthenticate({ issuer: idp.issuer, audience: resource, clockToleranceSeconds: 5 });
    const request = {
      headers: { authorization: `Bearer ${await idp.clientToken("alice", resource)}` },
    } as IncomingMessage;
    const caller = await auth.authenticate(request);
    expect(caller).toMatchObject({ name: "oidc:alice", id: oidcCallerId(idp.issuer, "alice") });
    expect(await auth.authenticate(request)).toBe(caller);
    const exp = (
      JSON.parse(Buffer.from(request.headers.authorization!.split(".")[1]!, "base64url").toString()) as { exp: number }
    ).exp;
    vi.useFakeTimers({ toFake: ["Date"], now: (exp + 6) * 1000 });
    try {
      await expect(auth.authenticate(request)).rejects.toMatchObject({
        code: "invalid_token",
        status: 401,
        message: expect.stringMatching(/exp/),
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("claim rules: a token's claims choose its caller's lists", () => {
  let idp: TestIdp;
  let upstream: V2HttpServer;
  let front: OidcGateway;

  beforeAll(async () => {
    [idp, upstream] = await Promise.all([
      startIdp({ clients: ["ops", "reader", "stranger"], scopes: ["mcp:tools", "mcp:admin", "mcp:read"] }),
      startV2HttpServer({ legacy: "reject" }),
    ]);
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
    // No scope would help: no challenge a client would retry with.
    expect(stranger.headers.get("www-authenticate")).toBeNull();
    expect(JSON.stringify(await stranger.json())).toContain(
      'No caller rule matches the access token of \\"stranger\\"',
    );
  });
});

describe("parseClaimRules: callers chosen by their token's claims, in a callers file", () => {
  const file = JSON.stringify({
    machine: { token: "machine-token-0123456789" },
    admins: { claim: { groups: "admins" }, rate: "100/min" },
    readers: { claim: { scope: "mcp:read" }, deny: ["up__add"], view: "support" },
  });

  it("reads the claim entries in the order written, and parseCallers the token entries only", () => {
    expect(parseClaimRules(file, "callers.json")).toEqual([
      {
        claim: "groups",
        value: "admins",
        caller: {
          name: "admins",
          allow: undefined,
          deny: undefined,
          rates: [{ pattern: "*", perSecond: 100 / 60, burst: 100, text: "100/min" }],
        },
      },
      {
        claim: "scope",
        value: "mcp:read",
        caller: { name: "readers", allow: undefined, deny: ["up__add"], view: "support" },
      },
    ]);
    expect([...parseCallers(file, "callers.json").values()].map((c) => c.name)).toEqual(["machine"]);
  });

  it.each([
    [{ x: { claim: "groups" } }, "x.claim", /"claim" must name one claim/],
    [{ x: { claim: { groups: "a", roles: "b" } } }, "x.claim", /"claim" must name one claim/],
    [{ x: { claim: { groups: 1 } } }, "x.claim", /"claim" must name one claim/],
    [{ x: { claim: { groups: "a" }, deny: "up__add" } }, "x.deny", /"deny" must be an array/],
  ])("refuses %j naming the field", (value, field, message) => {
    let thrown: unknown;
    try {
      parseClaimRules(JSON.stringify(value), "callers.json");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ field, message: expect.stringMatching(message) });
  });

  it("refuses an entry with both a token and a claim", () => {
    expect(() =>
      parseCallers(JSON.stringify({ x: { token: "x-token-0123456789", claim: { groups: "a" } } }), "callers.json"),
    ).toThrow(/a "token" or a "claim", not both/);
  });
});
