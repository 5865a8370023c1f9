// The Node-only half behind `#node` and its web stand-ins: the same names, each saying what to use
// instead. The web half in a real browser (popup step, PKCE with WebCrypto, a full sign-in):
// apps/example/test/browser.test.ts.
import { describe, expect, it } from "vitest";
import * as node from "../src/node-only.js";
import { OAuthError, popupAuthorize } from "../src/index.js";
import * as web from "../src/web-only.js";

describe("#node", () => {
  it("the web module has the Node module's names", () => {
    expect(Object.keys(web).sort()).toEqual(Object.keys(node).sort());
  });

  it("each web stand-in throws an OAuthError saying what to use instead", () => {
    const messages = [
      () => new web.FileTokenStore("/tmp/x"),
      () => web.loopbackAuthorize({ port: 1 }),
      () => web.openInBrowser("https://x"),
      () => web.clientAssertion({}, "id", "aud"),
    ].map((f) => {
      try {
        f();
        return "no error";
      } catch (error) {
        expect(error).toBeInstanceOf(OAuthError);
        return (error as Error).message;
      }
    });
    expect(messages).toEqual([
      "FileTokenStore needs Node (or Bun or Deno); in a browser use MemoryTokenStore or a TokenStore of your own",
      "loopbackAuthorize needs Node (or Bun or Deno); in a browser use popupAuthorize() with a redirect page that calls completeAuthorization()",
      "openInBrowser needs Node (or Bun or Deno); a web app opens the URL itself",
      "private_key_jwt (clientAssertion) needs Node (or Bun or Deno); a browser cannot keep a client's private key secret; use a public client (PKCE)",
    ]);
  });

  it("the popup step outside a browser window rejects clearly", async () => {
    await expect(
      popupAuthorize()({
        url: new URL("https://as.example/authorize"),
        state: "s",
        redirectUri: "https://app.example/callback",
      }),
    ).rejects.toThrow("popupAuthorize and completeAuthorization run in a browser window");
  });
});
