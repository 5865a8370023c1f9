import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type * as here from "../src/index.js";
import {
  HttpError,
  McpError,
  NoResponseError,
  RequestTimeoutError,
  RpcError,
  SessionExpiredError,
  TransportClosedError,
} from "../src/index.js";

describe("error messages are the documented ones, verbatim", () => {
  it.each([
    [new TransportClosedError(), "Transport closed"],
    [new RequestTimeoutError(1500), "Request timeout after 1500ms"],
    [new RequestTimeoutError(20, { label: "SSE response" }), "SSE response timeout after 20ms"],
    [new RequestTimeoutError(7, { label: "Notify" }), "Notify timeout after 7ms"],
    [new NoResponseError(42), "No response received for request ID 42"],
    [new RpcError(-32601, "Method not found"), "MCP error -32601: Method not found"],
    [new HttpError({ status: 500, body: "oops" }), "HTTP 500: oops"],
  ])("%s", (error, message) => {
    expect(error.message).toBe(message);
  });

  it("HttpError reduces an HTML error page to its title and first line of text; the body field keeps it whole", () => {
    const nginx =
      "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";
    expect(new HttpError({ status: 502, body: nginx }).message).toBe("HTTP 502: an HTML page: 502 Bad Gateway");
    const express =
      '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot POST /nope</pre>\n</body>\n</html>\n';
    const error = new HttpError({ status: 404, body: express });
    expect(error.message).toBe("HTTP 404: an HTML page: Error: Cannot POST /nope");
    expect(error.body).toBe(express);
    const untitled =
      "<!doctype html><html><body><script>var x = '<p>no</p>';</script><h1>Access &amp; denied</h1><p>by policy</p></body></html>";
    expect(new HttpError({ status: 403, body: untitled }).message).toBe("HTTP 403: an HTML page: Access & denied");
    expect(new HttpError({ status: 500, body: "<b>not a page</b>" }).message).toBe("HTTP 500: <b>not a page</b>");
  });

  it("HttpError keeps status, body and auth hints as fields and in the message", () => {
    const error = new HttpError({
      status: 401,
      body: "no",
      wwwAuthenticate: 'Bearer resource_metadata="x"',
      mcpAuthServer: "https://auth",
    });
    expect(error).toMatchObject({
      status: 401,
      body: "no",
      code: "http_error",
      wwwAuthenticate: 'Bearer resource_metadata="x"',
      mcpAuthServer: "https://auth",
    });
    expect(error.message).toBe(
      'HTTP 401: no (WWW-Authenticate: Bearer resource_metadata="x") (Mcp-Auth-Server: https://auth)',
    );
  });

  it("RpcError keeps the numeric code and data; McpError keeps a string code and cause", () => {
    const rpc = RpcError.fromError({ code: -32602, message: "bad", data: { field: "x" } });
    expect(rpc.code).toBe(-32602);
    expect(rpc.data).toEqual({ field: "x" });
    const cause = new Error("root");
    const closed = new TransportClosedError({ cause, exitCode: 3, stderrTail: "fatal: nope\n" });
    expect(closed.code).toBe("transport_closed");
    expect(closed.cause).toBe(cause);
    expect(closed.message).toBe("Transport closed (process exited with code 3)\nstderr:\nfatal: nope");
  });

  it("subclasses are instances of their parents, not of siblings", () => {
    const expired = new SessionExpiredError("abc", { status: 404 });
    expect(expired).toBeInstanceOf(SessionExpiredError);
    expect(expired).toBeInstanceOf(HttpError);
    expect(expired).toBeInstanceOf(McpError);
    expect(expired).toBeInstanceOf(Error);
    expect(expired.code).toBe("session_expired");
    expect(new HttpError({ status: 404 })).not.toBeInstanceOf(SessionExpiredError);
    expect(new TransportClosedError()).not.toBeInstanceOf(HttpError);
    expect(new RpcError(1, "x")).not.toBeInstanceOf(McpError);
  });
});

