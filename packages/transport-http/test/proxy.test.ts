// Through a real forward proxy (the npm `proxy` package, started here on loopback) to the
// official SDK's server over HTTP and HTTPS; certificates made by the test (openssl).
import { NetworkError, ProxyError } from "@mcp/jsonrpc";
import { createServer, type Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  makeCertificates,
  startProxy,
  startSdkServer,
  type SdkServer,
  type TestCertificates,
  type TestProxy,
} from "mcp-test-utils";
import { HttpTransport, createHttpFetch, type HttpTransportConfig } from "../src/index.js";

let certs: TestCertificates;
beforeAll(() => {
  certs = makeCertificates();
});
afterAll(() => certs.remove());

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sdkServer(tls: boolean): Promise<SdkServer> {
  const server = await startSdkServer(tls ? { tls: certs.server } : {});
  cleanups.push(() => server.stop());
  return server;
}

async function proxy(options: Parameters<typeof startProxy>[0] = {}): Promise<TestProxy> {
  const started = await startProxy(options);
  cleanups.push(() => started.stop());
  return started;
}

/** A whole session: initialize, one tool call, close. Resolves with the call's text. */
async function session(config: Omit<HttpTransportConfig, "type">): Promise<string> {
  const transport = new HttpTransport({ type: "http", timeout: 10_000, fallbackToSse: false, ...config });
  try {
    await transport.connect();
    const init = await transport.request<{ protocolVersion: string }>("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    await transport.afterHandshake({ protocolVersion: init.protocolVersion, listen: false });
    await transport.notify("notifications/initialized");
    const result = await transport.request<{ content: { text: string }[] }>("tools/call", {
      name: "add",
      arguments: { a: 2, b: 3 },
    });
    return result.content[0]!.text;
  } finally {
    await transport.close();
  }
}

/** Sets environment variables for one test (restored after it). */
function withEnv(values: Record<string, string | undefined>): void {
  const before = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  cleanups.push(() => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

const PROXY_VARS = [
  "http_proxy",
  "HTTP_PROXY",
  "https_proxy",
  "HTTPS_PROXY",
  "no_proxy",
  "NO_PROXY",
  "NODE_EXTRA_CA_CERTS",
];
beforeAll(() => {
  // A developer's own proxy settings must not steer these tests.
  for (const name of PROXY_VARS) delete process.env[name];
});

describe("a server's own proxy", () => {
  it("plain HTTP goes through it in absolute form", async () => {
    const server = await sdkServer(false);
    const p = await proxy();
    await expect(session({ url: server.url, proxy: p.url })).resolves.toBe("5");
    expect(p.log.filter((line) => line.startsWith(`POST ${server.url}`)).length).toBeGreaterThanOrEqual(3);
  });

  it("HTTPS is tunnelled with CONNECT, the server's certificate checked against the server's own `ca`", async () => {
    const server = await sdkServer(true);
    const p = await proxy();
    await expect(session({ url: server.url, proxy: p.url, ca: certs.caFile })).resolves.toBe("5");
    expect(p.log.some((line) => line === `CONNECT ${new URL(server.url).host}`)).toBe(true);
  });

  it("proxy: false goes direct even when HTTP_PROXY is set", async () => {
    const server = await sdkServer(false);
    const p = await proxy();
    withEnv({ HTTP_PROXY: p.url });
    await expect(session({ url: server.url, proxy: false })).resolves.toBe("5");
    expect(p.log).toEqual([]);
  });

  it("credentials in the proxy URL are sent as Proxy-Authorization; wrong or missing ones are a ProxyError without the password", async () => {
    const server = await sdkServer(true);
    const p = await proxy({ auth: { user: "alice", password: "s3cr3t-pw" } });
    const withCredentials = (user: string, password: string): string =>
      p.url.replace("http://", `http://${user}:${password}@`);
    await expect(
      session({ url: server.url, proxy: withCredentials("alice", "s3cr3t-pw"), ca: certs.caFile }),
    ).resolves.toBe("5");
    for (const proxyUrl of [p.url, withCredentials("alice", "wrong-pw")]) {
      const error = await session({ url: server.url, proxy: proxyUrl, ca: certs.caFile }).catch((e: unknown) => e);
      expect(ProxyError.isInstance(error)).toBe(true);
      expect(NetworkError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ status: 407, code: "proxy_error" });
      expect((error as Error).message).toMatch(
        /the proxy http:\/\/.*127\.0\.0\.1:\d+\/ asks for credentials \(407 Proxy Authentication Required\)/,
      );
      expect((error as Error).message).not.toContain("wrong-pw");
      expect(JSON.stringify(error)).not.toContain("wrong-pw");
    }
    // Plain HTTP through it: the proxy's 407 is the same typed error.
    const plain = await sdkServer(false);
    await expect(session({ url: plain.url, proxy: p.url })).rejects.toMatchObject({ name: "ProxyError", status: 407 });
  });

  it("a refused CONNECT is a ProxyError with the proxy's status", async () => {
    const server = await sdkServer(true);
    const p = await proxy({ refuseConnectPort: Number(new URL(server.url).port) });
    await expect(session({ url: server.url, proxy: p.url, ca: certs.caFile })).rejects.toMatchObject({
      name: "ProxyError",
      status: 403,
      message: expect.stringContaining("refused the request (HTTP 403)") as string,
    });
  });

  it("a proxy that is not there is a ProxyError naming it", async () => {
    const server = await sdkServer(false);
    const p = await proxy();
    await p.stop();
    await expect(session({ url: server.url, proxy: p.url })).rejects.toMatchObject({
      name: "ProxyError",
      status: undefined,
      message: expect.stringContaining(`the proxy ${p.url}/ cannot be reached`) as string,
    });
  });

  it("a tunnel dropped mid-answer fails that call once, not twice, and the next call goes through a new tunnel", async () => {
    // A server that sends half of a tools/call answer, then stalls until the proxy drops it.
    let calls = 0;
    const half: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const message = JSON.parse(body) as { id: number; method: string };
        const answer = JSON.stringify({
          jsonrpc: "2.0",
          id: message.id,
          result: { content: [{ type: "text", text: "done" }] },
        });
        if (message.method !== "tools/call")
          return void res.writeHead(200, { "content-type": "application/json" }).end(answer);
        calls++;
        res.writeHead(200, { "content-type": "application/json", "content-length": String(answer.length) });
        res.write(answer.slice(0, 10));
        if (calls > 1) res.end(answer.slice(10));
      });
    });
    await new Promise<void>((resolve) => half.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => half.close(() => resolve())));
    cleanups.push(() => half.closeAllConnections());
    const p = await proxy();
    const url = `http://127.0.0.1:${(half.address() as { port: number }).port}/mcp`;
    const transport = new HttpTransport({ type: "http", url, proxy: p.url, timeout: 10_000, fallbackToSse: false });
    cleanups.push(() => transport.close());
    await transport.connect();
    const first = transport.request("tools/call", { name: "slow" });
    first.catch(() => undefined); // awaited below
    await expect.poll(() => calls).toBe(1); // the server has sent half of its answer
    p.dropAll();
    await expect(first).rejects.toBeInstanceOf(NetworkError);
    expect(calls).toBe(1);
    await expect(transport.request("tools/call", { name: "slow" })).resolves.toEqual({
      content: [{ type: "text", text: "done" }],
    });
    expect(calls).toBe(2);
  });
});

