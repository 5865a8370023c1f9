import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  FileTokenStore,
  MemoryTokenStore,
  OAuthError,
  createPkce,
  followRedirectAuthorize,
  metadataUrls,
  parseBearerChallenge,
} from "../src/index.js";
import { call, fixture, provider } from "./helpers.js";

describe("pieces", () => {
  it("reads Bearer challenges: quoted and bare values, escapes, other schemes", () => {
    expect(
      parseBearerChallenge('Bearer resource_metadata="https://a.example/prm", scope="files:read files:write"'),
    ).toEqual({
      resourceMetadata: "https://a.example/prm",
      scope: "files:read files:write",
      error: undefined,
      errorDescription: undefined,
    });
    expect(parseBearerChallenge('Basic realm="x", Bearer error=insufficient_scope, scope="a \\"b\\""')).toMatchObject({
      error: "insufficient_scope",
      scope: 'a "b"',
    });
    expect(parseBearerChallenge('Bearer scope="a", Basic realm="other"')).toMatchObject({ scope: "a" });
    expect(parseBearerChallenge('Basic realm="x"')).toEqual({});
    expect(parseBearerChallenge(undefined)).toEqual({});
  });

  it("PKCE: a 43-character verifier and its S256 challenge (WebCrypto, checked against node:crypto)", async () => {
    const { verifier, challenge, method } = await createPkce();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).toBe(createHash("sha256").update(verifier).digest("base64url"));
    expect(method).toBe("S256");
    expect((await createPkce()).verifier).not.toBe(verifier);
  });

  it("authorization server metadata URLs in the spec's order, with and without a path", () => {
    expect(metadataUrls("https://auth.example.com/tenant1")).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
      "https://auth.example.com/.well-known/openid-configuration/tenant1",
      "https://auth.example.com/tenant1/.well-known/openid-configuration",
    ]);
    expect(metadataUrls("https://auth.example.com")).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server",
      "https://auth.example.com/.well-known/openid-configuration",
    ]);
  });
});

