// The implementations the bench compares, each behind the same small interface:
//   open(target) → { call(name, args) → Promise<CallToolResult>, close() }
// where target is { kind: "stdio", command, args } or { kind: "http", url }.
// "raw" is the least work a client can do: write the line (or POST on a keep-alive agent), split,
// JSON.parse, resolve by id. It is the physical limit of this machine, not a usable client.
import { spawn } from "node:child_process";
import http from "node:http";

const CALL_TIMEOUT = 300_000;
const clientInfo = { name: "mcp-bench", version: "1.0.0" };

async function openOurs(target) {
  const { connectToServer, callTool, disconnectServer } = await import("@mcp/client");
  const config =
    target.kind === "stdio"
      ? { command: target.command, args: target.args }
      : { type: "http", url: target.url, fallbackToSse: false };
  const connection = await connectToServer("bench", config, { timeout: CALL_TIMEOUT });
  return {
    call: (name, args) => callTool(connection, name, args, { timeout: CALL_TIMEOUT }),
    close: () => disconnectServer(connection),
  };
}

/**
 * Ours as a program that has no `@opentelemetry/api` installed: a resolve hook makes it unfindable
 * from `@mcp/client` (the hook throws the error a missing package throws), registered before the
 * client is first imported. Everything else is `openOurs`.
 */
async function openOursNoOtel(target) {
  const { register } = await import("node:module");
  register(new URL("./no-otel-hook.mjs", import.meta.url));
  return openOurs(target);
}

/** Ours through the manager: `MCPManager` connects the one server, calls go through its `MCPTool.call`. */
async function openOursManager(target) {
  const { MCPManager } = await import("@mcp/manager");
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const cacheDir = mkdtempSync(join(tmpdir(), "mcp-bench-manager-"));
  const manager = new MCPManager({ cacheDir, connect: { timeout: CALL_TIMEOUT } });
  const config =
    target.kind === "stdio"
      ? { command: target.command, args: target.args }
      : { type: "http", url: target.url, fallbackToSse: false };
  const { tools, errors } = await manager.connectServers({ bench: config });
  if (errors.size > 0) throw new Error([...errors.values()].join("; "));
  const byName = new Map(tools.map((tool) => [tool.toolName, tool]));
  return {
    call: (name, args) => byName.get(name).call(args, { timeout: CALL_TIMEOUT }),
    close: async () => {
      await manager.disconnectAll();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

async function openSdk1(target) {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  let transport;
  if (target.kind === "stdio") {
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    transport = new StdioClientTransport({ command: target.command, args: target.args, stderr: "pipe" });
  } else {
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    transport = new StreamableHTTPClientTransport(new URL(target.url));
  }
  const client = new Client(clientInfo);
  await client.connect(transport);
  return {
    call: (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT }),
    close: () => client.close(),
  };
}

async function openSdk2(target) {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  let transport;
  if (target.kind === "stdio") {
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    transport = new StdioClientTransport({ command: target.command, args: target.args, stderr: "pipe" });
  } else {
    transport = new StreamableHTTPClientTransport(new URL(target.url));
  }
  const client = new Client(clientInfo);
  await client.connect(transport);
  return {
    call: (name, args) => client.callTool({ name, arguments: args }, { timeout: CALL_TIMEOUT }),
    close: () => client.close(),
  };
}

/** Raw stdio: one child, JSONL framing done by hand with no copying beyond what a split needs. */
function openRawStdio(target) {
  const child = spawn(target.command, target.args, { stdio: ["pipe", "pipe", "ignore"] });
  const pending = new Map();
  let nextId = 0;
  let parts = [];
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    let start = 0;
    let nl = chunk.indexOf("\n");
    while (nl !== -1) {
      let line = chunk.slice(start, nl);
      if (parts.length > 0) {
        parts.push(line);
        line = parts.join("");
        parts = [];
      }
      const message = JSON.parse(line);
      const settle = pending.get(message.id);
      pending.delete(message.id);
      settle?.(message);
      start = nl + 1;
      nl = chunk.indexOf("\n", start);
    }
    if (start < chunk.length) parts.push(chunk.slice(start));
  });
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, (m) => (m.error ? reject(new Error(m.error.message)) : resolve(m.result)));
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  return handshake(
    request,
    () => {
      child.stdin.end();
      return new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));
    },
    (line) => child.stdin.write(`${line}\n`),
  );
}

/**
 * A raw request over `post(body) → { type, text }`: number it, POST it, take the one event of one
 * data line (the least SSE parsing there is) or the JSON body, parse.
 */
function rawRequest(post) {
  let nextId = 0;
  return async (method, params) => {
    const { type, text } = await post(JSON.stringify({ jsonrpc: "2.0", id: ++nextId, method, params }));
    const json = type.startsWith("text/event-stream")
      ? text.slice(text.indexOf("data: ") + 6, text.lastIndexOf("\n\n"))
      : text;
    const message = JSON.parse(json);
    if (message.error) throw new Error(message.error.message);
    return message.result;
  };
}

/** Raw HTTP: POST on a keep-alive agent (same socket limit as @mcp/transport-http), read, parse. */
function openRawHttp(target) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL(target.url);
  const post = (body) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () =>
            resolve({
              type: res.headers["content-type"] ?? "",
              text: chunks.length === 1 ? chunks[0].toString("utf8") : Buffer.concat(chunks).toString("utf8"),
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return handshake(
    rawRequest(post),
    async () => agent.destroy(),
    (line) => post(line),
  );
}

/**
 * Raw undici: `Pool.request` on one keep-alive pool (64 connections, as ours), read the body as
 * text, parse. The least an undici-based client can do: the baseline for our HTTP path, which
 * is built on the same `request()` API.
 */
async function openRawUndici(target) {
  const { Pool } = await import("undici");
  const url = new URL(target.url);
  const pool = new Pool(url.origin, { connections: 64 });
  const post = async (body) => {
    const { headers, body: stream } = await pool.request({
      path: url.pathname,
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
    });
    return { type: headers["content-type"] ?? "", text: await stream.text() };
  };
  return handshake(
    rawRequest(post),
    () => pool.destroy(),
    (line) => post(line),
  );
}

async function handshake(request, close, notify) {
  await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo });
  await notify(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return { call: (name, args) => request("tools/call", { name, arguments: args }), close, request };
}

function openRaw(target) {
  return target.kind === "stdio" ? openRawStdio(target) : openRawHttp(target);
}

/** Every implementation, in the order the table shows them. */
export const IMPLS = {
  ours: { label: "@mcp/client", open: openOurs },
  "ours-no-otel": { label: "@mcp/client, no @opentelemetry/api", open: openOursNoOtel, variant: true },
  "ours-manager": { label: "@mcp/manager", open: openOursManager, variant: true },
  sdk1: { label: "SDK 1.x", open: openSdk1 },
  sdk2: { label: "SDK 2.x", open: openSdk2 },
  raw: { label: "raw limit", open: openRaw },
  undici: { label: "raw undici", open: openRawUndici, httpOnly: true },
  // No client: the echo server fed pre-built requests (src/server-bound.mjs); the worker runs it.
  bound: {
    label: "server-bound",
    open: () => Promise.reject(new Error("server-bound has no client")),
    serverBound: true,
  },
};