describe("the environment's proxy", () => {
  it("HTTPS_PROXY and HTTP_PROXY are used, lower-case names first; NO_PROXY bypasses", async () => {
    const server = await sdkServer(false);
    const used = await proxy();
    const ignored = await proxy();
    withEnv({ http_proxy: used.url, HTTP_PROXY: ignored.url });
    await expect(session({ url: server.url })).resolves.toBe("5");
    expect(used.log.length).toBeGreaterThan(0);
    expect(ignored.log).toEqual([]);

    const before = used.log.length;
    withEnv({ NO_PROXY: "127.0.0.1" });
    await expect(session({ url: server.url })).resolves.toBe("5");
    expect(used.log.length).toBe(before);
  });

  it("HTTPS through HTTPS_PROXY, trusting a private CA given as the server's `ca`", async () => {
    const server = await sdkServer(true);
    const p = await proxy();
    withEnv({ HTTPS_PROXY: p.url });
    await expect(session({ url: server.url, ca: certs.caFile })).resolves.toBe("5");
    expect(p.log.some((line) => line.startsWith("CONNECT "))).toBe(true);
  });

  it("an HTTPS_PROXY that is not a URL is a configuration error naming the variable", async () => {
    withEnv({ HTTPS_PROXY: "not a url" });
    await expect(session({ url: "http://127.0.0.1:1/mcp" })).rejects.toMatchObject({
      name: "InvalidConfigError",
      field: "HTTPS_PROXY",
    });
  });

  it("a bad proxy setting says what @mcp/lite says, word for word (one policy, @mcp/jsonrpc/internal)", async () => {
    await expect(session({ url: "http://127.0.0.1:1/mcp", proxy: "ftp://127.0.0.1:9" })).rejects.toMatchObject({
      name: "InvalidConfigError",
      field: "proxy",
      message: '"proxy" must be an http or https proxy URL, got ftp:',
    });
    withEnv({ HTTPS_PROXY: "not a url" });
    await expect(session({ url: "http://127.0.0.1:1/mcp" })).rejects.toMatchObject({
      name: "InvalidConfigError",
      field: "HTTPS_PROXY",
      message: '"HTTPS_PROXY" is not a valid proxy URL',
    });
  });
});

