// `diagnoseAuthorization` against real authorization servers on loopback: the official SDK's, and
// oidc-provider (a certified OpenID provider) switched to mimic each provider quirk, each failure
// diagnosed by the step's name. Also: nothing secret in the report or the trace.
import { afterEach, describe, expect, it } from "vitest";
import { startOidcServer, startSdkOAuthServer, type OidcServer, type OidcServerOptions } from "mcp-test-utils";
import {
  authorizationResponseOf,
  diagnoseAuthorization,
  type DoctorReport,
  type DoctorTraceEntry,
  type ProviderProfile,
} from "../src/index.js";
import { fixture } from "./helpers.js";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function oidc(options: OidcServerOptions = {}): Promise<OidcServer> {
  const server = await startOidcServer(options);
  stops.push(() => server.stop());
  return server;
}

/** The doctor with the provider's login and consent completed, as a user in a browser would. */
function diagnoseWithUser(
  server: OidcServer,
  options: Parameters<typeof diagnoseAuthorization>[1] = {},
): Promise<DoctorReport> {
  return diagnoseAuthorization(server.mcpUrl, {
    authorize: async (request) => authorizationResponseOf(await server.approve(request.url.href)),
    ...options,
  });
}

const statusOf = (report: DoctorReport, name: string): string | undefined =>
  report.steps.find((s) => s.step === name)?.status;
const stepOf = (report: DoctorReport, name: string) => report.steps.find((s) => s.step === name)!;
const failed = (report: DoctorReport): string[] => report.steps.filter((s) => s.status === "fail").map((s) => s.step);

const ALL_STEPS = [
  "challenge",
  "resource-metadata",
  "authorization-server-metadata",
  "profile",
  "clock",
  "pkce",
  "client-identification",
  "token-endpoint-auth",
  "signing-algorithms",
  "scopes",
  "authorization-request",
  "resource-indicator",
  "iss",
  "token",
  "refresh",
  "dpop",
  "token-accepted",
];

