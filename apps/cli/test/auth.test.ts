// `mcp auth`, `mcp logout` and the servers table against an MCP server protected by the official
// SDK's authorization server (mcp-test-utils' startSdkOAuthServer). The test plays the browser:
// it opens the URL the CLI prints, and the SDK's demo authorization server redirects to the CLI's
// loopback listener at once.
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { freePort, startSdkOAuthServer, type SdkOAuthServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";

let server: SdkOAuthServer;
let box: Sandbox;
beforeAll(async () => {
  server = await startSdkOAuthServer();
  box = sandbox();
});
afterAll(async () => {
  await server.stop();
  box.remove();
});

/** Runs `mcp auth <name> --no-open`, and opens the printed URL the way a browser would. */
function authorize(name: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "auth", name, "--no-open"], {
      cwd: box.project,
      env: box.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let opened = false;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /open: (\S+)/.exec(stderr)?.[1];
      if (url && !opened) {
        opened = true;
        // The "browser": follows the authorization server's redirect to the CLI's listener.
        void fetch(url)
          .then((r) => r.text())
          .catch(reject);
      }
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("OAuth in the CLI", () => {
  it(
    "servers says 'needs authentication'; auth signs in; calls then work from the saved tokens; logout forgets them",
    { timeout: 90_000 },
    async () => {
      userConfig(box, { protected: { type: "http", url: server.url, oauth: { callbackPort: await freePort() } } });

      const before = await mcp(box, ["servers", "--json", "--no-cache"]);
      const row = (JSON.parse(before.stdout) as { name: string; status: string; lastError: string }[]).find(
        (r) => r.name === "protected",
      );
      expect(row).toMatchObject({
        status: "needs authentication",
        lastError: expect.stringContaining("run: mcp auth protected") as string,
      });

      const doctor = await mcp(box, ["config", "doctor", "--json", "--no-cache"]);
      expect(
        (JSON.parse(doctor.stdout) as { server: string; finding: string }[]).find((d) => d.server === "protected")
          ?.finding,
      ).toContain("Sign in with: mcp auth protected");

      const auth = await authorize("protected");
      expect(auth.stderr).toContain('To authorize "protected", open: ');
      expect(auth.stdout).toContain('Authorized "protected"');
      expect(auth.code).toBe(0);
      expect(server.authorizations()).toBe(1);
      // The tokens are in a 600 file under the user's config folder; they never reach the output.
      const dir = join(box.home, ".config", "mcp-client", "oauth");
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      expect(statSync(join(dir, files[0]!)).mode & 0o777).toBe(0o600);

      const call = await mcp(box, ["call", "protected.whoami", "--no-cache"]);
      expect(call.stdout).toMatch(/client [0-9a-f-]{36}/);
      expect(call.code).toBe(0);
      const table = await mcp(box, ["servers", "--no-cache"]);
      expect(table.stdout).toMatch(/protected\s.*connected/);
      expect(server.authorizations()).toBe(1); // no second sign-in

      const logout = await mcp(box, ["logout", "protected"]);
      expect(logout.stdout).toContain('Forgot the tokens of "protected"');
      const after = await mcp(box, ["servers", "--json", "--no-cache"]);
      expect(
        (JSON.parse(after.stdout) as { name: string; status: string }[]).find((r) => r.name === "protected")?.status,
      ).toBe("needs authentication");
    },
  );

  it("auth on a stdio server is a usage error that says why", async () => {
    userConfig(box, { local: { command: process.execPath, args: ["-e", ""] } });
    const run = await mcp(box, ["auth", "local"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("OAuth applies to HTTP servers");
  });
});
