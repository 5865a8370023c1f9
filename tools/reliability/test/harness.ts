// What every reliability test shares: the fault server, a healthy real server, and the checks that
// nothing was left behind.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { MCPManager, MemoryPinStore, type ServerState } from "@mcp/manager";
import { activeHandles, isAlive } from "mcp-test-utils";
import { expect } from "vitest";

export const faultScript = fileURLToPath(new URL("./fixtures/fault-server.mjs", import.meta.url));

/** Every misbehaviour the fault server knows (see fixtures/fault-server.mjs). */
export type Fault =
  | "exit"
  | "hang"
  | "wrong-id"
  | "garbage"
  | "non-utf8"
  | "truncated"
  | "oversize"
  | "sse-torn-event"
  | "sse-torn-response"
  | "reset"
  | "5xx"
  | "401"
  | "session-404"
  | "slow-drip"
  | "flood"
  | "server-request"
  | "init-then-silent";

/** An HTTP fault server in a child process of its own (so it can really exit). */
export interface HttpFaultServer {
  origin: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startHttpFault(fault: Fault): Promise<HttpFaultServer> {
  const child = spawn(process.execPath, [faultScript, "http", fault], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`fault server exited with ${code} before listening`)));
  });
  lines.close();
  return {
    origin: `http://127.0.0.1:${port}`,
    child,
    stop: () => stopChild(child),
  };
}

/** Ends a child (stdin first, then SIGKILL) and waits for its exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdin?.end();
  const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
  await exited;
  clearTimeout(timer);
}

/** Polls `read` until it equals `expected` (deep), or fails with the last value seen. */
export async function eventually<T>(read: () => T, expected: T, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const value = read();
    try {
      expect(value).toEqual(expected);
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The handles (by kind) that are live now beyond those in `baseline`. */
export function handlesBeyond(baseline: Record<string, number>): Record<string, number> {
  const extra: Record<string, number> = {};
  for (const [kind, count] of Object.entries(activeHandles()))
    if (count > (baseline[kind] ?? 0)) extra[kind] = count - (baseline[kind] ?? 0);
  return extra;
}

/**
 * The leak check: no active handle (timer, socket, pipe, child process) beyond those live at
 * `baseline` remains, and every pid given is gone.
 */
export async function expectNothingLeft(
  baseline: Record<string, number>,
  pids: (number | undefined)[] = [],
): Promise<void> {
  await eventually(() => handlesBeyond(baseline), {});
  for (const pid of pids) if (pid !== undefined) await eventually(() => isAlive(pid), false);
}

/** A manager for tests: no cache, fast reconnects, every reported error and log kept. */
export function testManager(): { manager: MCPManager; reported: Map<string, Error[]>; logs: Map<string, number> } {
  const reported = new Map<string, Error[]>();
  const logs = new Map<string, number>();
  const manager = new MCPManager({
    pins: { store: new MemoryPinStore() },
    cache: false,
    startupTimeoutMs: 10_000,
    reconnect: { initialDelayMs: 50, maxDelayMs: 200, factor: 2, jitter: 0, maxAttempts: 3, windowMs: 60_000 },
    onError: (server, error) => reported.set(server, [...(reported.get(server) ?? []), error]),
    onLog: (server) => logs.set(server, (logs.get(server) ?? 0) + 1),
  });
  return { manager, reported, logs };
}

/** The state a server's status settles in. */
export function stateOf(manager: MCPManager, name: string): ServerState | undefined {
  return manager.getConnectionStatus(name)?.state;
}

/** A call's outcome in a comparable shape: its text, or its error's class name and message. */
export async function outcome(call: Promise<unknown>): Promise<{ text: string } | { error: string; message: string }> {
  try {
    const result = (await call) as { content?: { type: string; text?: string }[]; isError?: boolean };
    return { text: result.content?.map((c) => c.text ?? "").join("") ?? "" };
  } catch (error) {
    const e = error as Error;
    return { error: e.name, message: e.message };
  }
}
