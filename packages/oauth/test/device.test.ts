// The device authorization grant (RFC 8628) against oidc-provider: the user enters the code on
// "another device" (the helper's browser without a user), the grant polls until then, and the
// token is one the MCP server takes.
import { afterEach, describe, expect, it } from "vitest";
import { startOidcServer, type OidcServer } from "mcp-test-utils";
import { OAuthError, OAuthProvider, type DeviceCodePrompt } from "../src/index.js";

const servers: OidcServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

async function oidc(deviceFlow: boolean): Promise<OidcServer> {
  const server = await startOidcServer({ deviceFlow });
  servers.push(server);
  return server;
}

describe("the device_code grant", () => {
  it(
    "shows the code, polls until the user approved it elsewhere, and gets a token the MCP server takes",
    { timeout: 30_000 },
    async () => {
      const server = await oidc(true);
      const prompts: DeviceCodePrompt[] = [];
      const approvals: Promise<void>[] = [];
      const provider = new OAuthProvider({
        serverUrl: server.mcpUrl,
        grant: "device_code",
        device: {
          onCode: (prompt) => void (prompts.push(prompt), approvals.push(server.approveDevice(prompt.userCode))),
        },
      });
      await provider.authorizeNow();
      await Promise.all(approvals);
      expect(prompts).toHaveLength(1);
      expect(prompts[0]).toMatchObject({
        verificationUri: `${server.issuer}/device`,
        userCode: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/),
        expiresIn: expect.any(Number),
      });
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
      const headers = await provider.headers({ method: "POST", url: server.mcpUrl, body });
      const answer = await fetch(server.mcpUrl, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
      expect(answer.status).toBe(200);
    },
  );

  it("an authorization server without a device authorization endpoint: an OAuthError saying so, before any code is shown", async () => {
    const server = await oidc(false);
    const onCode = (): void => {
      throw new Error("no code should be shown");
    };
    const provider = new OAuthProvider({ serverUrl: server.mcpUrl, grant: "device_code", device: { onCode } });
    const failure = await provider.authorizeNow().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OAuthError);
    expect((failure as OAuthError).message).toMatch(/has no device_authorization_endpoint \(RFC 8628\)/);
  });
});
