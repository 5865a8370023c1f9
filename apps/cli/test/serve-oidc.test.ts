// `mcp serve --oidc-issuer`: people sign in through the organization's identity provider (a real
// oidc-provider on loopback); their access tokens choose their callers by claim rules of the
// callers file, beside a machine's static token; each user's traffic stays that user's (the trust
// property of serve-trust.test.ts, with JWT callers); probes and metrics answer.
import { connectToServer, disconnectServer, listTools } from "@mcp/client";
import { authorizationResponseOf, MemoryTokenStore, OAuthProvider } from "@mcp/oauth";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { freePort, startIdp, type TestIdp } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcp, sandbox } from "./helpers.js";
import { startHttpServe, type HttpServe } from "./serve-helpers.js";
import { caller2025, caller2026, probeBox, trafficProperty, type ProbeBox, type TrustCaller } from "./trust-helpers.js";

const PEOPLE = ["alice", "bob", "carol", "dave"] as const;

describe("mcp serve --oidc-issuer: sign-in through the organization's identity provider", () => {
  let idp: TestIdp;
  let probes: ProbeBox;
  let serve: HttpServe;
  let origin: string;
  let callers: TrustCaller[];

  beforeAll(async () => {
    [idp, probes] = await Promise.all([
      startIdp({ clients: [...PEOPLE, "intern"], scopes: ["mcp:tools", "mcp:read"] }),
      probeBox(),
    ]);
    const file = probes.box.write(`${probes.box.project}/callers.json`, {
      machine: { token: "machine-token-0123456789" },
      // Read-only people may not call the probe on the 2025 stdio upstream.
      readers: { claim: { scope: "mcp:read" }, deny: ["p1s__*"] },
      people: { claim: { scope: "mcp:tools" } },
    });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    serve = await startHttpServe(probes.box, [
      "--port",
      String(port),
      "--callers",
      file,
      "--oidc-issuer",
      idp.issuer,
      "--required-scope",
      "mcp:tools",
      "--metrics",
    ]);
    callers = await Promise.all(
      PEOPLE.map(async (name, i) =>
        (i % 2 === 0 ? caller2025 : caller2026)(name, serve.url, await idp.clientToken(name, serve.url, "mcp:tools")),
      ),
    );
  }, 90_000);

  afterAll(async () => {
    await Promise.all((callers ?? []).map((c) => c.close()));
    await serve?.stop();
    await Promise.all([probes?.stop(), idp?.stop()]);
  });

  it("serves its protected resource metadata and answers a request without a token 401 pointing at it", async () => {
    expect(serve.token).toBe("");
    expect(await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()).toEqual({
      resource: serve.url,
      authorization_servers: [idp.issuer],
      bearer_methods_supported: ["header"],
      scopes_supported: ["mcp:tools"],
    });
    const response = await fetch(serve.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`,
    );
  });

  it("as a property: random interleavings of calls by four signed-in people of both eras; each sees only its own", async () => {
    await trafficProperty(callers, 6);
    expect(serve.stderr()).not.toMatch(/Warning/);
  }, 300_000);

  it("gives a token the lists of the first claim rule it matches, and keeps the machine's static token working", async () => {
    const reader = await caller2026(
      "intern",
      serve.url,
      await idp.clientToken("intern", serve.url, "mcp:tools mcp:read"),
    );
    const machine = await caller2026("machine", serve.url, "machine-token-0123456789");
    try {
      // "readers" comes first in the file: the intern is one, whatever else its token holds.
      expect((await reader.list()).filter((t) => t.startsWith("p1s__"))).toEqual([]);
      expect(await machine.list()).toEqual(expect.arrayContaining(["p1s__probe", "p2h__probe"]));
    } finally {
      await Promise.all([reader.close(), machine.close()]);
    }
  });

  it("lets our own @mcp/oauth client sign a person in end to end and reach the tools (401, metadata, registration, code + PKCE)", async () => {
    const signIns: string[] = [];
    const authProvider = new OAuthProvider({
      serverUrl: serve.url,
      redirectUri: "http://127.0.0.1:9/callback",
      store: new MemoryTokenStore(),
      // The person's part, at the IdP's own login and consent pages.
      authorize: async (request) => {
        signIns.push(request.url.origin);
        return authorizationResponseOf(await idp.signIn("erin")(request.url));
      },
    });
    const conn = await connectToServer("gateway", { type: "http", url: serve.url, authProvider });
    try {
      expect(signIns).toEqual([idp.issuer]);
      expect((await listTools(conn)).map((t) => t.name)).toEqual(expect.arrayContaining(["p1s__probe", "p2h__probe"]));
    } finally {
      await disconnectServer(conn);
    }
  });

  it("signs in for one server's endpoint too: the metadata's resource (/mcp) covers /mcp/<server>, and the token names it", async () => {
    const url = `${serve.url}/p2h`;
    const authProvider = new OAuthProvider({
      serverUrl: url,
      redirectUri: "http://127.0.0.1:9/callback",
      store: new MemoryTokenStore(),
      authorize: async (request) => authorizationResponseOf(await idp.signIn("frank")(request.url)),
    });
    const conn = await connectToServer("p2h", { type: "http", url, authProvider });
    try {
      expect((await listTools(conn)).map((t) => t.name)).toContain("probe");
    } finally {
      await disconnectServer(conn);
    }
  });

  it("lets the official SDK 1.x client sign a person in end to end with its own OAuth (its redirect, then finishAuth) and call a tool", async () => {
    let code: string | undefined;
    const saved: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string } = {};
    const provider: OAuthClientProvider = {
      redirectUrl: "http://127.0.0.1:9/callback",
      clientMetadata: {
        client_name: "sdk-1x",
        redirect_uris: ["http://127.0.0.1:9/callback"],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
      clientInformation: () => saved.client,
      saveClientInformation: (info) => void (saved.client = info),
      tokens: () => saved.tokens,
      saveTokens: (tokens) => void (saved.tokens = tokens),
      // The browser's part, at the IdP's own pages: the code comes back on the redirect.
      redirectToAuthorization: async (url) =>
        void (code = (await idp.signIn("grace")(url)).searchParams.get("code") ?? undefined),
      saveCodeVerifier: (verifier) => void (saved.verifier = verifier),
      codeVerifier: () => saved.verifier!,
    };
    const first = new Http1(new URL(serve.url), { authProvider: provider });
    await expect(new Client1({ name: "sdk-1x", version: "1" }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(code).toBeDefined();
    await first.finishAuth(code!);
    const client = new Client1({ name: "sdk-1x", version: "1" });
    await client.connect(new Http1(new URL(serve.url), { authProvider: provider }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(["p1s__probe", "p2h__probe"]),
      );
    } finally {
      await client.close();
    }
  });

  it("answers /healthz, /readyz and (to loopback) /metrics", async () => {
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    expect((await fetch(`${origin}/readyz`)).status).toBe(200);
    const metrics = await (await fetch(`${origin}/metrics`)).text();
    expect(metrics).toMatch(
      /^mcp_gateway_requests_total\{method="tools\/call",decision="allowed",outcome="ok"\} [1-9]\d*$/m,
    );
    expect(metrics).toContain('mcp_gateway_upstream_state{server="p2h",state="connected"} 1');
  });
});

describe("mcp serve --introspection-client: the issuer's opaque access tokens, introspected (RFC 7662)", () => {
  let idp: TestIdp;
  let probes: ProbeBox;
  let serve: HttpServe;

  beforeAll(async () => {
    [idp, probes] = await Promise.all([startIdp({ clients: ["alice", "gateway"], opaque: true }), probeBox()]);
    const port = await freePort();
    // The secret comes from the environment variable named, never from the command line.
    serve = await startHttpServe(
      probes.box,
      [
        "--port",
        String(port),
        "--oidc-issuer",
        idp.issuer,
        "--introspection-client",
        "gateway",
        "--introspection-secret-env",
        "GW_SECRET",
      ],
      { GW_SECRET: idp.client("gateway").secret },
    );
  }, 90_000);

  afterAll(async () => {
    await serve?.stop();
    await Promise.all([probes?.stop(), idp?.stop()]);
  });

  it("lets an opaque token the issuer says is active list the tools, and refuses one it never issued", async () => {
    const token = await idp.clientToken("alice", serve.url, "mcp:tools");
    expect(token.split(".")).toHaveLength(1);
    const asked = idp.introspections;
    const alice = await caller2026("alice", serve.url, token);
    try {
      expect(await alice.list()).toEqual(expect.arrayContaining(["p1s__probe", "p2h__probe"]));
    } finally {
      await alice.close();
    }
    expect(idp.introspections).toBeGreaterThan(asked);
    const made = await fetch(serve.url, {
      method: "POST",
      headers: {
        authorization: "Bearer made-up-opaque-token-0123456789",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: "{}",
    });
    expect(made.status).toBe(401);
  });
});

describe("mcp serve --oidc-issuer: what it refuses to start with (exit 2)", () => {
  it.each([
    [["--http", "--oidc-issuer", "http://127.0.0.1:1"], /--oidc-issuer needs --audience/],
    [["--http", "--oidc-issuer", "http://idp.example.com", "--port", "1"], /must be https \(http only on loopback\)/],
    [
      ["--http", "--audience", "http://127.0.0.1:1/mcp"],
      /--audience, --required-scope and --introspection-client go with --oidc-issuer/,
    ],
    [["--stdio", "--metrics"], /--oidc-issuer and --metrics go with --http/],
    [["--http", "--callers", "CLAIMS"], /callers chosen by a "claim" need --oidc-issuer/],
    [
      ["--http", "--oidc-issuer", "http://127.0.0.1:1", "--port", "1", "--introspection-client", "gw"],
      /--introspection-client gw needs its secret in \$MCP_INTROSPECTION_SECRET/,
    ],
    [["--http", "--introspection-client", "gw"], /--introspection-client go with --oidc-issuer/],
  ])("mcp serve %j", async (args, message) => {
    const box = sandbox();
    try {
      const file = box.write(`${box.project}/callers.json`, { readers: { claim: { scope: "mcp:read" } } });
      const result = await mcp(box, ["serve", ...args.map((a) => (a === "CLAIMS" ? file : a))]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
    } finally {
      box.remove();
    }
  });
});