describe("instanceof across two installed copies", () => {
  const copyDir = mkdtempSync(join(tmpdir(), "jsonrpc-copy-"));
  afterAll(() => rmSync(copyDir, { recursive: true, force: true }));

  it("an error made by one copy is an instance of the other copy's class", async () => {
    const dist = fileURLToPath(new URL("../dist", import.meta.url));
    // A second "installed copy": the same built files at another path, so a separate module instance.
    for (const file of readdirSync(dist).filter((name) => name.endsWith(".js"))) {
      const code = readFileSync(join(dist, file), "utf8").replace(/^\/\/# sourceMappingURL=.*$/m, "");
      writeFileSync(join(copyDir, file), code);
    }
    const other = (await import(pathToFileURL(join(copyDir, "index.js")).href)) as typeof here;
    expect(other.TransportClosedError).not.toBe(TransportClosedError);

    const foreign = new other.SessionExpiredError("s", { status: 404 });
    expect(foreign instanceof SessionExpiredError).toBe(true);
    expect(foreign instanceof HttpError).toBe(true);
    expect(foreign instanceof TransportClosedError).toBe(false);
    expect(HttpError.isInstance(foreign)).toBe(true);
    expect(new TransportClosedError() instanceof other.TransportClosedError).toBe(true);
    expect(new RpcError(-1, "m") instanceof other.RpcError).toBe(true);
    expect(other.McpError.isInstance(new Error("plain"))).toBe(false);
  });

  it("a subclass written elsewhere without its own brand falls back to the prototype chain", () => {
    class MyClosed extends TransportClosedError {}
    expect(new MyClosed()).toBeInstanceOf(MyClosed);
    expect(new TransportClosedError()).not.toBeInstanceOf(MyClosed);
  });

  it("is named by its brand, which a minifier cannot rename; a subclass without a brand by its class", () => {
    // What a minifying bundler does to a class: its name becomes a short identifier.
    const Renamed = class extends TransportClosedError {
      static override readonly brand: string = "Renamed";
    };
    Object.defineProperty(TransportClosedError, "name", { value: "s", configurable: true });
    try {
      expect(new TransportClosedError().name).toBe("TransportClosedError");
      expect(new Renamed().name).toBe("Renamed");
      class MyClosed extends TransportClosedError {}
      expect(new MyClosed().name).toBe("MyClosed");
      expect(RpcError.fromError({ code: -32601, message: "x" }).name).toBe("MethodNotFoundError");
    } finally {
      Object.defineProperty(TransportClosedError, "name", { value: "TransportClosedError", configurable: true });
    }
  });
});

describe("isInstance", () => {
  it("is inherited and checks the class it is called on", () => {
    const expired = new SessionExpiredError("s", { status: 404 });
    expect(SessionExpiredError.isInstance(expired)).toBe(true);
    expect(HttpError.isInstance(expired)).toBe(true);
    expect(McpError.isInstance(expired)).toBe(true);
    expect(TransportClosedError.isInstance(expired)).toBe(false);
    expect(NoResponseError.isInstance(new TransportClosedError())).toBe(false);
    expect(RpcError.isInstance(new RpcError(1, "x"))).toBe(true);
    expect(RpcError.isInstance(new TransportClosedError())).toBe(false);
    class Branded extends McpError {
      static override readonly brand: string = "BrandedTestError";
    }
    expect(Branded.isInstance(new Branded("invalid_config", "m"))).toBe(true);
    expect(Branded.isInstance(new TransportClosedError())).toBe(false);
  });
});

describe("toError", () => {
  it("keeps Errors and wraps anything else readably", async () => {
    const { toError } = await import("../src/index.js");
    const original = new TypeError("t");
    expect(toError(original)).toBe(original);
    expect(toError("plain").message).toBe("plain");
    expect(toError({ code: 1 }).message).toBe('{"code":1}');
    expect(toError(undefined).message).toBe("undefined");
  });
});

describe("typed RpcError subclasses for the standard codes", () => {
  it("fromError picks the subclass; the rest stay plain RpcErrors", async () => {
    const all = await import("../src/index.js");
    const cases: [number, abstract new (...args: never[]) => unknown][] = [
      [-32700, all.RpcParseError],
      [-32600, all.InvalidRequestError],
      [-32601, all.MethodNotFoundError],
      [-32602, all.InvalidParamsError],
      [-32603, all.InternalRpcError],
      [-32002, all.ResourceNotFoundError],
      [-32042, all.UrlElicitationRequiredError],
    ];
    for (const [code, Class] of cases) {
      const error = RpcError.fromError({ code, message: "m", data: { d: 1 } });
      expect(error).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(RpcError);
      expect(error).toMatchObject({ code, rpcMessage: "m", data: { d: 1 }, message: `MCP error ${code}: m` });
      for (const [other, OtherClass] of cases) if (other !== code) expect(error).not.toBeInstanceOf(OtherClass);
    }
    const custom = RpcError.fromError({ code: -32000, message: "custom" });
    expect(custom.constructor).toBe(RpcError);
  });

  it("a message the server already prefixed is not prefixed twice", () => {
    expect(new RpcError(-32602, "MCP error -32602: Prompt x not found").message).toBe(
      "MCP error -32602: Prompt x not found",
    );
  });

  it("HttpError shows a JSON-RPC error body's message, and keeps the raw body", () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: "Bad Request: Server not initialized" },
    });
    const error = new HttpError({ status: 400, body });
    expect(error.message).toBe("HTTP 400: Bad Request: Server not initialized (JSON-RPC error -32000)");
    expect(error.body).toBe(body);
  });
});