describe("certificates", () => {
  it("a private CA given as `ca` is trusted for that server", async () => {
    const server = await sdkServer(true);
    await expect(session({ url: server.url, ca: certs.caFile })).resolves.toBe("5");
    await expect(session({ url: server.url.replace("127.0.0.1", "localhost"), ca: certs.caFile })).resolves.toBe("5");
  });

  it("without it the error says the CA is not trusted and how to trust it", async () => {
    const server = await sdkServer(true);
    await expect(session({ url: server.url })).rejects.toMatchObject({
      name: "NetworkError",
      message: expect.stringMatching(
        /issued by a CA that is not trusted \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\); add that CA with the server's "ca" option/,
      ) as string,
    });
  });

  it("an expired certificate and one for another host each say so", async () => {
    const expired = await startSdkServer({ tls: certs.expired });
    cleanups.push(() => expired.stop());
    await new Promise((resolve) => setTimeout(resolve, 1100)); // valid until the second it was made
    await expect(session({ url: expired.url, ca: certs.caFile })).rejects.toMatchObject({
      name: "NetworkError",
      message: expect.stringContaining("its TLS certificate has expired (CERT_HAS_EXPIRED)") as string,
    });
    const other = await startSdkServer({ tls: certs.otherHost });
    cleanups.push(() => other.stop());
    await expect(session({ url: other.url, ca: certs.caFile })).rejects.toMatchObject({
      name: "NetworkError",
      message: expect.stringContaining(
        "its TLS certificate is for another host name (ERR_TLS_CERT_ALTNAME_INVALID)",
      ) as string,
    });
  });

  it("a `ca` file that cannot be read is a configuration error at connect", async () => {
    await expect(session({ url: "https://127.0.0.1:1/mcp", ca: "/no/such/ca.pem" })).rejects.toMatchObject({
      name: "InvalidConfigError",
      field: "ca",
    });
  });
});

describe("createHttpFetch: the requests around a session take the same way", () => {
  it("goes through the server's proxy with its credentials; a 407 is a ProxyError", async () => {
    const server = await sdkServer(false);
    const p = await proxy({ auth: { user: "bob", password: "pw-789" } });
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const init = {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
    };
    const proxied = createHttpFetch({ proxy: p.url.replace("http://", "http://bob:pw-789@") });
    const answer = await proxied(server.url, init);
    expect(answer.status).toBe(200);
    await answer.text();
    expect(p.log).toContain(`POST ${server.url}`);
    const refused = await createHttpFetch({ proxy: p.url })(server.url, init).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: "ProxyError", status: 407 });
  });
});
