// `mcp serve` behind the official SDK clients: 1.x (the 2025 era) and v2 (2026-07-28), over
// stdio and HTTP, with server-everything and the SDK v2 fixture behind the gateway.
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync } from "node:fs";
import {
  cancelMarker,
  childrenOf,
  commandOf,
  gatewayBox,
  getStreams,
  methodsSeen,
  startHttpServe,
  stdioParams,
  type HttpServe,
} from "./serve-helpers.js";
import type { Sandbox } from "./helpers.js";

type Text = { type: string; text: string };
const text = (result: unknown): string => ((result as { content: Text[] }).content ?? []).map((c) => c.text).join("\n");

/** A 1.x client that can answer sampling, elicitation and roots, recording what it was asked. */
function client1(): { client: Client1; asked: string[]; logs: unknown[]; toolsChanged: number[] } {
  const client = new Client1(
    { name: "sdk1-caller", version: "1.0.0" },
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
  );
  const asked: string[] = [];
  const logs: unknown[] = [];
  const toolsChanged: number[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    asked.push(`sampling:${JSON.stringify(request.params.messages[0]?.content)}`);
    return {
      role: "assistant",
      content: { type: "text", text: "sampled by the 1.x caller" },
      model: "caller-model",
      stopReason: "endTurn",
    };
  });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(`elicitation:${request.params.message}`);
    return {
      action: "accept",
      content: {
        name: "Ada Lovelace",
        check: true,
        email: "ada@example.com",
        age: 36,
        score: 9.5,
        color: "red",
        untitledSingleSelectEnum: "option1",
        untitledMultipleSelectEnum: ["option1"],
        titledSingleSelectEnum: "value1",
        titledMultipleSelectEnum: ["value1"],
        legacyTitledEnum: "opt1",
      },
    };
  });
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: "file:///caller/root", name: "caller root" }],
  }));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void toolsChanged.push(Date.now()));
  return { client, asked, logs, toolsChanged };
}

