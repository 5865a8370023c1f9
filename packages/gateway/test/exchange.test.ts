// Each user's own credentials upstream (RFC 8693 token exchange): callers sign in with opaque
// access tokens of a real OpenID provider (oidc-provider, introspected by the gateway), and an SDK v2
// upstream over HTTP that verifies every bearer token (a JWT of the same provider, for its own
// audience) records whose token each request carried. Two users reach it as two identities, never
// with their own token; a user's token is exchanged once while it lasts (once for concurrent calls
// too); calls of several users interleaved each carry their own user's token; a revoked user is
// refused on the next request.
import { startIdp, startV2HttpServer, type TestIdp, type V2HttpServer } from "mcp-test-utils";
import { InvalidConfigError } from "@mcp/client";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { MCPManager } from "@mcp/manager";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway } from "../src/index.js";
import { callAdd, oidcGateway, type OidcGateway } from "./oidc-helpers.js";

const USERS = ["alice", "bob", "carol", "dave"];

describe("per-user upstream credentials by token exchange", () => {
  let idp: TestIdp;
  let upstream: V2HttpServer;
  let front: OidcGateway;
  /** The upstream's view: an authorization header it accepted → the subject and actor of its token. */
  const verified = new Map<string, { sub: string; act: unknown; aud: unknown }>();
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    idp = await startIdp({
      opaque: true,
      clients: [...USERS, "machine", "upstream-rs"],
      exchange: { clients: ["gateway-x"] },
    });
    const keys = createRemoteJWKSet(new URL(`${idp.issuer}/jwks`));
    const self: { url?: string } = {};
    upstream = await startV2HttpServer({
      legacy: "reject",
      // A resource server of the provider: a JWT for its own audience, or an opaque token the provider says is active for it.
      authorize: async (authorization) => {
        const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
        if (!token) return false;
        if (token.split(".").length === 3) {
          const { payload } = await jwtVerify(token, keys, { issuer: idp.issuer, audience: self.url! }).catch(() => ({
            payload: undefined,
          }));
          if (payload) verified.set(authorization!, { sub: payload.sub!, act: payload["act"], aud: payload.aud });
          return Boolean(payload);
        }
        const rs = idp.client("upstream-rs");
        const answer = (await (
          await fetch(`${idp.issuer}/token/introspection`, {
            method: "POST",
            headers: {
              authorization: `Basic ${Buffer.from(`${rs.id}:${rs.secret}`).toString("base64")}`,
              "content-type": "application/x-www-form-urlencoded",
            },
            body: new URLSearchParams({ token }),
          })
        ).json()) as { active: boolean; aud?: unknown; sub?: string; client_id?: string };
        if (answer.active && answer.aud === self.url)
          verified.set(authorization!, { sub: answer.sub ?? answer.client_id!, act: undefined, aud: answer.aud });
        return answer.active && answer.aud === self.url;
      },
    });
    self.url = upstream.url;
    // The gateway's own connection (its tool list) has a token of its own for the upstream.
    const service = await idp.clientToken("machine", upstream.url);
    const gx = { clientId: "gateway-x", clientSecret: idp.client("gateway-x").secret };
    front = await oidcGateway(
      upstream.url,
      (origin) => ({
        oidc: { issuer: idp.issuer, audience: `${origin}/mcp`, introspection: { ...gx, cacheMs: 0 } },
        tokens: new Map([["static-machine-token-0123456789", { id: "static", name: "static" }]]),
        credentials: { up: { mode: "exchange", ...gx, audience: upstream.url } },
      }),
      { up: { type: "http", url: upstream.url, headers: { authorization: `Bearer ${service}` } } },
    );
    for (const user of USERS) tokens.set(user, await idp.clientToken(user, front.url));
  }, 60_000);

  afterAll(async () => {
    await front?.stop();
    await upstream?.stop();
    await idp?.stop();
  });

  /** The upstream's tools/call requests with argument `a` in `as`: the subject of the token each carried. */
  const subjectsOf = (
    as: readonly number[],
  ): Map<number, { sub: string; act: unknown; aud: unknown; authorization: string }> => {
    const found = new Map<number, { sub: string; act: unknown; aud: unknown; authorization: string }>();
    for (const request of upstream.requests) {
      if (request.headers["mcp-method"] !== "tools/call") continue;
      const a = (JSON.parse(request.body) as { params: { arguments: { a: number } } }).params.arguments.a;
      const seen = verified.get(request.headers.authorization ?? "");
      if (as.includes(a) && seen) found.set(a, { ...seen, authorization: request.headers.authorization! });
    }
    return found;
  };

  const sum = async (response: Response): Promise<string> => {
    const body = (await response.json()) as { result?: { content: { text: string }[] }; error?: { message: string } };
    return body.result?.content[0]?.text ?? `error: ${body.error?.message}`;
  };

  it("two users calling one tool reach the upstream as two identities, never with their own token", async () => {
    expect(await sum(await callAdd(front.url, tokens.get("alice"), 1001, 1))).toBe("1002");
    expect(await sum(await callAdd(front.url, tokens.get("bob"), 1002, 1))).toBe("1003");
    const seen = subjectsOf([1001, 1002]);
    expect(seen.get(1001)).toMatchObject({ sub: "alice", act: { sub: "gateway-x" }, aud: upstream.url });
    expect(seen.get(1002)).toMatchObject({ sub: "bob", act: { sub: "gateway-x" }, aud: upstream.url });
    expect(seen.get(1001)!.authorization).not.toBe(seen.get(1002)!.authorization);
    // No caller's own token ever went upstream.
    const callers = new Set([...tokens.values()].map((t) => `Bearer ${t}`));
    expect(upstream.requests.filter((r) => callers.has(r.headers.authorization ?? ""))).toEqual([]);
  });

  it("keeps a user's exchanged token until it expires, and exchanges once for concurrent calls", async () => {
    const before = idp.exchanges;
    for (let a = 1101; a < 1104; a++)
      expect(await sum(await callAdd(front.url, tokens.get("alice"), a, 1))).toBe(String(a + 1));
    expect(idp.exchanges).toBe(before);
    // carol has no exchanged token yet: five calls at once, one exchange.
    const answers = await Promise.all(
      [1201, 1202, 1203, 1204, 1205].map((a) => callAdd(front.url, tokens.get("carol"), a, 1).then(sum)),
    );
    expect(answers).toEqual(["1202", "1203", "1204", "1205", "1206"]);
    expect(idp.exchanges).toBe(before + 1);
    expect([...subjectsOf([1201, 1202, 1203, 1204, 1205]).values()].map((s) => s.sub)).toEqual([
      "carol",
      "carol",
      "carol",
      "carol",
      "carol",
    ]);
  });

  it("calls of several users interleaved each carry their own user's token (no reuse across users)", async () => {
    // A fixed pseudo-random order of 40 calls by four users, sent 8 at a time.
    let seed = 52;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const calls = Array.from({ length: 40 }, (_, i) => ({ a: 2000 + i, user: USERS[next() % USERS.length]! }));
    for (let i = 0; i < calls.length; i += 8) {
      const batch = calls.slice(i, i + 8);
      expect(await Promise.all(batch.map((c) => callAdd(front.url, tokens.get(c.user), c.a, 1).then(sum)))).toEqual(
        batch.map((c) => String(c.a + 1)),
      );
    }
    const seen = subjectsOf(calls.map((c) => c.a));
    expect(calls.map((c) => seen.get(c.a)?.sub)).toEqual(calls.map((c) => c.user));
    // One exchanged token per user: the same header for all of a user's calls, never another user's.
    const byUser = new Map<string, Set<string>>();
    for (const c of calls)
      (byUser.get(c.user) ?? byUser.set(c.user, new Set()).get(c.user)!).add(seen.get(c.a)!.authorization);
    const all = [...byUser.values()].flatMap((s) => [...s]);
    expect(new Set(all).size).toBe(all.length);
  });

  it("a user whose token is revoked at the issuer is refused on the next request; the others are not", async () => {
    expect(await sum(await callAdd(front.url, tokens.get("dave"), 3001, 1))).toBe("3002");
    await idp.revoke("dave", tokens.get("dave")!);
    const refused = await callAdd(front.url, tokens.get("dave"), 3002, 1);
    expect(refused.status).toBe(401);
    await refused.body?.cancel();
    expect(subjectsOf([3002]).size).toBe(0);
    expect(await sum(await callAdd(front.url, tokens.get("bob"), 3003, 1))).toBe("3004");
  });

  it("a caller of a static token has nothing to exchange: its call to such a server fails, saying why", async () => {
    const answer = await sum(await callAdd(front.url, "static-machine-token-0123456789", 4001, 1));
    expect(answer).toMatch(/did not sign in through the issuer/);
    expect(subjectsOf([4001]).size).toBe(0);
  });

  it("refuses an exchange without an issuer, or without its credentials or audience", () => {
    const manager = new MCPManager({ cache: false });
    const gx = { clientId: "gateway-x", clientSecret: "s" };
    expect(() =>
      createGateway(manager, { credentials: { up: { mode: "exchange", ...gx, audience: "http://up" } } }),
    ).toThrow(InvalidConfigError);
    const oidc = { issuer: "http://127.0.0.1:1", audience: "http://127.0.0.1:2/mcp" };
    expect(() => createGateway(manager, { oidc, credentials: { up: { mode: "exchange", ...gx } } })).toThrow(
      /audience or resource/,
    );
    expect(() =>
      createGateway(manager, {
        oidc,
        credentials: { up: { mode: "exchange", clientId: "", clientSecret: "", audience: "x" } },
      }),
    ).toThrow(/clientId and clientSecret/);
    expect(() => createGateway(manager, { oidc, credentials: { up: { mode: "borrowed" } as never } })).toThrow(
      /"exchange", "consent" or "shared"/,
    );
  });
});
