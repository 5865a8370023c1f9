// Helpers shared by the provider's tests: fixtures stopped after each test, a provider for one,
// and what the HTTP transport does with an auth provider.
import { afterEach } from "vitest";
import { OAuthProvider, followRedirectAuthorize, type OAuthProviderOptions } from "../src/index.js";
import { startAuthFixture, type AuthFixture, type AuthFixtureOptions } from "./fixture.js";

const fixtures: AuthFixture[] = [];
afterEach(async () => {
  for (const f of fixtures.splice(0)) await f.stop();
});

/** A fixture stopped after the test. */
export async function fixture(options: AuthFixtureOptions = {}): Promise<AuthFixture> {
  const f = await startAuthFixture(options);
  fixtures.push(f);
  return f;
}

export function provider(f: AuthFixture, options: Partial<OAuthProviderOptions> = {}): OAuthProvider {
  return new OAuthProvider({
    serverUrl: f.mcpUrl,
    redirectUri: "http://127.0.0.1:1/callback",
    authorize: followRedirectAuthorize(),
    ...options,
  });
}

/** What the HTTP transport does with an auth provider: headers for the request, and up to 3 retries after onUnauthorized. */
export async function call(p: OAuthProvider, url: string, id = 1): Promise<{ status: number; body: unknown }> {
  for (let retries = 0; ; retries++) {
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" });
    const sent = await p.headers({ method: "POST", url, body });
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...sent },
      body,
    });
    const header = (name: string): string | undefined => response.headers.get(name) ?? undefined;
    if (
      response.status === 401 &&
      retries < 3 &&
      (await p.onUnauthorized({
        url,
        status: 401,
        wwwAuthenticate: header("www-authenticate"),
        sent,
        attempt: retries,
        header,
      }))
    )
      continue;
    return { status: response.status, body: await response.json() };
  }
}