function client2(asked: string[]): Client2 {
  const client = new Client2(
    { name: "sdk2-caller", version: "2.0.0" },
    { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  client.setRequestHandler("elicitation/create", (request) => {
    asked.push(`elicitation:${request.params.message}`);
    const schema =
      (request.params as { requestedSchema?: { properties?: Record<string, unknown> } }).requestedSchema?.properties ??
      {};
    return {
      action: "accept",
      content:
        "name" in schema && Object.keys(schema).length === 1
          ? { name: "Grace" }
          : {
              name: "Grace Hopper",
              check: true,
              email: "grace@example.com",
              age: 85,
              score: 9,
              color: "blue",
              untitledSingleSelectEnum: "option1",
              untitledMultipleSelectEnum: ["option1"],
              titledSingleSelectEnum: "value1",
              titledMultipleSelectEnum: ["value1"],
              legacyTitledEnum: "opt1",
            },
    };
  });
  client.setRequestHandler("sampling/createMessage", () => {
    asked.push("sampling");
    return {
      role: "assistant",
      content: { type: "text", text: "sampled by the v2 caller" },
      model: "caller-model",
      stopReason: "endTurn",
    };
  });
  return client;
}

/** Starts a call of the CLI fixture's `wait`, cancels it once the fixture runs it: it must fail here, and the fixture must have been told. */
async function cancelledUpstream(box: Sandbox, start: (signal: AbortSignal) => Promise<unknown>): Promise<void> {
  rmSync(cancelMarker(box), { force: true });
  rmSync(`${cancelMarker(box)}.started`, { force: true });
  const controller = new AbortController();
  const call = start(controller.signal);
  call.catch(() => undefined); // awaited below; not unhandled while the fixture starts
  await expect.poll(() => existsSync(`${cancelMarker(box)}.started`), { timeout: 15_000 }).toBe(true);
  controller.abort();
  await expect(call).rejects.toThrow();
  await expect
    .poll(() => existsSync(cancelMarker(box)) && readFileSync(cancelMarker(box), "utf8"), { timeout: 5_000 })
    .toBe("cancelled");
}

/** What every era and transport must show: the list, calls on both servers, errors with their codes. */
async function listsAndCalls(
  client: {
    listTools(): Promise<{ tools: { name: string }[] }>;
    callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  },
  prefix = true,
): Promise<void> {
  const names = (await client.listTools()).tools.map((t) => t.name);
  if (prefix) {
    expect(names).toEqual(expect.arrayContaining(["everything__echo", "everything__get-sum", "v2__add", "v2__slow"]));
    expect(
      text(await client.callTool({ name: "everything__echo", arguments: { message: "through the gateway" } })),
    ).toBe("Echo: through the gateway");
    expect(text(await client.callTool({ name: "v2__add", arguments: { a: 2, b: 40 } }))).toBe("42");
  }
}

describe("mcp serve --stdio", () => {
  let box: Sandbox;
  beforeAll(() => void (box = gatewayBox()));
  afterAll(() => box.remove());

  it("SDK 1.x: lists, calls, forwards progress, logs, sampling, elicitation and roots, keeps error codes, cancels", async () => {
    const { client, asked, logs } = client1();
    const transport = new Stdio1(stdioParams(box));
    await client.connect(transport);
    try {
      await listsAndCalls(client);
      // Progress from upstream, with the caller's own token.
      const progress: number[] = [];
      const long = await client.callTool(
        { name: "everything__trigger-long-running-operation", arguments: { duration: 1, steps: 4 } },
        undefined,
        { onprogress: (p) => void progress.push(p.progress) },
      );
      expect(text(long)).toContain("Long running operation completed");
      // The SDK 1.x client drops a progress notification that arrives in one read with the result.
      expect(progress.slice(0, 3)).toEqual([1, 2, 3]);
      // server-everything asks the gateway; the gateway asks this caller.
      const sampled = text(
        await client.callTool({
          name: "everything__trigger-sampling-request",
          arguments: { prompt: "hello from the caller" },
        }),
      );
      expect(sampled).toContain("sampled by the 1.x caller");
      expect(asked.some((a) => a.startsWith("sampling:") && a.includes("hello from the caller"))).toBe(true);
      const elicited = text(await client.callTool({ name: "everything__trigger-elicitation-request", arguments: {} }));
      expect(elicited).toContain("Ada Lovelace");
      // The caller's answer arrives upstream unchanged (no defaults filled in by the gateway).
      expect(elicited).toContain('"action": "accept"');
      // Log messages a server sends between requests reach connected callers, named by their logger.
      await client.callTool({ name: "everything__toggle-simulated-logging", arguments: {} });
      await expect.poll(() => logs.length, { timeout: 15_000 }).toBeGreaterThan(0);
      await client.callTool({ name: "everything__toggle-simulated-logging", arguments: {} });
      expect(logs[0]).toMatchObject({ level: expect.any(String), data: expect.anything() });
      const roots = text(await client.callTool({ name: "everything__get-roots-list", arguments: {} }));
      expect(roots).toContain("file:///caller/root");
      // The v2 fixture's MRTR elicitation (2026-07-28 upstream) reaches a 2025 caller as a real request.
      expect(text(await client.callTool({ name: "v2__ask-name", arguments: {} }))).toBe("Hello, Ada Lovelace");
      // Errors keep their codes: an unknown tool, and an upstream resource error.
      await expect(client.callTool({ name: "everything__nope", arguments: {} })).rejects.toMatchObject({
        code: -32602,
      });
      await expect(client.callTool({ name: "nobody__echo", arguments: {} })).rejects.toMatchObject({ code: -32602 });
      // server-everything's own answer (its code and message) for a URI its template matches; the gateway's own resource-not-found (-32602 with data { uri }) for one nobody serves.
      await expect(client.readResource({ uri: "demo://resource/static/document/missing.md" })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("missing.md"),
      });
      await expect(client.readResource({ uri: "nowhere://x" })).rejects.toMatchObject({
        code: -32602,
        data: { uri: "nowhere://x" },
      });
      // Cancelling reaches upstream: the fixture's wait is told (it writes its marker), and the gateway serves the next call at once.
      const started = Date.now();
      await cancelledUpstream(box, (signal) =>
        client.callTool({ name: "fixture__wait", arguments: { ms: 20_000 } }, undefined, { signal }),
      );
      expect(text(await client.callTool({ name: "v2__add", arguments: { a: 1, b: 1 } }))).toBe("2");
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("SDK 1.x: prompts, resources, templates and completions, routed to their server", async () => {
    const { client } = client1();
    await client.connect(new Stdio1(stdioParams(box)));
    try {
      const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
      expect(prompts).toEqual(expect.arrayContaining(["everything__args-prompt", "v2__greet"]));
      expect(
        JSON.stringify((await client.getPrompt({ name: "v2__greet", arguments: { who: "gateway" } })).messages),
      ).toContain("Hi gateway");
      expect(
        JSON.stringify(
          (await client.getPrompt({ name: "everything__args-prompt", arguments: { city: "Lisbon" } })).messages,
        ),
      ).toContain("Lisbon");
      const resources = (await client.listResources()).resources.map((r) => r.uri);
      expect(resources).toEqual(expect.arrayContaining(["note://hello"]));
      expect((await client.readResource({ uri: "note://hello" })).contents[0]).toMatchObject({ text: "hello note" });
      const everythingDoc = resources.find((uri) => uri.startsWith("demo://resource/static/document/"))!;
      expect((await client.readResource({ uri: everythingDoc })).contents[0]!.uri).toBe(everythingDoc);
      const templates = (await client.listResourceTemplates()).resourceTemplates;
      expect(templates.length).toBeGreaterThan(0);
      const values = await client.complete({
        ref: { type: "ref/prompt", name: "everything__completable-prompt" },
        argument: { name: "department", value: "S" },
      });
      expect(values.completion.values).toEqual(["Sales", "Support"]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("SDK v2 at 2026-07-28: lists and calls; a server's questions come back as input_required rounds", async () => {
    const asked: string[] = [];
    const client = client2(asked);
    await client.connect(new Stdio2(stdioParams(box)));
    try {
      await listsAndCalls(client);
      // Upstream 2026-07-28 MRTR, and upstream 2025 elicitation, both as rounds to this caller.
      expect(text(await client.callTool({ name: "v2__ask-name", arguments: {} }))).toBe("Hello, Grace");
      expect(text(await client.callTool({ name: "everything__trigger-elicitation-request", arguments: {} }))).toContain(
        "Grace Hopper",
      );
      expect(
        text(await client.callTool({ name: "everything__trigger-sampling-request", arguments: { prompt: "p" } })),
      ).toContain("sampled by the v2 caller");
      expect(asked).toEqual(["elicitation:Your name?", expect.stringContaining("elicitation:"), "sampling"]);
      const progress: number[] = [];
      await client.callTool(
        { name: "everything__trigger-long-running-operation", arguments: { duration: 1, steps: 2 } },
        { onprogress: (p: { progress: number }) => void progress.push(p.progress) },
      );
      expect(progress[0]).toBe(1);
      // A 2026-07-28 caller's cancellation reaches upstream too.
      await cancelledUpstream(box, (signal) =>
        client.callTool({ name: "fixture__wait", arguments: { ms: 20_000 } }, { signal }),
      );
    } finally {
      await client.close();
    }
  }, 60_000);

  it("SDK v2 at 2026-07-28: a server restarted behind the gateway reaches the caller's subscriptions/listen as tools list_changed", async () => {
    let changed = 0;
    const client = new Client2(
      { name: "sdk2-listener", version: "2.0.0" },
      {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
        listChanged: { tools: { autoRefresh: false, onChanged: () => void changed++ } },
      },
    );
    const transport = new Stdio2(stdioParams(box));
    const seen = methodsSeen(transport);
    await client.connect(transport);
    try {
      expect(text(await client.callTool({ name: "everything__echo", arguments: { message: "a" } }))).toBe("Echo: a");
      // Once the gateway has acknowledged the subscription, kill server-everything under it.
      await expect.poll(() => seen, { timeout: 15_000 }).toContain("notifications/subscriptions/acknowledged");
      const before = changed;
      let upstream: number | undefined;
      for (const pid of await childrenOf(transport.pid!))
        if ((await commandOf(pid)).includes("server-everything")) upstream = pid;
      process.kill(upstream!, "SIGKILL");
      await expect.poll(() => changed, { timeout: 15_000 }).toBeGreaterThan(before);
      await expect
        .poll(() => client.callTool({ name: "everything__echo", arguments: { message: "b" } }).then(text, () => ""), {
          timeout: 15_000,
        })
        .toBe("Echo: b");
    } finally {
      await client.close();
    }
  }, 60_000);

  it("a tool that needs a task: listed without execution, and called plainly, the gateway waits on the task and answers with its result", async () => {
    const { client } = client1();
    await client.connect(new Stdio1(stdioParams(box)));
    try {
      const listed = (await client.listTools()).tools.find((t) => t.name === "everything__simulate-research-query")!;
      expect(listed.execution).toBeUndefined();
      // Fields the gateway does not know of are passed through as the server listed them.
      expect(listed.annotations).toBeDefined();
      const report = text(
        await client.callTool(
          { name: "everything__simulate-research-query", arguments: { topic: "tides" } },
          undefined,
          { timeout: 30_000 },
        ),
      );
      expect(report).toContain("# Research Report: tides");
    } finally {
      await client.close();
    }
  }, 60_000);

  it("--allow and --deny limit what the caller sees and may call", async () => {
    const { client } = client1();
    await client.connect(
      new Stdio1(stdioParams(box, ["--allow", "everything__*,v2__add", "--deny", "everything__trigger-*"])),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("everything__echo");
      expect(names).toContain("v2__add");
      expect(names).not.toContain("v2__slow");
      expect(names.some((n) => n.startsWith("everything__trigger-"))).toBe(false);
      await expect(client.callTool({ name: "v2__slow", arguments: { ms: 1 } })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("not allowed"),
      });
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("mcp serve --http", () => {
  let box: Sandbox;
  let serve: HttpServe;
  const TOKEN = "gateway-test-token-0123456789";
  beforeAll(async () => {
    box = gatewayBox();
    serve = await startHttpServe(box, [], { MCP_SERVE_TOKEN: TOKEN });
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
    box.remove();
  });
  const auth = { headers: { authorization: `Bearer ${TOKEN}` } };

  it("refuses a missing or wrong token, a foreign Host or Origin, and an unknown path", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const post = (headers: Record<string, string>, url = serve.url) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body,
      });
    expect((await post({})).status).toBe(401);
    expect((await post({})).headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await post({ authorization: "Bearer wrong-token-wrong-token-00" })).status).toBe(401);
    expect((await post({ ...auth.headers, origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ ...auth.headers }, `${serve.url}/nobody`)).status).toBe(404);
    // A DNS-rebinding request names another host.
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve) => {
      const u = new URL(serve.url);
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: "POST",
          headers: { host: "attacker.example", ...auth.headers, "content-type": "application/json" },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.end(body);
    });
    expect(status).toBe(403);
    // A token in a URL's query string is not a token.
    expect((await post({}, `${serve.url}?token=${TOKEN}`)).status).toBe(401);
    // No token was printed: it came from MCP_SERVE_TOKEN.
    expect(serve.stderr()).not.toContain(TOKEN);
  });

  it("SDK 1.x over a 2025 session: calls, progress, sampling and elicitation forwarded", async () => {
    const { client, asked } = client1();
    await client.connect(new Http1(new URL(serve.url), { requestInit: auth }));
    try {
      await listsAndCalls(client);
      const progress: number[] = [];
      await client.callTool(
        { name: "everything__trigger-long-running-operation", arguments: { duration: 1, steps: 3 } },
        undefined,
        { onprogress: (p) => void progress.push(p.progress) },
      );
      expect(progress.slice(0, 2)).toEqual([1, 2]);
      expect(
        text(
          await client.callTool({ name: "everything__trigger-sampling-request", arguments: { prompt: "over http" } }),
        ),
      ).toContain("sampled by the 1.x caller");
      expect(text(await client.callTool({ name: "v2__ask-name", arguments: {} }))).toBe("Hello, Ada Lovelace");
      expect(asked.length).toBe(2);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("SDK v2 at 2026-07-28 over HTTP: stateless calls and input_required rounds", async () => {
    const asked: string[] = [];
    const client = client2(asked);
    await client.connect(new Http2(new URL(serve.url), { requestInit: auth }));
    try {
      await listsAndCalls(client);
      expect(text(await client.callTool({ name: "v2__ask-name", arguments: {} }))).toBe("Hello, Grace");
      expect(
        text(await client.callTool({ name: "everything__trigger-sampling-request", arguments: { prompt: "p" } })),
      ).toContain("sampled by the v2 caller");
      await expect(client.callTool({ name: "everything__nope", arguments: {} })).rejects.toMatchObject({
        code: -32602,
      });
    } finally {
      await client.close();
    }
  }, 60_000);

  it("/mcp/<server> serves one server with its own names", async () => {
    const { client } = client1();
    await client.connect(new Http1(new URL(`${serve.url}/v2`), { requestInit: auth }));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(names).toEqual(["add", "ask-name", "slow"]);
      expect(text(await client.callTool({ name: "add", arguments: { a: 3, b: 4 } }))).toBe("7");
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("a server restarted behind the gateway: callers of both eras are told the list changed, and calls work again", async () => {
    const { client, toolsChanged } = client1();
    const streams = getStreams();
    await client.connect(new Http1(new URL(serve.url), { requestInit: auth, fetch: streams.fetch }));
    // A 2026-07-28 caller hears of it on its subscriptions/listen stream.
    let modernChanged = 0;
    const modern = new Client2(
      { name: "sdk2-listener", version: "2.0.0" },
      {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
        listChanged: { tools: { autoRefresh: false, onChanged: () => void modernChanged++ } },
      },
    );
    const modernTransport = new Http2(new URL(serve.url), { requestInit: auth });
    const modernSeen = methodsSeen(modernTransport);
    await modern.connect(modernTransport);
    try {
      // A GET stream carries the 2025 session's notifications; the modern one's subscription is acknowledged.
      await expect.poll(() => streams.opened(), { timeout: 15_000 }).toBeGreaterThan(0);
      await expect.poll(() => modernSeen, { timeout: 15_000 }).toContain("notifications/subscriptions/acknowledged");
      const children = await childrenOf(serve.child.pid!);
      let upstream: number | undefined;
      for (const pid of children) if ((await commandOf(pid)).includes("server-everything")) upstream = pid;
      expect(upstream).toBeDefined();
      const modernBefore = modernChanged;
      process.kill(upstream!, "SIGKILL");
      const before = toolsChanged.length;
      const deadline = Date.now() + 20_000;
      let answer = "";
      while (Date.now() < deadline) {
        answer = await client
          .callTool({ name: "everything__echo", arguments: { message: "back" } })
          .then(text, (e: Error) => e.message);
        if (answer === "Echo: back") break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(answer).toBe("Echo: back");
      const restarted = (await childrenOf(serve.child.pid!)).filter((pid) => pid !== upstream);
      expect(restarted.length).toBe(3);
      await expect.poll(() => toolsChanged.length, { timeout: 10_000 }).toBeGreaterThan(before);
      await expect.poll(() => modernChanged, { timeout: 10_000 }).toBeGreaterThan(modernBefore);
    } finally {
      await client.close();
      await modern.close();
    }
  }, 60_000);
});

describe("mcp serve --http --callers", () => {
  it("each caller sees only what its lists allow; a caller's 2025 session is its own", async () => {
    const box = gatewayBox();
    const file = box.write(`${box.project}/callers.json`, {
      reader: { token: "reader-token-0123456789", allow: ["everything__echo"] },
      admin: { token: "admin-token-0123456789ab" },
      v2only: { token: "v2only-token-0123456789", allow: ["v2__*"] },
    });
    const serve = await startHttpServe(box, ["--callers", file]);
    try {
      expect(serve.token).toBe("");
      const streams = getStreams();
      const reader = new Client1({ name: "reader", version: "1" });
      await reader.connect(
        new Http1(new URL(serve.url), {
          requestInit: { headers: { authorization: "Bearer reader-token-0123456789" } },
          fetch: streams.fetch,
        }),
      );
      expect((await reader.listTools()).tools.map((t) => t.name)).toEqual(["everything__echo"]);
      await expect(reader.callTool({ name: "v2__add", arguments: { a: 1, b: 2 } })).rejects.toMatchObject({
        code: -32602,
      });
      // A server none of whose tools a caller may use is hidden from it whole: prompts, resources, completions;
      // and a prompt is allowed by its own name (`everything__echo` allows no prompt of everything).
      const readerPrompts = (await reader.listPrompts()).prompts.map((p) => p.name);
      expect(readerPrompts).toEqual([]);
      await expect(reader.getPrompt({ name: "v2__greet", arguments: { who: "x" } })).rejects.toMatchObject({
        code: -32602,
      });
      expect((await reader.listResources()).resources.map((r) => r.uri)).not.toContain("note://hello");
      await expect(reader.readResource({ uri: "note://hello" })).rejects.toMatchObject({
        code: -32602,
        data: { uri: "note://hello" },
      });
      const sessionId = (reader.transport as Http1).sessionId!;
      // The admin's token does not open the reader's session.
      const hijack = await fetch(serve.url, {
        method: "POST",
        headers: {
          authorization: "Bearer admin-token-0123456789ab",
          "mcp-session-id": sessionId,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      });
      expect(hijack.status).toBe(403);
      const admin = new Client1({ name: "admin", version: "1" });
      await admin.connect(
        new Http1(new URL(serve.url), {
          requestInit: { headers: { authorization: "Bearer admin-token-0123456789ab" } },
          fetch: streams.fetch,
        }),
      );
      expect((await admin.listTools()).tools.length).toBeGreaterThan(10);
      // server-everything (2025 era, stdio) ties its logs to no request: with several callers each
      // gets a server process of its own, so the logs the admin turned on reach the admin only.
      const logsOf = (client: Client1): unknown[] => {
        const seen: unknown[] = [];
        client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.push(n.params));
        return seen;
      };
      const v2only = new Client1({ name: "v2only", version: "1" });
      await v2only.connect(
        new Http1(new URL(serve.url), {
          requestInit: { headers: { authorization: "Bearer v2only-token-0123456789" } },
          fetch: streams.fetch,
        }),
      );
      const adminLogs = logsOf(admin);
      const readerLogs = logsOf(reader);
      const v2Logs = logsOf(v2only);
      // Each session's GET stream carries what is not a reply: all three are open.
      await expect.poll(() => streams.opened(), { timeout: 15_000 }).toBe(3);
      await admin.callTool({ name: "everything__toggle-simulated-logging", arguments: {} });
      await expect.poll(() => adminLogs.length, { timeout: 20_000 }).toBeGreaterThan(1);
      await admin.callTool({ name: "everything__toggle-simulated-logging", arguments: {} });
      expect(readerLogs).toEqual([]);
      expect(v2Logs).toEqual([]);
      await reader.close();
      await admin.close();
      await v2only.close();
    } finally {
      await serve.stop();
      box.remove();
    }
  }, 60_000);
});
