// `mcp inspect` without a browser: who may talk to it, what its API answers, and that it stops
// cleanly. Against the embedded default server (server-everything over stdio), in a sandbox.
import { request, type IncomingMessage } from "node:http";
import { networkInterfaces } from "node:os";
import { connect } from "node:net";
import { freePort, isAlive, waitFor } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, mcp, sandbox, userConfig, type Sandbox } from "./helpers.js";
import { startInspect, type RunningInspector } from "./inspect-helpers.js";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with exactly the headers given (fetch would not let a test set Host). */
function raw(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method ?? "GET",
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

let box: Sandbox;
let inspector: RunningInspector;
let json: (path: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer>;

beforeAll(async () => {
  box = sandbox();
  inspector = await startInspect(box);
  json = (path, body, headers = {}) =>
    raw(inspector.port, path, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        "x-inspector-token": inspector.token,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  // The embedded server connects in the background.
  await waitFor(
    async () =>
      (JSON.parse((await json("/api/state")).body) as { servers: { status: string }[] }).servers[0]?.status ===
      "connected",
    20_000,
  ).catch(() => {
    throw new Error(`the embedded server did not connect: ${inspector.stderr()}`);
  });
});

afterAll(async () => {
  await inspector?.stop();
  box?.remove();
});

describe("mcp inspect: access", () => {
  it("prints a loopback URL with a long random token", () => {
    expect(inspector.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
  });

  it("refuses every request without the token, or with a wrong one", async () => {
    for (const path of ["/", "/api/state", "/api/events", "/api/nothing"]) {
      const answer = await raw(inspector.port, path);
      expect(answer.status, path).toBe(401);
      expect(answer.body).toContain("token");
    }
    expect((await raw(inspector.port, `/?token=${inspector.token.slice(0, -1)}x`)).status).toBe(401);
    expect(
      (await raw(inspector.port, "/api/state", { headers: { "x-inspector-token": inspector.token.slice(1) } })).status,
    ).toBe(401);
    const call = await raw(inspector.port, "/api/call", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "x", tool: "mcp__everything__echo", arguments: { message: "no" } }),
    });
    expect(call.status).toBe(401);
  });

  it("refuses a foreign Host even with the token (DNS rebinding)", async () => {
    for (const host of [
      "evil.example:80",
      `evil.example:${inspector.port}`,
      `127.0.0.1.nip.io:${inspector.port}`,
      "127.0.0.1",
    ]) {
      const answer = await raw(inspector.port, `/?token=${inspector.token}`, { headers: { host } });
      expect(answer.status, host).toBe(403);
      expect(answer.body).toContain("Host");
    }
    expect(
      (await raw(inspector.port, `/?token=${inspector.token}`, { headers: { host: `localhost:${inspector.port}` } }))
        .status,
    ).toBe(200);
  });

  it("refuses a foreign Origin and cross-site fetches even with the token", async () => {
    const body = { id: "o1", tool: "mcp__everything__echo", arguments: { message: "from elsewhere" } };
    for (const origin of [
      "http://evil.example",
      `http://127.0.0.1:${inspector.port + 1}`,
      `https://127.0.0.1:${inspector.port}`,
      "null",
    ]) {
      const answer = await json("/api/call", body, { origin });
      expect(answer.status, origin).toBe(403);
      expect(answer.body).toContain("Origin");
    }
    expect((await json("/api/state", undefined, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await json("/api/state", undefined, { "sec-fetch-site": "same-site" })).status).toBe(403);
    const own = await json("/api/call", body, {
      origin: `http://127.0.0.1:${inspector.port}`,
      "sec-fetch-site": "same-origin",
    });
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body).result.content[0].text).toBe("Echo: from elsewhere");
  });

  it("answers no CORS preflight and sends no CORS headers", async () => {
    const preflight = await raw(inspector.port, "/api/call", {
      method: "OPTIONS",
      headers: { origin: "http://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(403);
    const state = await json("/api/state");
    expect(Object.keys(state.headers).filter((h) => h.startsWith("access-control"))).toEqual([]);
  });

  it("listens on 127.0.0.1 only", async () => {
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal)
      .map((a) => a!.address);
    for (const address of ["::1", ...others]) {
      const refused = await new Promise<boolean>((resolve) => {
        const socket = connect({ host: address, port: inspector.port });
        socket.once("connect", () => {
          socket.destroy();
          resolve(false);
        });
        socket.once("error", () => resolve(true));
      });
      expect(refused, address).toBe(true);
    }
  });

  it("serves the page with a strict CSP, no caching and no referrer", async () => {
    const page = await raw(inspector.port, `/?token=${inspector.token}`);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!;
    expect(page.body).toContain(`<script nonce="${nonce}"`);
    expect(page.body).not.toContain(inspector.token);
  });

  it("refuses bodies that are not JSON objects, or too big", async () => {
    const text = await raw(inspector.port, "/api/call", {
      method: "POST",
      headers: { "x-inspector-token": inspector.token, "content-type": "text/plain" },
      body: "{}",
    });
    expect(text.status).toBe(415);
    const big = await raw(inspector.port, "/api/prompt", {
      method: "POST",
      headers: { "x-inspector-token": inspector.token, "content-type": "application/json" },
      body: JSON.stringify({ pad: "x".repeat(1_100_000) }),
    });
    expect(big.status).toBe(413);
    const bad = await raw(inspector.port, "/api/read", {
      method: "POST",
      headers: { "x-inspector-token": inspector.token, "content-type": "application/json" },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).message).toContain("not JSON");
    expect((await json("/api/read", [])).status).toBe(400);
    expect(JSON.parse((await json("/api/read", { server: "everything" })).body).message).toBe(
      '"uri" must be a non-empty string',
    );
  });
});

describe("mcp inspect: --port", () => {
  it("listens on the port given, and says so when it is taken", async () => {
    const port = await freePort();
    const other = sandbox();
    const first = await startInspect(other, ["--port", String(port)]);
    let stopped: number | null | undefined;
    try {
      expect(first.port).toBe(port);
      expect(first.url).toBe(`http://127.0.0.1:${port}/?token=${first.token}`);
      const second = await mcp(other, ["inspect", "--no-open", "--port", String(port)]);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`mcp inspect could not listen on 127.0.0.1:${port}: listen EADDRINUSE`);
      expect((await mcp(other, ["inspect", "--port", "70000"])).stderr).toContain("expected a port number (0-65535)");
    } finally {
      // Stopped whatever happened above; its exit code is checked after (an expect here would hide the first failure).
      stopped = await first.stop();
      other.remove();
    }
    expect(stopped).toBe(0);
  });
});

describe("mcp inspect: server requests", () => {
  let other: Sandbox;
  let running: RunningInspector;
  const post = async (path: string, body: unknown) =>
    JSON.parse(
      (
        await raw(running.port, path, {
          method: "POST",
          headers: { "x-inspector-token": running.token, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).body,
    );
  const state = async () =>
    JSON.parse((await raw(running.port, "/api/state", { headers: { "x-inspector-token": running.token } })).body);
  const openDialog = async () => {
    await waitFor(async () => (await state()).dialogs.length > 0, 5000);
    return (await state()).dialogs[0];
  };
  beforeAll(async () => {
    other = sandbox();
    userConfig(other, { fixture: { command: process.execPath, args: [fixture] } });
    running = await startInspect(other);
    await waitFor(async () => (await state()).servers[0]?.status === "connected", 10_000);
  });
  afterAll(async () => {
    const stopped = await running.stop();
    other.remove();
    expect(stopped).toBe(0);
  });

  it("withdraws a dialog the server gave up on; answering it then says so", async () => {
    // The server waits 2 s for an answer nobody gives, then cancels its request.
    const asked = post("/api/call", { id: "ask-1", tool: "mcp__fixture__ask", arguments: { ms: 2000 } });
    const dialog = await openDialog();
    expect(dialog).toMatchObject({ server: "fixture", kind: "elicitation", message: "Quick: ok?" });
    expect((await asked).result.content[0].text).toContain("gave up: MCP error -32001: Request timed out");
    await waitFor(async () => (await state()).dialogs.length === 0, 5000);
    expect(await post("/api/dialog", { id: dialog.id, action: "accept", content: { ok: true } })).toEqual({
      message: "that dialog is no longer open (the server withdrew it, or it was answered)",
    });
    const withdrawn = (await state()).log.find(
      (e: { kind: string; method: string }) => e.kind === "error" && e.method === "elicitation/create",
    );
    expect(withdrawn.error).toMatch(/^withdrawn before an answer: /);
  });

  it("an answer in time reaches the server", async () => {
    const asked = post("/api/call", { id: "ask-2", tool: "mcp__fixture__ask", arguments: { ms: 10_000 } });
    expect(await post("/api/dialog", { id: (await openDialog()).id, action: "accept", content: { ok: true } })).toEqual(
      { ok: true },
    );
    expect((await asked).result.content[0].text).toBe('answered {"action":"accept","content":{"ok":true}}');
  });

  it("a declined dialog is reported to the server, and the log shows each request and its outcome", async () => {
    const asked = post("/api/call", { id: "ask-3", tool: "mcp__fixture__ask", arguments: { ms: 10_000 } });
    expect(await post("/api/dialog", { id: (await openDialog()).id, action: "decline" })).toEqual({ ok: true });
    expect((await asked).result.content[0].text).toBe('answered {"action":"decline"}');
    const kinds = (await state()).log
      .filter((e: { method: string }) => e.method === "elicitation/create")
      .map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(["server-request", "error", "server-request", "response", "server-request", "response"]);
  });
});

/** The inspector's event stream, its chunks collected as they arrive. */
async function openEvents(): Promise<{ events: string[]; stream: IncomingMessage }> {
  const events: string[] = [];
  const stream = await new Promise<IncomingMessage>((resolve, reject) => {
    request(
      {
        host: "127.0.0.1",
        port: inspector.port,
        path: `/api/events?token=${inspector.token}`,
        headers: { host: `127.0.0.1:${inspector.port}` },
      },
      resolve,
    )
      .on("error", reject)
      .end();
  });
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => events.push(chunk));
  return { events, stream };
}

describe("mcp inspect: the API", () => {
  it("lists tools in the same shape as mcp tools --json", async () => {
    const state = JSON.parse((await json("/api/state")).body);
    const cli = await mcp(box, ["tools", "--json"]);
    expect(cli.code).toBe(0);
    const fromCli = JSON.parse(cli.stdout) as { name: string }[];
    const byName = new Map(state.tools.map((t: { name: string }) => [t.name, t]));
    // The inspector advertises elicitation and sampling (and runs them as tasks when asked), so
    // server-everything offers it more tools.
    expect(fromCli.length).toBeGreaterThan(5);
    // The same rows, but for what only the inspector's list says: a tool's app (`ui`) and its task support.
    const inspectorOnly = (row: unknown): unknown => {
      const { ui: _ui, taskSupport: _taskSupport, ...rest } = row as Record<string, unknown>;
      return rest;
    };
    for (const tool of fromCli) expect(inspectorOnly(byName.get(tool.name)), tool.name).toEqual(tool);
    expect(byName.get("mcp__everything__simulate-research-query")).toMatchObject({ taskSupport: "required" });
    expect(state.servers[0]).toMatchObject({
      name: "everything",
      transport: "stdio",
      source: "(embedded default)",
      status: "connected",
    });
    expect(state.servers[0].capabilities).toEqual(
      expect.arrayContaining(["tools", "resources", "prompts", "completions"]),
    );
    expect(state.tools.map((t: { tool: string }) => t.tool)).toEqual(
      expect.arrayContaining([
        "trigger-elicitation-request",
        "trigger-sampling-request",
        "trigger-elicitation-request-async",
        "trigger-sampling-request-async",
      ]),
    );
  });

  it("streams progress, cancels the call, and logs it with its time", async () => {
    const { events, stream } = await openEvents();
    const started = Date.now();
    const pending = json("/api/call", {
      id: "long-1",
      tool: "mcp__everything__trigger-long-running-operation",
      arguments: { duration: 20, steps: 20 },
    });
    await waitFor(() => events.join("").includes('"type":"progress"'), 10_000);
    expect(events.join("")).toContain('"id":"long-1"');
    const cancel = await json("/api/cancel", { id: "long-1" });
    expect(JSON.parse(cancel.body)).toEqual({ ok: true, found: true });
    const answer = JSON.parse((await pending).body);
    expect(answer.error).toEqual({
      message: "Cancelled (the server was sent notifications/cancelled)",
      code: "cancelled",
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    stream.destroy();
    const log = JSON.parse((await json("/api/state")).body).log as { kind: string; method: string; ms?: number }[];
    const failed = log.filter((e) => e.method === "tools/call" && e.kind === "error");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.at(-1)!.ms).toBeGreaterThan(0);
    // The server is still there for the next call.
    const echo = JSON.parse(
      (await json("/api/call", { id: "after", tool: "mcp__everything__echo", arguments: { message: "still here" } }))
        .body,
    );
    expect(echo.result.content[0].text).toBe("Echo: still here");
  });

  it("a tool that runs as a task: its statuses stream as task events and stay in the state; cancelling one marks it cancelled", async () => {
    const { events, stream } = await openEvents();
    try {
      const done = JSON.parse(
        (
          await json("/api/call", {
            id: "task-1",
            tool: "mcp__everything__simulate-research-query",
            arguments: { topic: "tides" },
          })
        ).body,
      );
      expect(done.result.content[0].text).toContain("# Research Report: tides");
      const taskEvents = events
        .join("")
        .split("\n\n")
        .map((frame) => frame.replace(/^data: /, ""))
        .filter((frame) => frame.includes('"type":"task"'))
        .map((frame) => (JSON.parse(frame) as { task: { id: string; status: string; statusMessage?: string } }).task)
        .filter((task) => task.id === "task-1");
      expect(taskEvents[0]).toMatchObject({ status: "working" });
      expect(taskEvents.map((t) => t.status)).toContain("completed");
      expect(taskEvents.some((t) => /./.test(t.statusMessage ?? ""))).toBe(true);

      // Another one, cancelled from the page while it works.
      const pending = json("/api/call", {
        id: "task-2",
        tool: "mcp__everything__simulate-research-query",
        arguments: { topic: "waves" },
      });
      await waitFor(() => events.join("").includes('"id":"task-2"'), 10_000);
      await json("/api/cancel", { id: "task-2" });
      expect(JSON.parse((await pending).body).error.code).toBe("cancelled");
      const tasks = (
        JSON.parse((await json("/api/state")).body) as {
          tasks: { id: string; status: string; ended: boolean; taskId: string }[];
        }
      ).tasks;
      expect(tasks.map((t) => [t.id, t.status, t.ended])).toEqual([
        ["task-1", "completed", true],
        ["task-2", "cancelled", true],
      ]);
      expect(tasks[0]!.taskId).not.toBe("");
    } finally {
      stream.destroy();
    }
  }, 30_000);

  it("reads resources, gets prompts and completes arguments, with typed errors", async () => {
    const rows = JSON.parse((await json("/api/resources", {})).body) as { uri: string; template: boolean }[];
    const doc = rows.find((r) => !r.template)!;
    const read = JSON.parse((await json("/api/read", { server: "everything", uri: doc.uri })).body);
    expect(read.contents[0].uri).toBe(doc.uri);
    expect(read.contents[0].text.length).toBeGreaterThan(10);
    const prompt = JSON.parse(
      (await json("/api/prompt", { server: "everything", name: "args-prompt", arguments: { city: "Lisbon" } })).body,
    );
    expect(JSON.stringify(prompt.messages)).toContain("Lisbon");
    const values = JSON.parse(
      (
        await json("/api/complete", {
          server: "everything",
          ref: { type: "ref/prompt", name: "completable-prompt" },
          argument: { name: "department", value: "S" },
        })
      ).body,
    );
    expect(values).toEqual({ values: ["Sales", "Support"] });
    const missing = await json("/api/read", { server: "nowhere", uri: doc.uri });
    expect(missing.status).toBe(409);
    expect(JSON.parse(missing.body)).toEqual({
      message: 'server "nowhere" is not connected (not configured)',
      code: "server_unavailable",
    });
    const unknown = await json("/api/call", { id: "u", tool: "mcp__everything__nope", arguments: {} });
    expect(unknown.status).toBe(404);
  });

  it("tells the server when the user declines a sampling request", async () => {
    const pending = json("/api/call", {
      id: "sample-1",
      tool: "mcp__everything__trigger-sampling-request",
      arguments: { prompt: "say no" },
    });
    let dialogs: { id: string; kind: string; messages: { content: { text: string } }[] }[] = [];
    await waitFor(async () => (dialogs = JSON.parse((await json("/api/state")).body).dialogs).length > 0, 5000);
    expect(dialogs[0]).toMatchObject({ kind: "sampling" });
    expect(dialogs[0]!.messages[0]!.content.text).toContain("say no");
    expect(JSON.parse((await json("/api/dialog", { id: dialogs[0]!.id, action: "decline" })).body)).toEqual({
      ok: true,
    });
    const answer = JSON.parse((await pending).body);
    // server-everything turns the refusal into an error result of its tool.
    expect(JSON.stringify(answer)).toContain("The user declined the sampling request");
    const log = JSON.parse((await json("/api/state")).body).log as { kind: string; method: string; error?: string }[];
    expect(log.filter((e) => e.method === "sampling/createMessage").map((e) => e.kind)).toEqual([
      "server-request",
      "error",
    ]);
  });

  it("disables and re-enables a server, each change in the log", async () => {
    expect((await json("/api/servers/disable", { server: "everything" })).status).toBe(200);
    let state = JSON.parse((await json("/api/state")).body);
    expect(state.servers[0].status).toBe("disabled");
    expect(state.tools).toEqual([]);
    expect((await json("/api/servers/reconnect", { server: "everything" })).status).toBe(200);
    state = JSON.parse((await json("/api/state")).body);
    expect(state.servers[0].status).toBe("connected");
    expect(state.tools.length).toBeGreaterThan(5);
    expect(
      state.log.filter((e: { kind: string }) => e.kind === "status").map((e: { method: string }) => e.method),
    ).toEqual(expect.arrayContaining(["disabled", "reconnecting", "connected"]));
    expect((await json("/api/servers/reconnect", { server: "nobody" })).status).toBe(404);
  });

  it("stops on SIGTERM with exit code 0 and leaves no server process behind", async () => {
    const children = inspector.children();
    expect(children.length).toBeGreaterThan(0);
    expect(await inspector.stop()).toBe(0);
    for (let i = 0; i < 50 && children.some(isAlive); i++) await new Promise((r) => setTimeout(r, 100));
    expect(children.filter(isAlive)).toEqual([]);
  });
});
