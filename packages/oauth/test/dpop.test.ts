// DPoP (RFC 9449, the MCP extension io.modelcontextprotocol/auth/dpop) against the hand-made
// servers of fixture.ts, which check every proof. The conformance suite's auth/dpop and
// auth/dpop-nonce scenarios are the real peer (scripts/conformance.mjs).
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DpopKey } from "../src/dpop.js";
import { FileTokenStore, MemoryTokenStore, OAuthError, parseBearerChallenge } from "../src/index.js";
import { checkProof } from "./fixture.js";
import { call, fixture, provider } from "./helpers.js";

describe("proofs", () => {
  it("a proof is signed by the key it names and binds method, URL without query, token and body; each is fresh", async () => {
    const key = await DpopKey.generate();
    const target = { method: "POST", url: "https://mcp.example/mcp?x=1#f", accessToken: "tok", body: '{"a":1}' };
    const [one, two] = [await key.proof(target), await key.proof(target)];
    const checked = checkProof(one, "POST", "https://mcp.example/mcp");
    if (typeof checked === "string") throw new Error(checked);
    expect(checked.claims).toMatchObject({
      ath: createHash("sha256").update("tok").digest("base64url"),
      content_digest: `sha-256=:${createHash("sha256").update('{"a":1}').digest("base64")}:`,
    });
    expect(checked.claims["nonce"]).toBeUndefined();
    expect(checkProof(two, "POST", "https://mcp.example/mcp")).not.toBeTypeOf("string");
    expect(JSON.parse(Buffer.from(one.split(".")[1]!, "base64url").toString()).jti).not.toBe(
      JSON.parse(Buffer.from(two.split(".")[1]!, "base64url").toString()).jti,
    );
    // A token request's proof has neither ath nor content_digest; a nonce goes to its origin only.
    key.setNonce("https://as.example/token", "n-1");
    const tokenProof = checkProof(
      await key.proof({ method: "POST", url: "https://as.example/token" }),
      "POST",
      "https://as.example/token",
    );
    if (typeof tokenProof === "string") throw new Error(tokenProof);
    expect(tokenProof.claims).toMatchObject({ nonce: "n-1" });
    expect(Object.keys(tokenProof.claims)).not.toContain("ath");
    expect(key.nonce("https://mcp.example/mcp")).toBeUndefined();
  });

  it("a stored key that is not a P-256 private key is an OAuthError", async () => {
    await expect(DpopKey.from({ kty: "EC", crv: "P-256", x: "a", y: "b" })).rejects.toThrow(
      "The stored DPoP key is not a P-256 private key",
    );
    const error = await DpopKey.from({ kty: "EC", crv: "P-256", x: "AAAA", y: "AAAA", d: "AAAA" }).catch(
      (e: unknown) => e,
    );
    expect(OAuthError.isInstance(error)).toBe(true);
  });

  it("reads a DPoP challenge, alone or beside a Bearer one", () => {
    expect(
      parseBearerChallenge('DPoP error="use_dpop_nonce", resource_metadata="https://a.example/prm"'),
    ).toMatchObject({ error: "use_dpop_nonce", resourceMetadata: "https://a.example/prm", dpop: true });
    expect(parseBearerChallenge('Bearer scope="a", DPoP algs="ES256 PS256"')).toMatchObject({
      scope: "a",
      dpop: true,
      dpopAlgorithms: ["ES256", "PS256"],
    });
    expect(parseBearerChallenge('Bearer scope="a"').dpop).toBeUndefined();
  });
});

