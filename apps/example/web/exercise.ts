// The client in a browser or a worker: connect to a remote MCP server over Streamable HTTP (either
// protocol era), list its tools, call one, watch progress, cancel a call, hear a notification.
// Bundled as it is by esbuild for a page (page.ts) and a module worker (worker.ts); no Node module
// reaches either bundle (a stdio config is refused clearly there). One `@mcp/lite` call too.
import { callTool, connectToServer, disconnectServer, listTools, type CallToolResult } from "@mcp/client";
import { callMCP } from "@mcp/lite";

/** What to do on one server: which tools to call and which notification to wait for. */
export interface Plan {
  url: string;
  /** A quick call and the text it answers. */
  call: { name: string; args: Record<string, unknown> };
  /** A call that reports progress (optional). */
  progress?: { name: string; args: Record<string, unknown> } | undefined;
  /** A long call, cancelled after `cancelAfterMs`. */
  slow: { name: string; args: Record<string, unknown>; cancelAfterMs: number };
  /** A server-sent notification to wait for (up to 10 s). */
  notification: string;
  /** One sessionless `callMCP` (a 2026-07-28 server answers it as it is). */
  lite?: { method: string; params: Record<string, unknown>; headers: Record<string, string> } | undefined;
}

/** What happened, for the page, the worker and the test. */
export interface Summary {
  era: string;
  protocolVersion: string;
  server: string;
  tools: string[];
  answer: string;
  progress: number[];
  cancelled: string;
  afterCancel: string;
  heard: string[];
  stdio: string;
  lite: unknown;
}

function textOf(result: CallToolResult): string {
  const block = result.content.find((b) => b.type === "text");
  return typeof block?.["text"] === "string" ? block["text"] : "";
}

/** Runs the plan and reports what happened. */
export async function exercise(plan: Plan): Promise<Summary> {
  const heard: string[] = [];
  let hear: (() => void) | undefined;
  const connection = await connectToServer(
    "remote",
    { type: "http", url: plan.url, timeout: 15_000 },
    {
      clientInfo: { name: "mcp-web-example", version: "0.1.0" },
      roots: [{ uri: "file:///web", name: "web" }],
      // Some servers announce things right after the handshake: listen from the start.
      onNotification: (method) => {
        heard.push(method);
        if (method === plan.notification) hear?.();
      },
    },
  );
  try {
    const heardIt = new Promise<void>((resolve, reject) => {
      if (heard.includes(plan.notification)) return resolve();
      hear = resolve;
      setTimeout(
        () => reject(new Error(`no ${plan.notification} within 10 s (heard: ${heard.join(", ") || "nothing"})`)),
        10_000,
      );
    });
    heardIt.catch(() => undefined);
    // On 2026-07-28 a listener opens the server's listen stream for this notification.
    connection.on(plan.notification, () => undefined);

    const tools = (await listTools(connection)).map((t) => t.name);
    const answer = textOf(await callTool(connection, plan.call.name, plan.call.args));

    const progress: number[] = [];
    if (plan.progress)
      await callTool(connection, plan.progress.name, plan.progress.args, {
        onProgress: (p) => progress.push(p.progress),
      });

    const abort = new AbortController();
    setTimeout(() => abort.abort(), plan.slow.cancelAfterMs);
    const cancelled = await callTool(connection, plan.slow.name, plan.slow.args, { signal: abort.signal }).then(
      () => "not cancelled",
      (error: unknown) => (error instanceof Error ? error.name : String(error)),
    );
    const afterCancel = textOf(await callTool(connection, plan.call.name, plan.call.args));

    await heardIt;
    const stdio = await connectToServer("local", { command: "node", args: ["server.js"] }).then(
      () => "connected?!",
      (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
    );
    const lite = plan.lite
      ? await callMCP(plan.url, plan.lite.method, plan.lite.params, { headers: plan.lite.headers, timeout: 10_000 })
      : undefined;
    return {
      era: connection.era,
      protocolVersion: connection.protocolVersion,
      server: connection.serverInfo.name,
      tools,
      answer,
      progress,
      cancelled,
      afterCancel,
      heard,
      stdio,
      lite,
    };
  } finally {
    await disconnectServer(connection);
  }
}
