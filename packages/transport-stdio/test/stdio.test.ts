import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  EndpointTransport,
  MessageTooLargeError,
  ParseError,
  RequestTimeoutError,
  TransportClosedError,
} from "@mcp/jsonrpc";
import {
  SpawnError,
  StdioTransport,
  buildChildEnv,
  createStdioTransport,
  type StdioTransportConfig,
} from "../src/index.js";
import { isAlive, waitFor } from "mcp-test-utils";
import { fixture } from "./helpers.js";

const open: StdioTransport[] = [];
async function start(flags: string[] = [], extra: Partial<StdioTransportConfig> = {}) {
  const transport = await createStdioTransport({
    command: process.execPath,
    args: [fixture("server.mjs"), ...flags],
    ...extra,
  });
  open.push(transport);
  return transport;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

describe("StdioTransport", () => {
  it("is built on the jsonrpc EndpointTransport, the skeleton a third-party transport extends; refused before connect()", async () => {
    const transport = new StdioTransport({ command: process.execPath });
    expect(transport).toBeInstanceOf(EndpointTransport);
    await expect(transport.request("ping")).rejects.toBeInstanceOf(TransportClosedError);
    await transport.close();
  });

  it("skips and reports a banner line, then works", async () => {
    const errors: Error[] = [];
    const transport = new StdioTransport({ command: process.execPath, args: [fixture("server.mjs"), "--banner"] });
    open.push(transport);
    transport.onError = (e) => errors.push(e);
    await transport.connect();
    await expect(transport.request("echo", { a: 1 })).resolves.toEqual({ echo: { a: 1 } });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ParseError);
    expect(errors[0]!.message).toContain('starts with "Server starting... (this is not JSON)"');
  });

  it("handles CRLF line ends, batches, notifications and progress", async () => {
    const transport = await start();
    const notes: [string, unknown][] = [];
    transport.onNotification = (method, params) => notes.push([method, params]);
    await expect(transport.request("crlf")).resolves.toEqual({ crlf: true });
    await expect(transport.request("batch")).resolves.toEqual({ batched: true });
    const progress: unknown[] = [];
    await transport.request("notify", {}, { onProgress: (p) => progress.push(p) });
    expect(progress).toEqual([{ progress: 1, total: 2 }]);
    expect(notes).toEqual([
      ["notifications/message", { level: "info", data: "in batch" }],
      ["notifications/message", { level: "info", data: "hello" }],
    ]);
  });

  it("answers server→client requests: with a handler, and -32601 without one", async () => {
    const transport = await start();
    await expect(transport.request("ask", { method: "roots/list" })).resolves.toEqual({
      answer: { jsonrpc: "2.0", id: 1000, error: { code: -32601, message: "Method not found: roots/list" } },
    });
    await expect(transport.request("ask", { method: "ping" })).resolves.toEqual({
      answer: { jsonrpc: "2.0", id: 1001, result: {} },
    });
    transport.onRequest = async (method) => ({ roots: [{ uri: `file:///${method}` }] });
    await expect(transport.request("ask", { method: "roots/list" })).resolves.toEqual({
      answer: { jsonrpc: "2.0", id: 1002, result: { roots: [{ uri: "file:///roots/list" }] } },
    });
  });

  it("a child that dies mid-request: pending rejects with Transport closed + exit code + stderr tail; onClose once", async () => {
    const transport = await start();
    let closes = 0;
    transport.onClose = () => closes++;
    const hanging = transport.request("hang");
    const dying = transport.request("die");
    const error = await dying.catch((e: unknown) => e);
    await expect(hanging).rejects.toBeInstanceOf(TransportClosedError);
    expect(error).toBeInstanceOf(TransportClosedError);
    expect((error as TransportClosedError).message).toMatch(/^Transport closed \(process exited with code 3\)/);
    expect((error as TransportClosedError).exitCode).toBe(3);
    expect((error as TransportClosedError).stderrTail).toContain("fatal: something went wrong");
    await waitFor(() => closes === 1);
    await transport.close();
    expect(closes).toBe(1);
    expect(transport.connected).toBe(false);
    await expect(transport.request("echo")).rejects.toBeInstanceOf(TransportClosedError);
  });

  it("a child that closes its stdout and exits later (as on a loaded machine): the error still says how it exited", async () => {
    // Stdout ends first; the exit status follows 500 ms later, well past the 100 ms a child that
    // exited first is given to finish its stdout.
    const transport = new StdioTransport({
      command: "sh",
      args: ["-c", "exec 1>&-; echo 'cannot reach the database' >&2; sleep 0.5; exit 3"],
    });
    open.push(transport);
    await transport.connect();
    const error = await transport.request("tools/list").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportClosedError);
    expect((error as TransportClosedError).message).toMatch(/^Transport closed \(process exited with code 3\)/);
    expect((error as TransportClosedError).stderrTail).toContain("cannot reach the database");
  });

  it("writing to a dead child rejects with Transport closed, never an uncaught EPIPE", async () => {
    const transport = await start();
    await transport.request("die").catch(() => undefined);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => transport.notify("notifications/x", { pad: "z".repeat(10_000) })),
    );
    expect(results.every((r) => r.status === "rejected" && r.reason instanceof TransportClosedError)).toBe(true);
  });

  it("close() on a child that ignores SIGTERM ends with SIGKILL after the graces", async () => {
    const transport = await start(["--ignore-term"], { closeGraceMs: 100, killGraceMs: 200 });
    // The fixture answers only once its SIGTERM handler is installed: on a busy machine a close()
    // that came sooner would end it with SIGTERM, before it could ignore one.
    await expect(transport.request("echo", { ready: true })).resolves.toEqual({ echo: { ready: true } });
    const pid = transport.pid!;
    let closes = 0;
    transport.onClose = () => closes++;
    const pending = transport.request("hang").catch((e: unknown) => e);
    await transport.close();
    expect(isAlive(pid)).toBe(false);
    expect(transport.exitStatus?.signal).toBe("SIGKILL");
    // SIGTERM came first, and was ignored (the fixture says so on stderr, which may trail the exit).
    await waitFor(() => transport.stderrTail.includes("ignoring SIGTERM"));
    await expect(pending).resolves.toBeInstanceOf(TransportClosedError);
    expect(closes).toBe(1);
  });

  it("close() ends the whole process group: no orphan of `sh -c`", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stdio-group-"));
    const pidFile = join(dir, "grandchild.pid");
    try {
      const transport = await createStdioTransport({
        command: "sh",
        args: ["-c", `"${process.execPath}" "${fixture("server.mjs")}" --grandchild "${pidFile}"; echo done >&2`],
        closeGraceMs: 300,
        killGraceMs: 300,
      });
      open.push(transport);
      await expect(transport.request("echo", { via: "sh" })).resolves.toEqual({ echo: { via: "sh" } });
      const grandchild = Number(readFileSync(pidFile, "utf8"));
      expect(isAlive(grandchild)).toBe(true);
      await transport.close();
      await waitFor(() => !isAlive(grandchild), 3000);
      expect(isAlive(transport.pid!)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a request nobody answers times out with the exact message and the child receives notifications/cancelled", async () => {
    const transport = await start();
    await expect(transport.request("hang", {}, { timeout: 100 })).rejects.toThrow(new RequestTimeoutError(100).message);
    const controller = new AbortController();
    const aborted = transport.request("hang", {}, { signal: controller.signal });
    controller.abort(new Error("no longer needed"));
    await expect(aborted).rejects.toThrow("no longer needed");
    const { cancelled } = await transport.request<{ cancelled: unknown[] }>("cancelled");
    expect(cancelled).toEqual([
      { requestId: 1, reason: "Request timeout after 100ms" },
      { requestId: 2, reason: "no longer needed" },
    ]);
  });

  it("uses config.timeout as the default request timeout", async () => {
    const transport = await start([], { timeout: 50 });
    await expect(transport.request("hang")).rejects.toThrow("Request timeout after 50ms");
  });

  it("receives one 50 MB line intact", async () => {
    const bytes = 50 * 1024 * 1024;
    const transport = await createStdioTransport({
      command: process.execPath,
      args: [fixture("giant-line.mjs"), String(bytes)],
    });
    open.push(transport);
    const result = await transport.request<{ data: string }>("go", {}, { timeout: 20_000 });
    expect(result.data.length).toBe(bytes - '{"jsonrpc":"2.0","id":1,"result":{"data":"'.length - '"}}\n'.length);
    expect(result.data[0]).toBe("y");
    expect(result.data.at(-1)).toBe("y");
    await expect(transport.request("next")).resolves.toEqual({ after: true });
  });

  it("a line over maxLineBytes is dropped with a clear error; the connection and the host survive", async () => {
    const transport = await start([], { maxLineBytes: 64 * 1024 });
    const errors: Error[] = [];
    transport.onError = (e) => errors.push(e);
    const big = transport.request("big", { bytes: 1024 * 1024 }, { timeout: 2000 });
    await expect(big).rejects.toThrow("Request timeout after 2000ms");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(MessageTooLargeError);
    expect(errors[0]!.message).toMatch(/^stdout line of at least \d+ bytes exceeds the limit of 65536 bytes/);
    await expect(transport.request("echo", { still: "alive" })).resolves.toEqual({ echo: { still: "alive" } });
  });

  it("10,000 requests in flight: backpressure without a listener per write", async () => {
    const transport = await start();
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    try {
      const payload = "p".repeat(512);
      const results = await Promise.all(
        Array.from({ length: 10_000 }, (_, i) => transport.request<{ echo: { i: number } }>("echo", { i, payload })),
      );
      expect(results.map((r) => r.echo.i)).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("a command that cannot be spawned fails connect() with a clear error naming it", async () => {
    const missing = new StdioTransport({ command: "definitely-not-a-real-mcp-server-xyz" });
    const error = await missing.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpawnError);
    expect((error as SpawnError).message).toBe(
      'Failed to start MCP server command "definitely-not-a-real-mcp-server-xyz": command not found (ENOENT); is it installed and on PATH?',
    );
    expect(missing.connected).toBe(false);
    const named = await createStdioTransport({
      command: "definitely-not-a-real-mcp-server-xyz",
      serverName: "docs",
    }).catch((e: unknown) => e);
    expect(named).toMatchObject({
      serverName: "docs",
      errno: "ENOENT",
      message: expect.stringMatching(
        /^Failed to start MCP server "docs": command "definitely-not-a-real-mcp-server-xyz": command not found/,
      ) as string,
    });
    const dir = mkdtempSync(join(tmpdir(), "stdio-eacces-"));
    try {
      const error2 = await createStdioTransport({ command: dir }).catch((e: unknown) => e);
      expect(error2).toBeInstanceOf(SpawnError);
      expect((error2 as SpawnError).errno).toBe("EACCES");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the child gets a safe base environment plus config.env, unless inheritEnv", () => {
    const parent = {
      PATH: "/bin",
      HOME: "/root",
      AWS_SECRET_ACCESS_KEY: "s3cr3t",
      BASH_FUNC: "() { evil; }",
      SHELL: "() { x; }",
    };
    expect(buildChildEnv({ TOKEN: "t" }, false, parent, "linux")).toEqual({ PATH: "/bin", HOME: "/root", TOKEN: "t" });
    expect(buildChildEnv({ PATH: "/custom" }, true, parent, "linux")).toMatchObject({
      AWS_SECRET_ACCESS_KEY: "s3cr3t",
      PATH: "/custom",
    });
  });

  it("a server behind a company proxy gets the proxy and CA variables (both cases), and still no other secret", () => {
    const network = {
      HTTP_PROXY: "http://proxy:3128",
      https_proxy: "http://user:pw@proxy:3128",
      NO_PROXY: "localhost",
      all_proxy: "socks5://proxy:1080",
      NODE_EXTRA_CA_CERTS: "/etc/ca.pem",
      SSL_CERT_FILE: "/etc/ssl/ca.pem",
      SSL_CERT_DIR: "/etc/ssl/certs",
      REQUESTS_CA_BUNDLE: "/etc/ssl/bundle.pem",
      CURL_CA_BUNDLE: "/etc/ssl/curl.pem",
    };
    for (const platform of ["linux", "win32"] as const) {
      const child = buildChildEnv(
        undefined,
        false,
        { ...network, GITHUB_TOKEN: "ghp_x", PROXY_PASSWORD: "pw" },
        platform,
      );
      expect(child).toMatchObject(network);
      expect(child).not.toHaveProperty("GITHUB_TOKEN");
      expect(child).not.toHaveProperty("PROXY_PASSWORD");
    }
  });

  it("a real child does not see a parent secret by default", async () => {
    process.env["MCP_TEST_SECRET"] = "do-not-leak";
    try {
      process.env["HTTPS_PROXY"] = "http://127.0.0.1:9/";
      const script =
        'process.stdin.once("data", (d) => { const { id } = JSON.parse(d); process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result: { secret: process.env.MCP_TEST_SECRET ?? null, extra: process.env.EXTRA ?? null, proxy: process.env.HTTPS_PROXY ?? null } }) + "\\n"); });';
      const plain = await createStdioTransport({
        command: process.execPath,
        args: ["-e", script],
        env: { EXTRA: "yes" },
      });
      open.push(plain);
      await expect(plain.request("env")).resolves.toEqual({ secret: null, extra: "yes", proxy: "http://127.0.0.1:9/" });
      const inherited = await createStdioTransport({
        command: process.execPath,
        args: ["-e", script],
        inheritEnv: true,
      });
      open.push(inherited);
      await expect(inherited.request("env")).resolves.toEqual({
        secret: "do-not-leak",
        extra: null,
        proxy: "http://127.0.0.1:9/",
      });
    } finally {
      delete process.env["MCP_TEST_SECRET"];
      delete process.env["HTTPS_PROXY"];
    }
  });

  it("parentEnv stands in for this process's environment: its base (or all of it) reaches the child, nothing of process.env does, and the command is found on its PATH", async () => {
    process.env["MCP_TEST_SECRET"] = "do-not-leak";
    process.env["HTTPS_PROXY"] = "http://127.0.0.1:9/";
    const bin = mkdtempSync(join(tmpdir(), "parent-env-"));
    try {
      // A program only the given PATH has.
      writeFileSync(join(bin, "only-here"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$@"\n`, {
        mode: 0o755,
      });
      const script =
        'process.stdin.once("data", (d) => { const { id } = JSON.parse(d); process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result: { secret: process.env.MCP_TEST_SECRET ?? null, proxy: process.env.HTTPS_PROXY ?? null, path: process.env.PATH ?? null, other: process.env.OTHER ?? null } }) + "\\n"); });';
      const parentEnv = { PATH: `${bin}:/usr/bin:/bin`, OTHER: "theirs" };
      const command = process.platform === "win32" ? process.execPath : "only-here";
      const base = await createStdioTransport({ command, args: ["-e", script], parentEnv });
      open.push(base);
      await expect(base.request("env")).resolves.toEqual({
        secret: null,
        proxy: null,
        path: parentEnv.PATH,
        other: null,
      });
      const whole = await createStdioTransport({ command, args: ["-e", script], parentEnv, inheritEnv: true });
      open.push(whole);
      await expect(whole.request("env")).resolves.toEqual({
        secret: null,
        proxy: null,
        path: parentEnv.PATH,
        other: "theirs",
      });
      // Printed, it shows the names only.
      expect(JSON.stringify(base)).not.toContain(bin);
    } finally {
      delete process.env["MCP_TEST_SECRET"];
      delete process.env["HTTPS_PROXY"];
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it("close() while connect() is starting the child: connect rejects, SIGTERM then SIGKILL still end it", async () => {
    // The child ignores SIGTERM and stdin's end, so only the full escalation ends it.
    const transport = new StdioTransport({
      command: "sh",
      args: ["-c", "trap '' TERM; while :; do sleep 0.05; done"],
      closeGraceMs: 100,
      killGraceMs: 200,
    });
    let closes = 0;
    transport.onClose = () => closes++;
    const connecting = transport.connect().catch((e: unknown) => e);
    const closing = transport.close(); // before the child's 'spawn' event
    const pid = transport.pid;
    expect(pid).toBeGreaterThan(0);
    await expect(connecting).resolves.toBeInstanceOf(TransportClosedError);
    await closing;
    expect(transport.exitStatus?.signal).toBe("SIGKILL");
    expect(isAlive(pid!)).toBe(false);
    expect(transport.connected).toBe(false);
    expect(closes).toBe(1);
    await expect(transport.request("echo")).rejects.toBeInstanceOf(TransportClosedError);
  });

  it("firstOutput settles at the child's first output (stderr, or stdout when stderr is ignored), or at close when it writes nothing", async () => {
    // A child that writes only when told to, on the stream the message names.
    const script = [
      'process.stdin.on("data", (d) => {',
      '  if (String(d).includes("to-stderr")) process.stderr.write("e\\n");',
      '  if (String(d).includes("to-stdout")) process.stdout.write("o\\n");',
      "});",
    ].join("\n");
    for (const [target, stderr] of [
      ["to-stderr", "pipe"],
      ["to-stdout", "ignore"],
    ] as const) {
      const transport = await createStdioTransport({ command: process.execPath, args: ["-e", script], stderr });
      open.push(transport);
      transport.onError = () => undefined; // stdout's "o" is not JSON
      let settled = false;
      void transport.firstOutput.then(() => (settled = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false); // the child has not been told to write
      await transport.notify(target);
      await transport.firstOutput;
      expect(transport.connected).toBe(true);
    }
    const mute = await createStdioTransport({ command: process.execPath, args: ["-e", "process.stdin.resume()"] });
    await mute.close();
    await mute.firstOutput; // settled by the close, or this test times out
  });

  it("close() before connect() leaves a closed transport that never spawns", async () => {
    const transport = new StdioTransport({ command: process.execPath, args: [fixture("server.mjs")] });
    await transport.close();
    expect(transport.connected).toBe(false);
    await expect(transport.request("echo")).rejects.toBeInstanceOf(TransportClosedError);
  });

  it("refuses bad configuration with a typed error naming the server and field", () => {
    const attempt = (config: Partial<StdioTransportConfig>): unknown => {
      try {
        new StdioTransport({ command: "x", serverName: "docs", ...config });
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(attempt({ command: "" })).toMatchObject({
      code: "invalid_config",
      field: "command",
      message: 'MCP server "docs": "command" must be a non-empty string',
    });
    expect(attempt({ timeout: -5 })).toMatchObject({
      field: "timeout",
      message: 'MCP server "docs": "timeout" must be a positive number of milliseconds (or Infinity for none); got -5',
    });
    expect(attempt({ timeout: 0 })).toMatchObject({ field: "timeout" });
    expect(attempt({ args: "--flag" as unknown as string[] })).toMatchObject({ field: "args" });
    expect(attempt({ killGraceMs: -1 })).toMatchObject({ field: "killGraceMs" });
    expect(attempt({ timeout: Infinity })).toBeUndefined();
  });

  it("printing a transport shows no env values", async () => {
    const { inspect } = await import("node:util");
    const transport = await start([], { env: { API_TOKEN: "s3cr3t-value" } });
    const printed = inspect(transport, { depth: 5 });
    expect(printed).not.toContain("s3cr3t-value");
    expect(printed).toContain("API_TOKEN");
    expect(transport.config.env?.["API_TOKEN"]).toBe("s3cr3t-value");
  });
});