describe("the flow", () => {
  it("401 → discovery → registration → authorization code with PKCE, state and resource → token → retried request", async () => {
    const f = await fixture({ scopesSupported: ["mcp:read"] });
    const p = provider(f);
    await expect(call(p, f.mcpUrl)).resolves.toMatchObject({ status: 200, body: { result: { ok: true } } });
    const as = f.log.filter((l) => l.server === "as").map((l) => `${l.method} ${l.path}`);
    expect(as).toEqual([
      "GET /.well-known/oauth-authorization-server",
      "POST /register",
      "GET /authorize",
      "POST /token",
    ]);
    const authorize = f.log.find((l) => l.path === "/authorize")!.query;
    expect(authorize.get("code_challenge_method")).toBe("S256");
    expect(authorize.get("resource")).toBe(f.mcpUrl);
    expect(authorize.get("scope")).toBe("mcp:read");
    expect(authorize.get("state")?.length).toBeGreaterThan(20);
    const token = f.log.find((l) => l.path === "/token")!;
    expect(token.form.get("resource")).toBe(f.mcpUrl);
    expect(token.headers.authorization).toBe(
      `Basic ${Buffer.from("registered-client:registered-secret").toString("base64")}`,
    );
    // The next request carries the token without another flow.
    await expect(call(p, f.mcpUrl)).resolves.toMatchObject({ status: 200 });
    expect(f.log.filter((l) => l.path === "/token")).toHaveLength(1);
  });

  it("a token endpoint that redirects is not followed: the code, its verifier and the client's secret go nowhere else", async () => {
    const seen: string[] = [];
    const elsewhere = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ access_token: "planted", token_type: "Bearer" }));
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    try {
      const steal = `http://127.0.0.1:${(elsewhere.address() as { port: number }).port}/steal`;
      const f = await fixture({ tokenRedirect: steal });
      const error = await call(provider(f), f.mcpUrl).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OAuthError);
      expect(error).toMatchObject({
        step: "token",
        status: 307,
        message: `The token endpoint ${f.asUrl}/token answered with a redirect to ${steal}, which is not followed: the request carries credentials`,
      });
      expect(seen).toEqual([]);
    } finally {
      elsewhere.closeAllConnections();
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    }
  });

  it("sends the metadata's resource exactly as published: a pathless origin gets no trailing slash; tokens are stored under the server's URL", async () => {
    const f = await fixture({ prm: "root", resource: (origin) => origin });
    const store = new MemoryTokenStore();
    await expect(call(provider(f, { store }), f.mcpUrl)).resolves.toMatchObject({ status: 200 });
    const origin = new URL(f.mcpUrl).origin;
    expect(f.log.find((l) => l.path === "/authorize")!.query.get("resource")).toBe(origin);
    expect(f.log.find((l) => l.path === "/token")!.form.get("resource")).toBe(origin);
    // A new provider (the next run) finds the tokens by the server's URL: no second flow.
    await expect(call(provider(f, { store }), f.mcpUrl)).resolves.toMatchObject({ status: 200 });
    expect(f.log.filter((l) => l.path === "/token")).toHaveLength(1);
  });

  it("finds the metadata from the challenge's URL, the path-based well-known URL, then the root one", async () => {
    for (const prm of ["header", "path", "root"] as const) {
      const f = await fixture({ prm });
      await expect(call(provider(f), f.mcpUrl)).resolves.toMatchObject({ status: 200 });
      const asked = f.log.filter((l) => l.server === "mcp" && l.method === "GET").map((l) => l.path);
      expect(asked, prm).toEqual(
        prm === "header"
          ? ["/custom-prm"]
          : prm === "path"
            ? ["/.well-known/oauth-protected-resource/mcp"]
            : ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"],
      );
    }
  });

  it("a 2025-03-26 server (no resource metadata) uses the metadata at its root", async () => {
    const f = await fixture({ prm: "none" });
    // Here the MCP server and the AS are different origins, so the root metadata is not found
    // and the default endpoints of the MCP server's origin are tried: that fails, by design.
    const error = await call(provider(f), f.mcpUrl).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect(f.log.filter((l) => l.server === "mcp" && l.method === "GET").map((l) => l.path)).toEqual([
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-authorization-server",
      "/.well-known/openid-configuration",
    ]);
  });

  it("refuses metadata that names another issuer, and resource metadata for another resource", async () => {
    const wrongIssuer = await fixture({ claimedIssuer: "http://127.0.0.1:9/elsewhere" });
    await expect(call(provider(wrongIssuer), wrongIssuer.mcpUrl)).rejects.toMatchObject({
      name: "OAuthError",
      step: "metadata",
      message: expect.stringContaining("names issuer") as string,
    });
    const wrongResource = await fixture({ resource: "http://127.0.0.1:9/other" });
    await expect(call(provider(wrongResource), wrongResource.mcpUrl)).rejects.toMatchObject({
      name: "OAuthError",
      step: "discovery",
      message: expect.stringContaining("refusing to authorize") as string,
    });
    expect(wrongResource.log.some((l) => l.path === "/authorize")).toBe(false);
  });

  it("checks the iss parameter exactly when the server sends or promises it", async () => {
    const good = await fixture({ issSupported: true, issParameter: "correct" });
    await expect(call(provider(good), good.mcpUrl)).resolves.toMatchObject({ status: 200 });
    const wrong = await fixture({ issParameter: "wrong" });
    await expect(call(provider(wrong), wrong.mcpUrl)).rejects.toMatchObject({
      step: "authorization",
      message: expect.stringContaining("issuer") as string,
    });
    const missing = await fixture({ issSupported: true, issParameter: "omit" });
    await expect(call(provider(missing), missing.mcpUrl)).rejects.toMatchObject({ step: "authorization" });
    for (const f of [wrong, missing]) expect(f.log.some((l) => l.path === "/token")).toBe(false);
  });

  it("a state that comes back changed is refused", async () => {
    const f = await fixture();
    const p = provider(f, {
      authorize: async (request) => ({ ...(await followRedirectAuthorize()(request)), state: "forged" }),
    });
    await expect(call(p, f.mcpUrl)).rejects.toMatchObject({
      step: "authorization",
      message: expect.stringContaining("state") as string,
    });
  });

  it("asks for offline_access when the server offers it, and the challenge's scope over scopes_supported", async () => {
    const f = await fixture({ scopesSupported: ["mcp:read", "offline_access"], challengeScope: "mcp:write" });
    await call(provider(f), f.mcpUrl);
    expect(f.log.find((l) => l.path === "/authorize")!.query.get("scope")).toBe("mcp:write offline_access");
  });
});

