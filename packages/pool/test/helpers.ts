// Hosts for the pool's tests: each a session fed raw JSON-RPC, as a shim feeds it from a host's stdin.
import { createRequire } from "node:module";
import { once } from "node:events";
import type { ServerPool, HostSession } from "../src/index.js";

export const everything = {
  command: process.execPath,
  args: [createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
};

export interface TestHost {
  session: HostSession;
  request(method: string, params?: Record<string, unknown>): Promise<{ result?: any; error?: any }>;
  notify(method: string, params?: Record<string, unknown>): void;
  notifications: { method: string; params: any }[];
  ended: Promise<string>;
  initialize(capabilities?: Record<string, unknown>, protocolVersion?: string): Promise<any>;
}

/** A host session on `pool`; `answer` answers the server's questions (sampling, roots, …). */
export function host(
  pool: ServerPool,
  answer: (method: string, params: any) => unknown = () => ({}),
  name = "everything",
  config: Record<string, unknown> = everything,
  extra: { project?: string; source?: string } = {},
): TestHost {
  let nextId = 1;
  const waiting = new Map<unknown, (message: any) => void>();
  const notifications: { method: string; params: any }[] = [];
  let endWith: (reason: string) => void = () => {};
  const ended = new Promise<string>((resolve) => (endWith = resolve));
  const session: HostSession = pool.attach({
    name,
    config: config as never,
    info: { test: true },
    ...extra,
    onEnd: (reason) => endWith(reason),
    send: (message: any) => {
      if (message.method !== undefined && message.id !== undefined) {
        void Promise.resolve(answer(message.method, message.params)).then((result) =>
          session.receive({ jsonrpc: "2.0", id: message.id, result }),
        );
      } else if (message.method !== undefined) notifications.push({ method: message.method, params: message.params });
      else waiting.get(message.id)?.(message);
    },
  });
  const request = (method: string, params?: Record<string, unknown>) =>
    new Promise<any>((resolve) => {
      // Every host numbers its requests from 1: the pool must keep them apart.
      const id = nextId++;
      waiting.set(id, resolve);
      session.receive({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
    });
  return {
    session,
    request,
    notify: (method, params) => session.receive({ jsonrpc: "2.0", method, ...(params ? { params } : {}) }),
    notifications,
    ended,
    initialize: async (capabilities = {}, protocolVersion = "2025-06-18") => {
      const answer = await request("initialize", {
        protocolVersion,
        capabilities,
        clientInfo: { name: `host-${session.id}`, version: "1" },
      });
      session.receive({ jsonrpc: "2.0", method: "notifications/initialized" });
      return answer;
    },
  };
}

/** Whether a process is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The next `event` of `pool` whose argument matches. */
export async function nextEvent(
  pool: ServerPool,
  event: string,
  match: (value: any) => boolean = () => true,
): Promise<any> {
  for (;;) {
    const [value] = await once(pool, event);
    if (match(value)) return value;
  }
}
