// Workload Identity Federation (the `workload_identity` grant, RFC 7523) against fixture.ts. The
// conformance suite's auth/wif-jwt-bearer scenario is the real peer (scripts/conformance.mjs).
import { describe, expect, it } from "vitest";
import { OAuthError } from "../src/index.js";
import { call, fixture, provider } from "./helpers.js";

const jwt = (claims: object): string => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;

describe("the workload_identity grant", () => {
  it("the workload's JWT is the grant: no registration, no user step, no client id; a fresh JWT is read for each flow", async () => {
    const f = await fixture({});
    let reads = 0;
    const p = provider(f, {
      grant: "workload_identity",
      workloadIdentity: { token: () => (reads++, jwt({ sub: "workload" })) },
    });
    await expect(call(p, f.mcpUrl)).resolves.toMatchObject({ status: 200 });
    expect(f.log.filter((l) => l.server === "as").map((l) => `${l.method} ${l.path}`)).toEqual([
      "GET /.well-known/oauth-authorization-server",
      "POST /token",
    ]);
    const token = f.log.find((l) => l.path === "/token")!.form;
    expect(Object.fromEntries(token)).toEqual({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: jwt({ sub: "workload" }),
      resource: f.mcpUrl,
    });
    expect(reads).toBe(1);
    // The token is refused later (revoked): the next flow reads the JWT again.
    f.valid.clear();
    await expect(call(p, f.mcpUrl, 2)).resolves.toMatchObject({ status: 200 });
    expect(reads).toBe(2);
  });

  it("a refused JWT is an OAuthError with the server's error, after one token request and nothing else", async () => {
    const f = await fixture({});
    const error = await call(
      provider(f, { grant: "workload_identity", workloadIdentity: { token: jwt({ sub: "stranger" }) } }),
      f.mcpUrl,
    ).catch((e: unknown) => e);
    expect(OAuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      step: "token",
      oauthError: "invalid_grant",
      oauthErrorDescription: "untrusted workload",
    });
    expect(f.log.filter((l) => l.server === "as").map((l) => l.path)).toEqual([
      "/.well-known/oauth-authorization-server",
      "/token",
    ]);
  });

  it("no token, or something that is not a JWT, says what to configure", async () => {
    const f = await fixture({});
    await expect(call(provider(f, { grant: "workload_identity" }), f.mcpUrl)).rejects.toThrow(
      "The workload_identity grant needs workloadIdentity.token (the workload's JWT, or a function that reads it)",
    );
    await expect(
      call(provider(f, { grant: "workload_identity", workloadIdentity: { token: "not a jwt" } }), f.mcpUrl),
    ).rejects.toThrow("workloadIdentity.token did not give a JWT (three dot-separated parts)");
    expect(f.log.filter((l) => l.path === "/token")).toEqual([]);
  });
});
