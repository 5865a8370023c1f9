// Opaque access tokens introspected at a real OpenID provider (oidc-provider, on loopback, RFC 7662):
// an active token reaches the upstream tool, an inactive or foreign one does not, a revocation is
// seen on the next request once the answer is no longer kept, and an issuer that cannot answer
// is a 503, never a pass.
import { startIdp, startV2HttpServer, type TestIdp, type V2HttpServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { looksLikeJwt } from "../src/introspection.js";
import { oidcAuthenticate } from "../src/index.js";
import { callAdd, oidcGateway, type OidcGateway } from "./oidc-helpers.js";

const gatewayClient = { clientId: "gateway", clientSecret: "gateway-secret-0123456789" };

describe("opaque access tokens, introspected at the issuer (RFC 7662)", () => {
  let idp: TestIdp;
  let upstream: V2HttpServer;
  let fresh: OidcGateway; // asks the issuer on every request
  let cached: OidcGateway; // keeps an active answer (the default)
  const calls = (): number => upstream.requests.filter((r) => r.body.includes('"method":"tools/call"')).length;

  beforeAll(async () => {
    [idp, upstream] = await Promise.all([
      startIdp({ clients: ["alice", "bob", "narrow", "gateway"], opaque: true }),
      startV2HttpServer({ legacy: "reject" }),
    ]);
    fresh = await oidcGateway(upstream.url, (origin) => ({
      oidc: {
        issuer: idp.issuer,
        audience: `${origin}/mcp`,
        requiredScopes: ["mcp:tools"],
        introspection: { ...gatewayClient, cacheMs: 0 },
      },
    }));
    cached = await oidcGateway(upstream.url, (origin) => ({
      oidc: { issuer: idp.issuer, audience: `${origin}/mcp`, introspection: gatewayClient },
    }));
  }, 60_000);

  afterAll(async () => {
    await Promise.all([fresh?.stop(), cached?.stop()]);
    await Promise.all([idp?.stop(), upstream?.stop()]);
  });

  it("lets an active opaque token reach the tool, without passing it upstream", async () => {
    const token = await idp.clientToken("alice", fresh.url, "mcp:tools");
    expect(looksLikeJwt(token)).toBe(false);
    const asked = idp.introspections;
    const before = upstream.requests.length;
    const response = await callAdd(fresh.url, token, 20, 22);
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('"text":"42"');
    expect(idp.introspections).toBe(asked + 1);
    const sent = upstream.requests.slice(before);
    expect(sent.filter((r) => r.body.includes('"method":"tools/call"'))).toHaveLength(1);
    expect(sent.filter((r) => r.headers.authorization !== undefined || r.body.includes(token))).toEqual([]);
  });

  it("refuses a revoked token on the very next request when nothing is kept (cacheMs 0)", async () => {
    const token = await idp.clientToken("bob", fresh.url, "mcp:tools");
    expect((await callAdd(fresh.url, token)).status).toBe(200);
    await idp.revoke("bob", token);
    const before = calls();
    const response = await callAdd(fresh.url, token);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(
      /^Bearer error="invalid_token", error_description="The access token is not active"/,
    );
    expect(calls()).toBe(before);
    // Inactive is never kept: asked again, refused again.
    const asked = idp.introspections;
    expect((await callAdd(fresh.url, token)).status).toBe(401);
    expect(idp.introspections).toBe(asked + 1);
  });

  it("keeps an active answer (default cacheMs): the issuer is asked once, and a revocation is seen only when the entry ends", async () => {
    const token = await idp.clientToken("bob", cached.url, "mcp:tools");
    const asked = idp.introspections;
    expect((await callAdd(cached.url, token)).status).toBe(200);
    expect((await callAdd(cached.url, token)).status).toBe(200);
    expect(idp.introspections).toBe(asked + 1);
    await idp.revoke("bob", token);
    // The documented delay: the kept answer still lets the token in.
    expect((await callAdd(cached.url, token)).status).toBe(200);
    expect(idp.introspections).toBe(asked + 1);
  });

  it("refuses a token for another audience, and one without the required scope", async () => {
    const before = calls();
    const foreign = await idp.clientToken("alice", "http://127.0.0.1:9/elsewhere", "mcp:tools");
    const response = await callAdd(fresh.url, foreign);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(
      /^Bearer error="invalid_token", error_description="The access token's .*aud.* does not name this resource"/,
    );
    const narrow = await idp.clientToken("narrow", fresh.url, "mcp:admin");
    const refused = await callAdd(fresh.url, narrow);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope"/);
    expect(calls()).toBe(before);
  });

  it("refuses a made-up opaque token", async () => {
    expect((await callAdd(fresh.url, "not-a-token-the-issuer-issued-0123456789")).status).toBe(401);
  });

  it("refuses with 503 when the gateway's own credentials are wrong (the token is not at fault)", async () => {
    const auth = oidcAuthenticate({
      issuer: idp.issuer,
      audience: fresh.url,
      introspection: { clientId: "gateway", clientSecret: "wrong-secret-0123456789" },
    });
    const token = await idp.clientToken("alice", fresh.url, "mcp:tools");
    await expect(auth.authenticate({ headers: { authorization: `Bearer ${token}` } } as never)).rejects.toMatchObject({
      status: 503,
    });
  });
});

describe("an introspection endpoint that cannot answer", () => {
  it("is a 503, not a pass, and nothing reaches the upstream", async () => {
    const [idp, upstream] = await Promise.all([
      startIdp({ clients: ["alice", "gateway"], opaque: true }),
      startV2HttpServer({ legacy: "reject" }),
    ]);
    const front = await oidcGateway(upstream.url, (origin) => ({
      oidc: { issuer: idp.issuer, audience: `${origin}/mcp`, introspection: gatewayClient },
    }));
    try {
      const first = await idp.clientToken("alice", front.url, "mcp:tools");
      const second = await idp.clientToken("alice", front.url, "mcp:tools");
      expect((await callAdd(front.url, first)).status).toBe(200); // the metadata is read now
      await idp.stop();
      const before = upstream.requests.filter((r) => r.body.includes('"method":"tools/call"')).length;
      const response = await callAdd(front.url, second);
      expect(response.status).toBe(503);
      expect(upstream.requests.filter((r) => r.body.includes('"method":"tools/call"')).length).toBe(before);
    } finally {
      await front.stop();
      await Promise.all([idp.stop(), upstream.stop()]);
    }
  }, 60_000);
});

describe("introspection options", () => {
  it("are checked when the gateway is made", () => {
    expect(() =>
      oidcAuthenticate({
        issuer: "http://127.0.0.1:1",
        audience: "http://127.0.0.1:2/mcp",
        introspection: { clientId: "", clientSecret: "x" },
      }),
    ).toThrow(/clientId and clientSecret/);
    expect(() =>
      oidcAuthenticate({
        issuer: "http://127.0.0.1:1",
        audience: "http://127.0.0.1:2/mcp",
        introspection: { clientId: "g", clientSecret: "x", cacheMs: -1 },
      }),
    ).toThrow(/cacheMs/);
  });
});