describe("a sign-in that works", () => {
  it("the official SDK's authorization server: every step passes or is skipped, through to a token the MCP server takes", async () => {
    const server = await startSdkOAuthServer();
    stops.push(() => server.stop());
    const report = await diagnoseAuthorization(server.url);
    expect(report.steps.map((s) => s.step)).toEqual(ALL_STEPS);
    expect(failed(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(statusOf(report, "client-identification")).toBe("pass");
    expect(statusOf(report, "token")).toBe("pass");
    expect(statusOf(report, "token-accepted")).toBe("pass");
    for (const s of report.steps) expect(s.clause.length).toBeGreaterThan(5);
  });

  it("oidc-provider with a user step: the redirect's iss, the token, its refresh and the MCP server's acceptance all pass", async () => {
    const server = await oidc();
    const report = await diagnoseWithUser(server);
    expect(failed(report)).toEqual([]);
    expect(
      Object.fromEntries(
        ["iss", "token", "refresh", "resource-indicator", "token-accepted"].map((name) => [
          name,
          statusOf(report, name),
        ]),
      ),
    ).toEqual({ iss: "pass", token: "pass", refresh: "pass", "resource-indicator": "pass", "token-accepted": "pass" });
  });

  it("without a user step, oidc-provider's login page leaves iss and the token skipped, not failed", async () => {
    const report = await diagnoseAuthorization((await oidc()).mcpUrl);
    expect(report.ok).toBe(true);
    expect(stepOf(report, "authorization-request")).toMatchObject({ status: "pass", detail: "HTTP 303" });
    expect([statusOf(report, "iss"), statusOf(report, "token")]).toEqual(["skip", "skip"]);
  });
});

describe("each failure class, diagnosed by name (oidc-provider mimicking a provider's quirk)", () => {
  it("no dynamic registration: client-identification fails and asks for a client id", async () => {
    const report = await diagnoseWithUser(await oidc({ registration: false }));
    expect(failed(report)).toEqual(["client-identification"]);
    expect(stepOf(report, "client-identification").advice).toMatch(/configure a client id/);
  });

  it("no dynamic registration, with a pre-registered client configured: the sign-in works", async () => {
    const clients = [
      {
        client_id: "desk-app",
        client_secret: "desk-secret-value",
        redirect_uris: ["http://127.0.0.1:33418/callback"],
        grant_types: ["authorization_code", "refresh_token"],
      },
    ];
    const report = await diagnoseWithUser(await oidc({ registration: false, clients }), {
      clientId: "desk-app",
      clientSecret: "desk-secret-value",
    });
    expect(failed(report)).toEqual([]);
    expect(stepOf(report, "client-identification").advice).toBe("A pre-registered client id is configured");
    expect(JSON.stringify(report)).not.toContain("desk-secret-value");
  });

  it("resource refused (Entra ID since March 2026): resource-indicator fails with invalid_target and points at the profile", async () => {
    const report = await diagnoseWithUser(await oidc({ resource: "refuse" }));
    expect(stepOf(report, "resource-indicator")).toMatchObject({
      status: "fail",
      detail: expect.stringContaining("invalid_target"),
    });
    expect(stepOf(report, "resource-indicator").advice).toContain('profile: "entra"');
  });

  it("no iss in the redirect while the metadata promises it: iss fails", async () => {
    const report = await diagnoseWithUser(await oidc({ iss: false }));
    expect(failed(report)).toEqual(["iss"]);
  });

  it("HS256 only: signing-algorithms warns for ID tokens, and fails for a private_key_jwt client", async () => {
    const server = await oidc({ signing: "HS256" });
    expect(stepOf(await diagnoseAuthorization(server.mcpUrl, { register: false }), "signing-algorithms")).toMatchObject(
      { status: "warn", detail: "id_token_signing_alg_values_supported: HS256" },
    );
    const report = await diagnoseAuthorization(server.mcpUrl, {
      clientId: "jwt-client",
      tokenEndpointAuthMethod: "private_key_jwt",
    });
    expect(stepOf(report, "signing-algorithms")).toMatchObject({
      status: "fail",
      detail: "token_endpoint_auth_signing_alg_values_supported: HS256",
    });
  });

  it("the authorization server's clock 5 minutes off: clock fails, saying by how much", async () => {
    const report = await diagnoseWithUser(await oidc({ clockSkewMs: 5 * 60_000 }));
    expect(failed(report)).toEqual(["clock"]);
    expect(stepOf(report, "clock").detail).toMatch(/clock off by (299|300|301) s: .* ahead of this machine/);
  });

  it("protected resource metadata only at the root: resource-metadata warns, and the sign-in still works", async () => {
    const report = await diagnoseWithUser(await oidc({ prm: "root" }));
    expect(stepOf(report, "resource-metadata")).toMatchObject({
      status: "warn",
      detail: expect.stringContaining("metadata only at the root"),
    });
    expect(report.ok).toBe(true);
    expect(statusOf(report, "token-accepted")).toBe("pass");
  });
});

describe("other failure classes (the hand-made fixture, for what no real server does on demand)", () => {
  it("no authorization server metadata (GitHub's case): the metadata step fails, and passes with a profile that gives the endpoints", async () => {
    const f = await fixture({ asMetadata: false });
    const without = await diagnoseAuthorization(f.mcpUrl, { profile: false });
    expect(failed(without)).toEqual(["authorization-server-metadata"]);
    expect(stepOf(without, "token").advice).toBe("Not reached: discovery failed");
    const profile: ProviderProfile = {
      name: "like-github",
      title: "Like GitHub",
      issuers: [],
      metadata: {
        authorization_endpoint: `${f.asUrl}/authorize`,
        token_endpoint: `${f.asUrl}/token`,
        code_challenge_methods_supported: ["S256"],
      },
      registration: "create an OAuth app",
    };
    const report = await diagnoseAuthorization(f.mcpUrl, { profile, clientId: "app", clientSecret: "app-secret" });
    expect(stepOf(report, "authorization-server-metadata").advice).toBe(
      "Like GitHub publishes no metadata: its endpoints come from the like-github profile",
    );
    expect(stepOf(report, "profile")).toMatchObject({
      status: "pass",
      advice: expect.stringContaining("chosen in the config"),
    });
    expect(failed(report)).toEqual([]);
  });

  it("no PKCE S256 in the metadata (Cognito's and Entra's documents omit it): pkce fails; a profile's metadataDefaults fills it in", async () => {
    const f = await fixture({ asMetadata: false });
    const endpoints = { authorization_endpoint: `${f.asUrl}/authorize`, token_endpoint: `${f.asUrl}/token` };
    const without = await diagnoseAuthorization(f.mcpUrl, {
      clientId: "app",
      profile: { name: "bare", title: "Bare", issuers: [], metadata: endpoints, registration: "-" },
    });
    expect(stepOf(without, "pkce")).toMatchObject({
      status: "fail",
      detail: "code_challenge_methods_supported is missing",
    });
    const filled = await diagnoseAuthorization(f.mcpUrl, {
      clientId: "app",
      profile: {
        name: "filled",
        title: "Filled",
        issuers: [],
        metadata: endpoints,
        metadataDefaults: { code_challenge_methods_supported: ["S256"] },
        registration: "-",
      },
    });
    expect(statusOf(filled, "pkce")).toBe("pass");
  });

  it("a token endpoint auth method the server does not list: token-endpoint-auth fails naming the ones it does", async () => {
    const f = await fixture();
    const report = await diagnoseAuthorization(f.mcpUrl, {
      clientId: "app",
      clientSecret: "app-secret",
      tokenEndpointAuthMethod: "client_secret_post",
    });
    expect(stepOf(report, "token-endpoint-auth")).toMatchObject({
      status: "fail",
      detail: "supported: client_secret_basic, none",
    });
  });

  it("DPoP: both servers offering it with ES256 passes; a DPoP-only server whose authorization server lists no ES256 fails", async () => {
    const f = await fixture({ dpop: {} });
    expect(stepOf(await diagnoseAuthorization(f.mcpUrl, { register: false }), "dpop")).toMatchObject({
      status: "pass",
      detail: "dpop_signing_alg_values_supported: ES256",
    });
    // The same servers, the metadata's algorithms changed on the way (no server here lists another algorithm).
    const rs256Only = async (input: string, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, init);
      if (!input.endsWith("/.well-known/oauth-authorization-server")) return response;
      return Response.json({ ...((await response.json()) as object), dpop_signing_alg_values_supported: ["RS256"] });
    };
    const report = await diagnoseAuthorization(f.mcpUrl, { register: false, fetch: rs256Only });
    expect(stepOf(report, "dpop")).toMatchObject({
      status: "fail",
      advice: expect.stringContaining("the MCP server takes DPoP tokens only"),
    });
  });

  it("metadata the challenge names at a URL of its own is reported there", async () => {
    const f = await fixture({ prm: "header" });
    const report = await diagnoseAuthorization(f.mcpUrl);
    expect(stepOf(report, "resource-metadata")).toMatchObject({
      status: "pass",
      advice: `Found at ${new URL(f.mcpUrl).origin}/custom-prm`,
    });
  });

  it("a server that cannot be reached: challenge fails, every other step is skipped", async () => {
    const f = await fixture();
    const url = f.mcpUrl;
    await f.stop();
    const report = await diagnoseAuthorization(url, { timeoutMs: 5000 });
    expect(report.ok).toBe(false);
    expect(report.steps.map((s) => `${s.step}:${s.status}`)).toEqual(
      ALL_STEPS.map((name) => `${name}:${name === "challenge" ? "fail" : "skip"}`),
    );
  });

  it("neither the report nor the trace holds a code, verifier, token or secret", async () => {
    const f = await fixture({ scopesSupported: ["mcp:read"] });
    const trace: DoctorTraceEntry[] = [];
    const report = await diagnoseAuthorization(f.mcpUrl, { trace: (entry) => trace.push(entry) });
    expect(report.ok).toBe(true);
    expect(trace.map((t) => `${t.method} ${new URL(t.url).pathname} ${t.status}`)).toContain("POST /token 200");
    const text = JSON.stringify({ report, trace });
    for (const secret of ["registered-secret", "access-", "refresh-", "code-1", "Basic "])
      expect(text).not.toContain(secret);
    // Redacted, not dropped: the trace still shows what was sent.
    expect(trace.find((t) => t.url.endsWith("/token"))?.requestBody).toMatch(
      /^grant_type=authorization_code&code=%5Bredacted%5D&/,
    );
    expect(trace.find((t) => t.url.endsWith("/token"))?.requestHeaders["authorization"]).toBe("[redacted]");
  });
});
