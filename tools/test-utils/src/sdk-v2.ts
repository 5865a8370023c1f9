// Servers on the official SDK v2 (`@modelcontextprotocol/server`), which speaks revision 2026-07-28
// and, by default, the 2025 era too. Over node:http (its handler is web-standard) and over stdio.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { listenOnLoopback } from "./loopback.js";
import { fileURLToPath } from "node:url";
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

/** Builds the v2 test server: tools `add`, `slow`, `ask-name` (an MRTR elicitation), prompt `greet`, resource `note://hello`. */
export function buildV2Server(): McpServer {
  const server = new McpServer(
    { name: "sdk-v2-test-server", version: "2.4.0" },
    { capabilities: { resources: { subscribe: true, listChanged: true } } },
  );
  server.registerTool(
    "add",
    { description: "Adds", inputSchema: z.object({ a: z.number(), b: z.number() }) },
    ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  server.registerTool(
    "slow",
    { description: "Answers after ms", inputSchema: z.object({ ms: z.number() }) },
    async ({ ms }, ctx) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        ctx.mcpReq.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return { content: [{ type: "text", text: `slept ${ms}` }] };
    },
  );
  const nameSchema = z.object({ name: z.string() });
  server.registerTool(
    "ask-name",
    { description: "Asks the user for a name (MRTR)", inputSchema: z.object({}) },
    (_args, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "name", nameSchema);
      if (!answer)
        return inputRequired({
          inputRequests: { name: inputRequired.elicit({ message: "Your name?", requestedSchema: nameSchema }) },
          requestState: "asked-once",
        });
      return { content: [{ type: "text", text: `Hello, ${answer.name}` }] };
    },
  );
  server.registerPrompt("greet", { description: "Greets", argsSchema: z.object({ who: z.string() }) }, ({ who }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Hi ${who}` } }],
  }));
  server.registerResource("hello", "note://hello", { mimeType: "text/plain" }, () => ({
    contents: [{ uri: "note://hello", text: "hello note" }],
  }));
  return server;
}

export interface V2HttpServer {
  url: string;
  /** Publishes change notifications to open `subscriptions/listen` streams. */
  notify: {
    toolsChanged(): void;
    promptsChanged(): void;
    resourcesChanged(): void;
    resourceUpdated(uri: string): void;
  };
  requests: { method: string; headers: IncomingMessage["headers"]; body: string }[];
  stop(): Promise<void>;
}

/**
 * The v2 server's web-standard handler on a free loopback port. `legacy: "reject"` makes it
 * 2026-07-28-only; `cors: true` lets a page on another origin call it (any origin, any request
 * header, every response header exposed; preflights answered here). `build` serves another
 * server than {@link buildV2Server}'s. `authorize` checks each request's `Authorization` header:
 * false is answered `401` (after the request is recorded).
 */
export async function startV2HttpServer(
  options: {
    legacy?: "stateless" | "reject";
    cors?: boolean;
    build?: () => McpServer;
    authorize?: (authorization: string | undefined) => Promise<boolean>;
  } = {},
): Promise<V2HttpServer> {
  const handler = createMcpHandler(
    options.build ?? (() => buildV2Server()),
    options.legacy ? { legacy: options.legacy } : {},
  );
  const requests: V2HttpServer["requests"] = [];
  const http: Server = createServer((req, res) => {
    if (options.cors) {
      res.setHeader("access-control-allow-origin", "*");
      res.setHeader("access-control-expose-headers", "*");
      if (req.method === "OPTIONS") {
        res.writeHead(204, {
          "access-control-allow-methods": "GET, POST, DELETE",
          "access-control-allow-headers": "*",
          "access-control-max-age": "600",
        });
        return void res.end();
      }
    }
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: req.method ?? "", headers: req.headers, body });
      if (options.authorize && !(await options.authorize(req.headers.authorization))) {
        res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"', "content-type": "text/plain" });
        return void res.end("invalid token");
      }
      const controller = new AbortController();
      res.on("close", () => controller.abort());
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const request = new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
        method: req.method ?? "GET",
        headers,
        signal: controller.signal,
        ...(body && req.method !== "GET" ? { body } : {}),
      });
      const response = await handler.fetch(request);
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      if (!response.body) return void res.end();
      const reader = response.body.getReader();
      for (;;) {
        const next = (await reader.read()) as { done: true; value?: undefined } | { done: false; value: Uint8Array };
        if (next.done) break;
        res.write(next.value);
      }
      res.end();
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const listening = await listenOnLoopback(http);
  return {
    url: `${listening.origin}/mcp`,
    notify: handler.notify,
    requests,
    stop: async () => {
      await handler.close();
      await listening.stop();
    },
  };
}

/** The entry of a stdio v2 server script: `node <entry> [serve|reject]`. */
export const v2StdioEntry: string = fileURLToPath(new URL("./sdk-v2-stdio.js", import.meta.url));

/** For a test that spawns it itself. */
export function spawnV2Stdio(legacy: "serve" | "reject" = "serve"): ChildProcess {
  return spawn(process.execPath, [v2StdioEntry, legacy], { stdio: ["pipe", "pipe", "pipe"] });
}
