import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type * as here from "../src/index.js";
import { HttpError, McpError, NoResponseError, RequestTimeoutError, RpcError, SessionExpiredError, TransportClosedError } from "../src/index.js";

describe("error messages are the seed's, verbatim", () => {
  it.each([
    [new TransportClosedError(), "Transport closed"],
    [new RequestTimeoutError(1500), "Request timeout after 1500ms"],
    [new RequestTimeoutError(20, { kind: "sse" }), "SSE response timeout after 20ms"],
    [new RequestTimeoutError(7, { kind: "notify" }), "Notify timeout after 7ms"],
    [new NoResponseError(42), "No response received for request ID 42"],
    [new RpcError(-32601, "Method not found"), "MCP error -32601: Method not found"],
    [new HttpError({ status: 500, body: "oops" }), "HTTP 500: oops"],
  ])("%s", (error, message) => {
    expect(error.message).toBe(message);
  });

  it("HttpError keeps status, body and auth hints as fields and in the message", () => {
    const error = new HttpError({ status: 401, body: "no", wwwAuthenticate: 'Bearer resource_metadata="x"', mcpAuthServer: "https://auth" });
    expect(error).toMatchObject({ status: 401, body: "no", code: "http_error", wwwAuthenticate: 'Bearer resource_metadata="x"', mcpAuthServer: "https://auth" });
    expect(error.message).toBe('HTTP 401: no (WWW-Authenticate: Bearer resource_metadata="x") (Mcp-Auth-Server: https://auth)');
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
    expect(Branded.isInstance(new Branded("unknown", "m"))).toBe(true);
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