describe("refresh", () => {
  it("an expiring token is refreshed once for concurrent callers", async () => {
    const f = await fixture({ expiresIn: 1 }); // inside the 60 s margin at once
    const p = provider(f);
    await call(p, f.mcpUrl);
    const results = await Promise.all([call(p, f.mcpUrl, 2), call(p, f.mcpUrl, 3), call(p, f.mcpUrl, 4)]);
    for (const r of results) expect(r.status).toBe(200);
    const grants = f.log.filter((l) => l.path === "/token").map((l) => l.form.get("grant_type"));
    expect(grants.filter((g) => g === "refresh_token").length).toBeGreaterThanOrEqual(1);
    // Each refresh happened for a different token: never two for the same one.
    const refreshed = f.log
      .filter((l) => l.form.get("grant_type") === "refresh_token")
      .map((l) => l.form.get("refresh_token"));
    expect(new Set(refreshed).size).toBe(refreshed.length);
  });

  it("a token the server revoked: one refresh shared by concurrent 401s, then the requests succeed", async () => {
    const f = await fixture();
    const p = provider(f);
    await call(p, f.mcpUrl);
    f.valid.clear(); // revoked
    const results = await Promise.all([call(p, f.mcpUrl, 2), call(p, f.mcpUrl, 3)]);
    for (const r of results) expect(r.status).toBe(200);
    expect(f.log.filter((l) => l.form.get("grant_type") === "refresh_token")).toHaveLength(1);
    expect(f.log.filter((l) => l.path === "/authorize")).toHaveLength(1);
  });
});

describe("concurrency", () => {
  it("callers that all start without a token share one flow", async () => {
    const f = await fixture();
    const p = provider(f);
    const results = await Promise.all([1, 2, 3, 4].map((id) => call(p, f.mcpUrl, id)));
    for (const r of results) expect(r.status).toBe(200);
    expect(f.log.filter((l) => l.path === "/authorize")).toHaveLength(1);
    expect(f.log.filter((l) => l.path === "/register")).toHaveLength(1);
  });
});

describe("limits", () => {
  it("a server that refuses every token gets one flow per request, not a loop", async () => {
    const f = await fixture({ refuseAll: true });
    await expect(call(provider(f), f.mcpUrl)).resolves.toMatchObject({ status: 401 });
    expect(f.log.filter((l) => l.path === "/authorize")).toHaveLength(1);
  });
});

describe("storage", () => {
  it("a file per issuer and server, mode 600 in a 700 directory, written atomically; tokens never printed", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "mcp-oauth-")), "tokens");
    try {
      const f = await fixture();
      const p = provider(f, { store: new FileTokenStore(dir) });
      await call(p, f.mcpUrl);
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^[0-9a-f]{32}\.json$/);
      expect(statSync(join(dir, files[0]!)).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      // A second provider (a new process) finds the token and needs no flow.
      const again = provider(f, { store: new FileTokenStore(dir) });
      await expect(call(again, f.mcpUrl, 2)).resolves.toMatchObject({ status: 200 });
      expect(f.log.filter((l) => l.path === "/authorize")).toHaveLength(1);
      const token = [...f.valid][0]!;
      for (const shown of [inspect(p, { depth: 5 }), JSON.stringify(p), inspect(new MemoryTokenStore())])
        expect(shown).not.toContain(token);
      // A corrupt file counts as absent.
      writeFileSync(join(dir, files[0]!), "{ not json");
      await expect(new FileTokenStore(dir).find(f.mcpUrl)).resolves.toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
