// HTTPS through undici (the default HTTP client on Node), against the official SDK's
// server on a self-signed certificate. The client runs in a child process: NODE_EXTRA_CA_CERTS,
// the way a user trusts a private CA, is read only when a process starts.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { startSdkServer, type SdkServer } from "mcp-test-utils";

const cert = fileURLToPath(new URL("./fixtures/tls-cert.pem", import.meta.url));
const key = fileURLToPath(new URL("./fixtures/tls-key.pem", import.meta.url));
const client = fileURLToPath(new URL("./fixtures/https-client.mjs", import.meta.url));
const run = promisify(execFile);

let server: SdkServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function session(url: string, trust: boolean): Promise<Record<string, unknown>> {
  const env = { ...process.env };
  delete env["NODE_TLS_REJECT_UNAUTHORIZED"];
  if (trust) env["NODE_EXTRA_CA_CERTS"] = cert;
  else delete env["NODE_EXTRA_CA_CERTS"];
  const { stdout } = await run(process.execPath, [client, url], { env, timeout: 20_000 });
  return JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, unknown>;
}

describe("HTTPS", () => {
  for (const json of [false, true]) {
    it(`a session over TLS with the SDK server (${json ? "JSON" : "SSE"} answers), a 700 KB answer intact, by IP and by host name`, async () => {
      server = await startSdkServer({
        json,
        tls: { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") },
      });
      const expected = { ok: true, server: "sdk-test-server", sums: ["1", "2", "3", "4", "5"], big: 400_000 };
      await expect(session(server.url, true)).resolves.toEqual(expected);
      await expect(session(server.url.replace("127.0.0.1", "localhost"), true)).resolves.toEqual(expected);
    });
  }

  it("refuses a certificate nobody vouches for, with a network error that says why", async () => {
    server = await startSdkServer({ tls: { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") } });
    await expect(session(server.url, false)).resolves.toMatchObject({
      ok: false,
      name: "NetworkError",
      message: expect.stringMatching(
        /^Cannot reach MCP server at https:\/\/127\.0\.0\.1:\d+\/mcp: its TLS certificate is self-signed and not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\); trust it with the server's "ca" option/,
      ),
    });
  });
});
