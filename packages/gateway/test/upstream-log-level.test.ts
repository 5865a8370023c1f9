// The caller's log level goes upstream with its call. A 2026-07-28 server sends a request's logs
// only at or above the level that very request carries, and none when it carries none, so the
// gateway's own request to it carries its caller's: a 2026-07-28 caller's (its envelope's
// `io.modelcontextprotocol/logLevel`), a 2025 session's (its `logging/setLevel`; every level while
// it set none, as a 2025 session is sent every log until it asks otherwise). The upstream: the probe
// on the official SDK v2 server (`@modelcontextprotocol/server`) over stdio, whose `flood` logs at
// `info`. Fast path and SDK path alike (the suite runs on each: app.ts).
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema, type LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { probeStdioEntry } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "../src/index.js";
import { mountGateway, type Mounted } from "./app.js";
import { messagesOf, postCall } from "./raw-call.js";

const KEY = "key-ann-0123456789";
const ANN: Caller = { id: "u-ann", name: "ann" };
const LEVEL = "io.modelcontextprotocol/logLevel";

describe("a 2026-07-28 upstream's logs reach the caller at the level the caller asked for", () => {
  let mounted: Mounted;

  beforeAll(async () => {
    mounted = await mountGateway(
      { v2: { command: process.execPath, args: [probeStdioEntry, "v2"] } },
      { authenticate: (req) => (req.headers["x-api-key"] === KEY ? ANN : undefined), callers: [ANN] },
    );
  }, 60_000);

  afterAll(async () => {
    await mounted?.stop();
  });

  /** The logs a raw 2026-07-28 call of `flood` gets, with `meta` in its envelope: each one's level and data's start. */
  async function modernLogs(meta: Record<string, unknown>): Promise<string[]> {
    const answer = await postCall({
      url: mounted.url,
      headers: { "x-api-key": KEY },
      name: "v2__flood",
      args: { count: 2 },
      meta,
    });
    const messages = messagesOf(answer);
    expect(JSON.stringify(messages.at(-1))).toContain("sent 2");
    return messages
      .filter((m) => m["method"] === "notifications/message")
      .map((m) => {
        const params = m["params"] as { level: string; data: string };
        return `${params.level} ${params.data.split(" ")[0]}`;
      });
  }

  /** The logs a 2025 session (the SDK 1.x client) gets during one call of `flood`, after `logging/setLevel level` (none when undefined). */
  async function sessionLogs(level: LoggingLevel | undefined): Promise<string[]> {
    const client = new Client1({ name: "ann", version: "1" });
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(`${n.params.level} ${String(n.params.data).split(" ")[0]}`);
    });
    await client.connect(new Http1(new URL(mounted.url), { requestInit: { headers: { "x-api-key": KEY } } }));
    try {
      if (level !== undefined) await client.setLoggingLevel(level);
      const result = await client.callTool({ name: "v2__flood", arguments: { count: 2 } });
      expect(JSON.stringify(result.content)).toContain("sent 2");
      return logs;
    } finally {
      await client.close();
    }
  }

  it("a 2026-07-28 caller that asked for info gets the upstream's info logs, in order", async () => {
    expect(await modernLogs({ [LEVEL]: "info" })).toEqual(["info 0", "info 1"]);
    expect(await modernLogs({ [LEVEL]: "debug" })).toEqual(["info 0", "info 1"]);
  });

  it("a 2026-07-28 caller that asked for warning, or for no level, gets none", async () => {
    expect(await modernLogs({ [LEVEL]: "warning" })).toEqual([]);
    expect(await modernLogs({})).toEqual([]);
  });

  it("a 2025 session that set info gets them; one that set error gets none", async () => {
    expect(await sessionLogs("info")).toEqual(["info 0", "info 1"]);
    expect(await sessionLogs("error")).toEqual([]);
  });

  it("a 2025 session that set no level gets them (a 2025 session is sent every log until it asks otherwise)", async () => {
    expect(await sessionLogs(undefined)).toEqual(["info 0", "info 1"]);
  });
});
