// Provider profiles: detected from the issuer, chosen by name, and applied by the flow as data
// (no `resource`, the endpoints of a provider without metadata, `.default` scopes, extra parameters).
import { describe, expect, it } from "vitest";
import {
  OAuthError,
  OAuthProvider,
  PROVIDER_PROFILES,
  authorizationServerFor,
  followRedirectAuthorize,
  profileFor,
  type ProviderProfile,
} from "../src/index.js";
import { call, fixture, provider } from "./helpers.js";

describe("detection", () => {
  it("each built-in profile is found from its provider's issuer", () => {
    const issuers: Record<string, string> = {
      entra: "https://login.microsoftonline.com/0f1e2d3c-aaaa-bbbb-cccc-000000000000/v2.0",
      cognito: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123",
      okta: "https://acme.okta.com/oauth2/default",
      auth0: "https://acme.eu.auth0.com/",
      keycloak: "https://sso.acme.example/realms/staff",
      google: "https://accounts.google.com",
      github: "https://github.com/login/oauth",
    };
    expect(PROVIDER_PROFILES.map((p) => p.name).sort()).toEqual(Object.keys(issuers).sort());
    for (const [name, issuer] of Object.entries(issuers)) expect(profileFor(issuer, undefined)?.name).toBe(name);
    expect(profileFor("https://as.acme.example", undefined)).toBeUndefined();
    expect(profileFor(issuers["entra"]!, false)).toBeUndefined();
    expect(profileFor("https://as.acme.example", "okta")?.name).toBe("okta");
  });

  it("an unknown profile name is refused when the provider is made, naming the known ones", () => {
    expect(() => new OAuthProvider({ serverUrl: "http://127.0.0.1:1/mcp", profile: "azure" })).toThrow(OAuthError);
    expect(() => new OAuthProvider({ serverUrl: "http://127.0.0.1:1/mcp", profile: "azure" })).toThrow(
      /Unknown OAuth provider profile "azure" \(known: entra, cognito, okta, auth0, keycloak, google, github\)/,
    );
  });
});

describe("discovery with a profile", () => {
  it("a v1 Entra issuer is moved to v2, found at its OpenID discovery URL, and PKCE S256 filled in (Entra's metadata omits it)", async () => {
    // Entra is not on loopback: a stand-in that answers only where Entra publishes its document, no network.
    const asked: string[] = [];
    const v2 = "https://login.microsoftonline.com/contoso-tenant/v2.0";
    const stand = (input: string): Promise<Response> => {
      asked.push(input);
      if (input !== `${v2}/.well-known/openid-configuration`) return Promise.resolve(new Response("", { status: 404 }));
      return Promise.resolve(
        Response.json({
          issuer: v2,
          authorization_endpoint: `${v2}/authorize`,
          token_endpoint: `${v2}/token`,
          scopes_supported: ["openid", "offline_access"],
        }),
      );
    };
    const found = await authorizationServerFor(stand, "https://sts.windows.net/contoso-tenant/");
    expect(found.profile?.name).toBe("entra");
    expect(found.issuer).toBe(v2);
    expect(found.metadata.code_challenge_methods_supported).toEqual(["S256"]);
    expect(found.metadata.registration_endpoint).toBeUndefined();
    expect(asked).toEqual([
      `https://login.microsoftonline.com/.well-known/oauth-authorization-server/contoso-tenant/v2.0`,
      `https://login.microsoftonline.com/.well-known/openid-configuration/contoso-tenant/v2.0`,
      `${v2}/.well-known/openid-configuration`,
    ]);
  });
});

describe("applied by the flow", () => {
  it("resourceParameter: false sends no resource, to the authorization or the token endpoint; defaultScopes and authorizationParams are added", async () => {
    const f = await fixture();
    const profile: ProviderProfile = {
      name: "like-entra",
      title: "Like Entra",
      issuers: [],
      resourceParameter: false,
      defaultScopes: ["{resource}/.default"],
      authorizationParams: { audience: "{resource}" },
      registration: "register by hand",
    };
    await expect(call(provider(f, { profile }), f.mcpUrl)).resolves.toMatchObject({ status: 200 });
    const authorize = f.log.find((l) => l.path === "/authorize")!.query;
    expect(authorize.has("resource")).toBe(false);
    expect(authorize.get("scope")).toBe(`${f.mcpUrl}/.default`);
    expect(authorize.get("audience")).toBe(f.mcpUrl);
    expect(f.log.find((l) => l.path === "/token")!.form.has("resource")).toBe(false);
  });

  it("without a profile the same server gets resource on both requests (the default is unchanged)", async () => {
    const f = await fixture();
    await expect(call(provider(f), f.mcpUrl)).resolves.toMatchObject({ status: 200 });
    expect(f.log.find((l) => l.path === "/authorize")!.query.get("resource")).toBe(f.mcpUrl);
    expect(f.log.find((l) => l.path === "/token")!.form.get("resource")).toBe(f.mcpUrl);
  });

  it("a provider without a metadata document (GitHub's case) signs in with the profile's endpoints", async () => {
    const f = await fixture({ asMetadata: false });
    // Without the profile: the flow stops at the missing metadata.
    await expect(call(provider(f, { profile: false }), f.mcpUrl)).rejects.toThrow(/publishes no metadata/);
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
    const before = f.log.length;
    const p = new OAuthProvider({
      serverUrl: f.mcpUrl,
      redirectUri: "http://127.0.0.1:1/callback",
      authorize: followRedirectAuthorize(),
      clientId: "app-1",
      clientSecret: "app-secret",
      profile,
    });
    await expect(call(p, f.mcpUrl)).resolves.toMatchObject({ status: 200 });
    // No metadata request: only the user step and the token request reach the authorization server.
    expect(
      f.log
        .slice(before)
        .filter((l) => l.server === "as")
        .map((l) => l.path),
    ).toEqual(["/authorize", "/token"]);
  });

  it("metadataDefaults fills a field the provider leaves out; no registration gives the profile's advice", async () => {
    const f = await fixture();
    const profile: ProviderProfile = {
      name: "no-dcr",
      title: "No DCR",
      issuers: [],
      metadata: { authorization_endpoint: `${f.asUrl}/authorize`, token_endpoint: `${f.asUrl}/token` },
      metadataDefaults: { code_challenge_methods_supported: ["S256"] },
      registration: "register an application and set oauth.clientId",
    };
    await expect(call(provider(f, { profile }), f.mcpUrl)).rejects.toThrow(
      "offers no way to register this client (no Client ID Metadata Document support, no registration_endpoint); register an application and set oauth.clientId",
    );
  });
});
