// `mcp auth <server> --device` as a user runs it, against oidc-provider on loopback with the device
// authorization grant (RFC 8628) on: the URL and code on stderr, the user's approval on "another
// device" (the helper enters the code at the provider's page), the tokens saved as a browser
// sign-in's are and taken by the MCP server; and a provider without the grant refused clearly.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startOidcServer } from "mcp-test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { bin, mcp, sandboxes, userConfig } from "./helpers.js";

const { box, removeAll } = sandboxes();
afterAll(() => removeAll());

describe("mcp auth --device", () => {
  it(
    "prints the verification URI and code, waits for the approval, and saves tokens the server takes",
    { timeout: 90_000 },
    async () => {
      const oidc = await startOidcServer({ deviceFlow: true });
      try {
        const b = box();
        userConfig(b, { protected: { type: "http", url: oidc.mcpUrl } });
        const child = spawn(process.execPath, [bin, "auth", "protected", "--device"], {
          cwd: b.project,
          env: b.env,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        let approval: Promise<void> | undefined;
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          const code = /open (\S+) on any device and enter the code: (\S+)/.exec(stderr);
          if (code && !approval) approval = oidc.approveDevice(code[2]!);
        });
        const exit = await new Promise<number | null>((resolve) => child.once("exit", resolve));
        await approval;
        expect(stderr).toMatch(
          new RegExp(
            `To authorize "protected", open ${oidc.issuer}/device on any device and enter the code: [A-Z]{4}-[A-Z]{4}`,
          ),
        );
        expect(stdout).toContain('Authorized "protected"');
        expect(exit).toBe(0);
        const dir = join(b.home, ".config", "mcp-client", "oauth");
        const files = readdirSync(dir);
        expect(files).toHaveLength(1);
        const saved = readFileSync(join(dir, files[0]!), "utf8");
        const token = /"accessToken"\s*:\s*"([^"]+)"/.exec(saved)?.[1];
        expect(token).toBeDefined();
        const answer = await fetch(oidc.mcpUrl, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
        });
        expect(answer.status).toBe(200);
      } finally {
        await oidc.stop();
      }
    },
  );

  it(
    "an authorization server without device_authorization_endpoint: exit 1 saying so and how else to sign in; nothing saved",
    { timeout: 60_000 },
    async () => {
      const oidc = await startOidcServer({ deviceFlow: false });
      try {
        const b = box();
        userConfig(b, { protected: { type: "http", url: oidc.mcpUrl } });
        const run = await mcp(b, ["auth", "protected", "--device"]);
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(
          `The authorization server ${oidc.issuer}/ has no device_authorization_endpoint (RFC 8628); it does not offer the device flow. Sign in to "protected" without --device (mcp auth protected; add --no-browser on a machine with no browser)`,
        );
        expect(run.stderr).not.toContain("enter the code");
        let files: string[] = [];
        try {
          files = readdirSync(join(b.home, ".config", "mcp-client", "oauth"));
        } catch {
          // no token folder at all
        }
        expect(files).toEqual([]);
      } finally {
        await oidc.stop();
      }
    },
  );
});
