// The fault matrix: each row is one misbehaviour of the server's `fault` tool, on one transport,
// and what must come of it. `runRow` drives it through the manager (so the client's typed error,
// the manager's recovery and status, and a call in flight on another server are all seen at once)
// and then checks that nothing was left behind. docs/reliability.md shows the same table.
import { activeHandles, startSdkServer, type SdkServer } from "mcp-test-utils";
import type { MCPServerConfig } from "@mcp/client";
import type { ServerState } from "@mcp/manager";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventually,
  expectNothingLeft,
  faultScript,
  outcome,
  startHttpFault,
  stateOf,
  testManager,
  type Fault,
} from "./harness.js";

export type Transport = "stdio" | "http" | "sse";

export interface Row {
  fault: Fault;
  /** What the `fault` call gives: its text, or the error class (and a message pattern). */
  outcome: { text: string } | { error: string; message?: RegExp };
  /** An error class the manager's `onError` must have seen for the server. */
  reported?: string;
  /** The server's state once things settle. */
  state: ServerState;
  /** Whether the `ok` tool works afterwards (on the same or a recovered connection). */
  okAfter: boolean;
  /** How many log notifications must have arrived. */
  logs?: number;
  /** The `fault` call's timeout (default 1500 ms). */
  timeout?: number;
  /** Set when connecting must already fail (the fault hits the handshake): the error's message. */
  connectError?: RegExp;
}

export const CALL_TIMEOUT = 1500;
const LIMIT = 1024 * 1024;

function configFor(transport: Transport, fault: Fault, origin: string | undefined): MCPServerConfig {
  if (transport === "stdio")
    return { command: process.execPath, args: [faultScript, "stdio", fault], maxLineBytes: LIMIT, timeout: 5000 };
  if (transport === "http") return { type: "http", url: `${origin}/mcp`, maxMessageBytes: LIMIT, timeout: 5000 };
  return { type: "sse", url: `${origin}/sse`, maxMessageBytes: LIMIT, timeout: 5000 };
}

export async function runRow(transport: Transport, row: Row, healthyUrl: string): Promise<void> {
  const baseline = activeHandles();
  const server = transport === "stdio" ? undefined : await startHttpFault(row.fault);
  const { manager, reported, logs } = testManager();
  const pids = new Set<number | undefined>();
  // Every process the fault server ran as (a stdio one is respawned): each status change comes
  // after the connection it reports is in place.
  manager.onStatusChange(() =>
    pids.add((manager.getConnection("fault")?.transport as { pid?: number } | undefined)?.pid),
  );
  try {
    const { tools, errors } = await manager.connectServers({
      fault: configFor(transport, row.fault, server?.origin),
      healthy: { type: "http", url: healthyUrl },
    });
    const call = (name: string, args: Record<string, unknown>, timeout: number): Promise<unknown> => {
      const tool = tools.find((t) => t.name === name);
      if (!tool) throw new Error(`no tool ${name} among ${tools.map((t) => t.name).join(", ")}`);
      return tool.call(args, { timeout });
    };

    if (row.connectError) {
      expect(errors.get("fault")).toMatch(row.connectError);
      expect(await outcome(call("mcp__healthy__sleep", { ms: 10 }, 10_000))).toEqual({ text: "slept 10" });
      await eventually(() => stateOf(manager, "fault"), row.state);
    } else {
      expect(errors.get("fault")).toBeUndefined();
      // A call on another server is in flight the whole time the fault happens.
      const elsewhere = outcome(call("mcp__healthy__sleep", { ms: 300 }, 10_000));
      const got = await outcome(call("mcp__fault__fault", {}, row.timeout ?? CALL_TIMEOUT));
      expect(await elsewhere, "the call on the healthy server").toEqual({ text: "slept 300" });
      if ("text" in row.outcome) expect(got).toEqual(row.outcome);
      else {
        expect(got).toMatchObject({ error: row.outcome.error });
        if (row.outcome.message) expect((got as { message: string }).message).toMatch(row.outcome.message);
      }

      await eventually(() => stateOf(manager, "fault"), row.state);
      expect(stateOf(manager, "healthy")).toBe("connected");
      if (row.okAfter) {
        await manager.waitForConnection("fault");
        const okTool = manager.getTools().find((t) => t.name === "mcp__fault__ok");
        expect(await outcome(okTool!.call({}, { timeout: 3000 }))).toEqual({ text: "ok" });
      }
      if (row.reported) expect((reported.get("fault") ?? []).map((e) => e.name)).toContain(row.reported);
      if (row.logs !== undefined) await eventually(() => logs.get("fault") ?? 0, row.logs);
    }
  } finally {
    await manager.disconnectAll();
    await server?.stop();
  }
  await expectNothingLeft(baseline, [...pids]);
}

/** One transport's rows as a describe block, with the healthy server started once for them. */
export function faultMatrix(transport: Transport, title: string, rows: Row[]): void {
  let healthy: SdkServer;
  beforeAll(async () => {
    healthy = await startSdkServer();
  });
  afterAll(() => healthy.stop());
  describe(`fault matrix: ${title}`, () => {
    for (const row of rows) it(row.fault, { timeout: 60_000 }, () => runRow(transport, row, healthy.url));
  });
}