describe("every error class has its own code", () => {
  it("no two classes share one", async () => {
    const all = (await import("../src/index.js")) as Record<string, unknown>;
    const samples: McpError[] = [
      new TransportClosedError(),
      new RequestTimeoutError(1),
      new NoResponseError(1),
      new HttpError({ status: 500 }),
      new SessionExpiredError("s", { status: 404 }),
      new (all["NetworkError"] as typeof here.NetworkError)("http://x", new Error("e")),
      new (all["ParseError"] as typeof here.ParseError)("x", "y"),
      new (all["InvalidMessageError"] as typeof here.InvalidMessageError)("x", "y"),
      new (all["MessageTooLargeError"] as typeof here.MessageTooLargeError)(2, 1),
      new (all["InvalidConfigError"] as typeof here.InvalidConfigError)("m"),
    ];
    const codes = samples.map((error) => error.code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe("NetworkError", () => {
  it("says what failed, where, and what to check", async () => {
    const { NetworkError } = await import("../src/index.js");
    const refused = new NetworkError(
      "http://127.0.0.1:9/mcp",
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }),
      { serverName: "docs" },
    );
    expect(refused.message).toBe(
      'Cannot reach MCP server "docs" at http://127.0.0.1:9/mcp: connection refused (ECONNREFUSED); is the server running and listening on that port?',
    );
    // fetch hides the system error one level down, in cause.
    const viaFetch = new NetworkError(
      "http://nowhere.invalid/",
      new TypeError("fetch failed", {
        cause: Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.invalid"), { code: "ENOTFOUND" }),
      }),
    );
    expect(viaFetch).toMatchObject({ errno: "ENOTFOUND", code: "network_error", serverName: undefined });
    expect(viaFetch.message).toBe(
      "Cannot reach MCP server at http://nowhere.invalid/: host not found (ENOTFOUND); check the host name in the URL",
    );
    const other = new NetworkError(
      "https://x/",
      new TypeError("fetch failed", { cause: new Error("certificate has expired") }),
    );
    expect(other.message).toBe("Cannot reach MCP server at https://x/: fetch failed (certificate has expired)");
    expect([refused, viaFetch, other].map((e) => e.mayHaveRun)).toEqual([false, false, false]);
  });

  it('a request that may have run says so, never "Cannot reach"', async () => {
    const { NetworkError } = await import("../src/index.js");
    const reset = new NetworkError(
      "http://127.0.0.1:9/mcp?token=abc",
      Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
      { serverName: "mail", mayHaveRun: true },
    );
    expect(reset).toMatchObject({ mayHaveRun: true, errno: "ECONNRESET", code: "network_error" });
    expect(reset.message).toBe(
      'The connection to MCP server "mail" at http://127.0.0.1:9/mcp?token=%5Bredacted%5D broke after the request was sent (ECONNRESET); it may have run, so it was not sent again',
    );
    const closed = new NetworkError(
      "http://x/",
      Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
      { mayHaveRun: true },
    );
    expect(closed.message).toBe(
      "The connection to MCP server at http://x/ broke after the request was sent (other side closed); it may have run, so it was not sent again",
    );
    const unreadable = new NetworkError("http://x/", new Error("bad response"), {
      unreadable: 'an interim "100 Continue"',
    });
    expect(unreadable.mayHaveRun).toBe(true);
    expect(unreadable.message).toBe(
      'MCP server at http://x/ answered in a way this client cannot read (an interim "100 Continue"); the request may have run, so it was not sent again',
    );
  });
});

describe("failedBeforeSending", () => {
  it("is true only for failures before a request can have left: no connection, a certificate, a header", async () => {
    const { failedBeforeSending } = await import("../src/internal.js");
    const viaFetch = (code: string): unknown =>
      new TypeError("fetch failed", { cause: Object.assign(new Error(code), { code }) });
    for (const code of [
      "ECONNREFUSED",
      "ENOTFOUND",
      "EAI_AGAIN",
      "UND_ERR_CONNECT_TIMEOUT",
      "CERT_HAS_EXPIRED",
      "DEPTH_ZERO_SELF_SIGNED_CERT",
      "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      "ERR_TLS_CERT_ALTNAME_INVALID",
    ]) {
      expect(failedBeforeSending(viaFetch(code)), code).toBe(true);
    }
    for (const code of ["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"])
      expect(failedBeforeSending(viaFetch(code)), code).toBe(false);
    expect(failedBeforeSending(new TypeError("Failed to fetch"))).toBe(false); // a browser says nothing: it may have left
  });
});

describe("HttpError for a redirect", () => {
  it("keeps where it pointed, a password or token in it hidden", async () => {
    const { HttpError } = await import("../src/index.js");
    const error = new HttpError(
      { status: 307, location: "https://user:pw@other.example/mcp?access_token=t0k" },
      "http_error",
      "HTTP 307: a redirect, not followed",
    );
    expect(error.location).toBe("https://user:%5Bredacted%5D@other.example/mcp?access_token=%5Bredacted%5D");
    expect(new HttpError({ status: 500 }).location).toBeUndefined();
  });
});

describe("the timeout rule", () => {
  it("a timeout is a positive number of ms or Infinity; anything else is refused, naming the field", async () => {
    const { PendingRequests, checkTimeout, isValidTimeout } = await import("../src/internal.js");
    expect([1, 0.5, Infinity].every((v) => isValidTimeout(v))).toBe(true);
    expect([0, -5, Number.NaN, "100", null].some((v) => isValidTimeout(v))).toBe(false);
    expect(() => checkTimeout(-5, "timeout", "docs")).toThrow(
      'MCP server "docs": "timeout" must be a positive number of milliseconds (or Infinity for none); got -5',
    );
    expect(() => checkTimeout(undefined, "timeout")).not.toThrow();
    const { timeoutProblem } = await import("../src/internal.js");
    expect([undefined, 1, Infinity].map((v) => timeoutProblem(v, "x"))).toEqual([undefined, undefined, undefined]);
    expect([Number.NaN, "100", null, 0].map((v) => timeoutProblem(v, "x"))).toEqual(
      ["NaN", '"100"', "null", "0"].map(
        (got) => `x must be a positive number of milliseconds (or Infinity for none); got ${got}`,
      ),
    );
    expect(() => new PendingRequests({ defaultTimeout: 0 })).toThrow('"timeout" must be a positive number');
    const tracker = new PendingRequests();
    for (const timeout of [0, -1, Number.NaN]) {
      await expect(tracker.track(tracker.nextId(), "m", { timeout })).rejects.toThrow(
        `RequestOptions.timeout must be a positive number of milliseconds (or Infinity for none); got ${timeout}`,
      );
    }
    await expect(tracker.track(tracker.nextId(), "m", { maxTotalTimeout: -1 })).rejects.toBeInstanceOf(RangeError);
    expect(tracker.size).toBe(0);
  });
});

describe("redaction", () => {
  it("hides credential headers, env values and URL secrets; keeps the rest", async () => {
    const { redactConfig } = await import("../src/internal.js");
    const redacted = redactConfig({
      command: "srv",
      env: { API_KEY: "k1", PATH: "/bin" },
      headers: { Authorization: "Bearer t", "X-Api-Key": "k2", "X-Trace": "on", Cookie: "c" },
      url: "https://user:pw@host/mcp?token=abc&page=2",
      oauth: { clientId: "public-id", clientSecret: "s3cret", callbackPort: 4000 },
    });
    expect(redacted).toEqual({
      command: "srv",
      env: { API_KEY: "[redacted]", PATH: "[redacted]" },
      headers: { Authorization: "[redacted]", "X-Api-Key": "[redacted]", "X-Trace": "on", Cookie: "[redacted]" },
      url: "https://user:%5Bredacted%5D@host/mcp?token=%5Bredacted%5D&page=2",
      oauth: { clientId: "public-id", clientSecret: "[redacted]", callbackPort: 4000 },
    });
  });
});