describe("the flow with DPoP", () => {
  it("a server that challenges with DPoP gets a bound token, presented with a fresh proof of each request", async () => {
    const f = await fixture({ dpop: {} });
    const p = provider(f);
    await expect(call(p, f.mcpUrl)).resolves.toMatchObject({ status: 200 });
    await expect(call(p, f.mcpUrl, 2)).resolves.toMatchObject({ status: 200 });
    expect(f.proofErrors).toEqual([]);
    const token = f.log.find((l) => l.path === "/token")!;
    expect(token.headers["dpop"]).toBeDefined();
    const authorized = f.log.filter((l) => l.server === "mcp" && l.headers.authorization !== undefined);
    expect(authorized.map((l) => l.headers.authorization!.split(" ")[0])).toEqual(["DPoP", "DPoP"]);
    expect(new Set(authorized.map((l) => l.headers["dpop"])).size).toBe(2);
    expect(f.bound.size).toBe(1);
  });

  it("nonces: the token endpoint's and the MCP server's use_dpop_nonce are each answered once with the nonce", async () => {
    const f = await fixture({ dpop: { nonce: true } });
    await expect(call(provider(f), f.mcpUrl)).resolves.toMatchObject({ status: 200 });
    expect(f.proofErrors).toEqual([]);
    expect(f.log.filter((l) => l.path === "/token")).toHaveLength(2); // challenged, then with the nonce
    const posts = f.log.filter((l) => l.server === "mcp" && l.method === "POST");
    // No token, the nonce challenge, then accepted: the request is not run until then.
    expect(posts.map((l) => l.headers.authorization?.split(" ")[0])).toEqual([undefined, "DPoP", "DPoP"]);
  });

  it("the key is stored with the tokens: the next run's provider uses it, and refreshes with it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-dpop-"));
    try {
      const f = await fixture({ dpop: {}, expiresIn: 1 });
      await expect(call(provider(f, { store: new FileTokenStore(dir) }), f.mcpUrl)).resolves.toMatchObject({
        status: 200,
      });
      const [first] = [...f.bound.values()];
      // A new provider (the next process): the token expires within the refresh margin, so it refreshes first.
      await expect(call(provider(f, { store: new FileTokenStore(dir) }), f.mcpUrl, 2)).resolves.toMatchObject({
        status: 200,
      });
      // Every token, each refresh's included (the first provider's retry refreshed too), is bound to the first key.
      expect(f.log.filter((l) => l.path === "/token").map((l) => l.form.get("grant_type"))).toEqual([
        "authorization_code",
        "refresh_token",
        "refresh_token",
      ]);
      expect(f.bound.size).toBe(3);
      expect(new Set(f.bound.values())).toEqual(new Set([first]));
      expect(f.proofErrors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a stored key that cannot be used is replaced by a new one at the next flow, not an error on every request", async () => {
    const f = await fixture({ dpop: {} });
    const store = new MemoryTokenStore();
    await expect(call(provider(f, { store }), f.mcpUrl)).resolves.toMatchObject({ status: 200 });
    const stored = (await store.find(f.mcpUrl))!;
    await store.set({ ...stored, dpopKey: { kty: "EC", crv: "P-256", x: "AAAA", y: "AAAA", d: "AAAA" } });
    await expect(call(provider(f, { store }), f.mcpUrl, 2)).resolves.toMatchObject({ status: 200 });
    expect(f.log.filter((l) => l.path === "/token")).toHaveLength(2); // a new flow, with a new key
    expect(new Set(f.bound.values()).size).toBe(2);
  });

  it("dpop: false keeps Bearer; a Bearer challenge does not turn DPoP on; dpop: true needs the server's ES256", async () => {
    for (const [options, fixtureOptions] of [
      [{ dpop: false }, { dpop: {} }],
      [{}, { dpop: { bearerChallenge: true } }],
    ] as const) {
      const f = await fixture(fixtureOptions);
      const plain = provider(f, { ...options, store: new MemoryTokenStore() });
      await expect(call(plain, f.mcpUrl)).resolves.toMatchObject({ status: 200 });
      expect(f.log.find((l) => l.path === "/token")!.headers["dpop"]).toBeUndefined();
      expect(await plain.headers({ method: "POST", url: f.mcpUrl })).toMatchObject({
        authorization: expect.stringMatching(/^Bearer /),
      });
    }

    const bearerOnly = await fixture({});
    const forced = provider(bearerOnly, { dpop: true });
    const error = await call(forced, bearerOnly.mcpUrl).catch((e: unknown) => e);
    expect(OAuthError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /does not offer DPoP with ES256 \(dpop_signing_alg_values_supported\), and the dpop option requires it/,
    );
  });
});
