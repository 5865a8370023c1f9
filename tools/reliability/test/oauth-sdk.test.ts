// @mcp/oauth through @mcp/client against the official SDK's authorization server and bearer
// middleware (mcp-test-utils' startSdkOAuthServer): the whole flow, stored tokens reused by a new
// provider, nothing printed, nothing left behind.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { callTool, connectToServer, disconnectServer } from "@mcp/client";
import { FileTokenStore, OAuthProvider, followRedirectAuthorize } from "@mcp/oauth";
import { activeHandles, startSdkOAuthServer } from "mcp-test-utils";
import { describe, expect, it } from "vitest";
import { expectNothingLeft } from "./harness.js";

describe("OAuth against the official SDK's authorization server", () => {
  it("authorizes once, reuses the stored token from a new process' provider, and leaks nothing", async () => {
    const baseline = activeHandles();
    const server = await startSdkOAuthServer();
    const dir = mkdtempSync(join(tmpdir(), "mcp-oauth-sdk-"));
    try {
      const make = (): OAuthProvider =>
        new OAuthProvider({
          serverUrl: server.url,
          redirectUri: "http://127.0.0.1:9/callback",
          authorize: followRedirectAuthorize(),
          store: new FileTokenStore(dir),
        });
      const first = make();
      const conn = await connectToServer("sdk-oauth", { type: "http", url: server.url, authProvider: first });
      const result = await callTool(conn, "whoami", {});
      expect(result.content[0]).toMatchObject({
        type: "text",
        text: expect.stringMatching(/^client [0-9a-f-]{36}$/) as string,
      });
      expect(server.authorizations()).toBe(1);
      const token = (await first.headers())["authorization"]!.slice("Bearer ".length);
      for (const shown of [
        inspect(conn, { depth: 6 }),
        inspect(first),
        JSON.stringify(first),
        JSON.stringify(conn.transport),
      ])
        expect(shown).not.toContain(token);
      await disconnectServer(conn);

      const again = await connectToServer("sdk-oauth", { type: "http", url: server.url, authProvider: make() });
      expect((await callTool(again, "whoami", {})).content[0]).toEqual(result.content[0]); // the same registered client
      expect(server.authorizations()).toBe(1); // the stored token was used: no second authorization
      await disconnectServer(again);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    await expectNothingLeft(baseline);
  });

  it("without a user step, a protected server fails with a typed OAuthError that says what to do", async () => {
    const server = await startSdkOAuthServer();
    try {
      const error = await connectToServer("sdk-oauth", {
        type: "http",
        url: server.url,
        authProvider: new OAuthProvider({ serverUrl: server.url }),
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "OAuthError", code: "oauth_error", step: "authorization" });
      expect((error as Error).message).toContain("needs authorization");
    } finally {
      await server.stop();
    }
  });
});
