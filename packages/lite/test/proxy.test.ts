// callMCP through a real forward proxy (the npm `proxy` package) to the official SDK's server.
import { ProxyError } from "@mcp/jsonrpc";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  makeCertificates,
  startProxy,
  startSdkServer,
  type SdkServer,
  type TestCertificates,
  type TestProxy,
} from "mcp-test-utils";
import { callMCP } from "../src/index.js";

const VARS = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"];
let server: SdkServer;
let proxy: TestProxy;
let guarded: TestProxy;
beforeAll(async () => {
  for (const name of VARS) delete process.env[name];
  server = await startSdkServer({ json: true });
  proxy = await startProxy();
  guarded = await startProxy({ auth: { user: "u", password: "pw-123" } });
});
afterAll(async () => {
  await Promise.all([server.stop(), proxy.stop(), guarded.stop()]);
});
afterEach(() => {
  for (const name of VARS) delete process.env[name];
});

/** `initialize`: the one request the (stateful) SDK server answers without a session. */
const ping = (options: Parameters<typeof callMCP>[3] = {}): Promise<unknown> =>
  callMCP(
    server.url,
    "initialize",
    { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "lite-test", version: "1" } },
    { timeout: 10_000, ...options },
  );

describe("callMCP and proxies", () => {
  it("a proxy setting that is not an http(s) URL is an InvalidConfigError naming it, in @mcp/transport-http's words", async () => {
    await expect(ping({ proxy: "ftp://127.0.0.1:9" })).rejects.toMatchObject({
      name: "InvalidConfigError",
      code: "invalid_config",
      field: "proxy",
      message: '"proxy" must be an http or https proxy URL, got ftp:',
    });
    process.env["HTTPS_PROXY"] = "not a url";
    await expect(ping()).rejects.toMatchObject({
      name: "InvalidConfigError",
      code: "invalid_config",
      field: "HTTPS_PROXY",
      message: '"HTTPS_PROXY" is not a valid proxy URL',
    });
  });

  it("goes through HTTP_PROXY from the environment, and not when NO_PROXY names the host", async () => {
    process.env["HTTP_PROXY"] = proxy.url;
    const before = proxy.log.length;
    await expect(ping()).resolves.toMatchObject({ jsonrpc: "2.0" });
    expect(proxy.log.slice(before)).toEqual([`POST ${server.url}`]);
    process.env["NO_PROXY"] = "127.0.0.1";
    await expect(ping()).resolves.toMatchObject({ jsonrpc: "2.0" });
    expect(proxy.log.length).toBe(before + 1);
  });

  it("takes a proxy per call, with credentials; a 407 is a ProxyError that hides the password", async () => {
    const withCredentials = guarded.url.replace("http://", "http://u:pw-123@");
    await expect(ping({ proxy: withCredentials })).resolves.toMatchObject({ jsonrpc: "2.0" });
    const refused = await ping({ proxy: guarded.url.replace("http://", "http://u:nope-456@") }).catch(
      (e: unknown) => e,
    );
    expect(ProxyError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ status: 407, code: "proxy_error" });
    expect(String((refused as Error).message)).not.toContain("nope-456");
  });

  it("proxy: false goes direct", async () => {
    process.env["HTTP_PROXY"] = "http://127.0.0.1:9";
    await expect(ping({ proxy: false })).resolves.toMatchObject({ jsonrpc: "2.0" });
  });
});

describe("callMCP over HTTPS through a proxy", () => {
  let certs: TestCertificates;
  let tls: SdkServer;
  beforeAll(async () => {
    certs = makeCertificates();
    tls = await startSdkServer({ json: true, tls: certs.server });
  });
  afterAll(async () => {
    await tls.stop();
    certs.remove();
  });

  it("tunnels with CONNECT; a refused tunnel is a ProxyError with the proxy's status", async () => {
    const refusing = await startProxy({ refuseConnectPort: Number(new URL(tls.url).port) });
    try {
      await expect(callMCP(tls.url, "ping", {}, { proxy: refusing.url, timeout: 10_000 })).rejects.toMatchObject({
        name: "ProxyError",
        status: 403,
      });
      expect(refusing.log).toContain(`CONNECT ${new URL(tls.url).host}`);
    } finally {
      await refusing.stop();
    }
  });
});
