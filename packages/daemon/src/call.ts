// A call through the daemon (`call/2`): what a client sends (the servers it resolved, as its shell
// runs them, and its words), checked field by field; declined when the daemon cannot reach the
// call's servers as the calling shell would (environment.ts); else run on the view of exactly those
// servers (views.ts) by the embedder's `CallHandler`, which turns the words into a tool call (the
// `mcp` CLI's `mcp call` words are its own language, not the daemon's).

import type { Socket } from "node:net";
import type { MCPServerConfig } from "@mcp/client";
import type { ConfigError, DiscoveredServer, MCPManager, MCPTool } from "@mcp/manager";
import { asThisShellRuns, whyNotHere } from "./environment.js";
import { DaemonError, EXIT } from "./errors.js";
import type { Views } from "./views.js";
import { send, type DaemonMessage } from "./wire.js";

/**
 * The method of a call. Named anew when what a call carries changed (each server as the shell runs
 * it, and the shell's `environment`): a daemon of an earlier version answers "unknown method" and
 * runs nothing, rather than running the servers its own way.
 */
export const CALL = "call/2";

/** What a client sends with a call: the session it resolved (its servers, and why others are missing) and the words. */
export interface CallParams {
  /** Each server as the calling shell runs it (see `asThisShellRuns`). */
  configs: Record<string, MCPServerConfig>;
  /** The calling shell's values of the variables the daemon's own process would use for HTTP servers. */
  environment: Record<string, string>;
  servers: Record<string, DiscoveredServer>;
  configErrors: ConfigError[];
  skipped: string[];
  shadowed: DiscoveredServer[];
  embedded: boolean;
  words: string[];
  cwd: string;
  timeout?: number | undefined;
  maxResultChars?: number | undefined;
  /** Why each skipped project server was skipped (the client's approval check): the call says so, as a direct call does. */
  whySkipped?: Record<string, string> | undefined;
}

/** What a {@link CallHandler} runs a call with. */
export interface CallContext {
  /** A manager holding exactly the call's servers (as its shell runs them), kept between calls. */
  manager: MCPManager;
  /** Registers the view's servers on first use (and those stopped or failed since); the tools known now. */
  register(): Promise<MCPTool[]>;
  /** Marks a server as used now (an idle server is stopped after `serverIdleMs`). */
  used(server: string): void;
  /** Says the tool is about to be called: from here on the call may have run, and the client never sends it again. */
  calling(label: string): void;
  /** Passes a progress notification of the call on to the client. */
  progress(progress: { progress: number; total?: number | undefined; message?: string | undefined }): void;
  /** Aborted when the client goes away (its Ctrl-C closes the connection). */
  signal: AbortSignal;
}

/**
 * How the daemon runs a `call/2`: the embedder's, since a call's `words` are its own command
 * language. An error it throws is answered with its message and its `exitCode` (default 1).
 */
export interface CallHandler {
  /** The servers a call may start (default: all of its configs): the daemon declines a call that would reach one otherwise than its shell would. A promise lets a handler load its code with the first call. */
  serversOf?(params: CallParams): string[] | Promise<string[]>;
  /** Runs the call; resolves with the answer sent to the client. */
  run(params: CallParams, context: CallContext): Promise<unknown>;
}

/** What a client resolved before a call: its servers, and why others are missing (a CLI's session). */
export interface ResolvedServers {
  configs: Record<string, MCPServerConfig>;
  servers: Record<string, DiscoveredServer>;
  configErrors: ConfigError[];
  skipped: string[];
  /** Why each skipped server was skipped (default: "not approved yet"). */
  whySkipped?: ReadonlyMap<string, string> | undefined;
  shadowed: DiscoveredServer[];
  embedded: boolean;
  /** The calling shell's folder. */
  cwd: string;
}

/**
 * The params of a `call/2` for these resolved servers and words: each server as the calling
 * shell (`shell`, default `process.env`) runs it in `cwd` (`asThisShellRuns`), and why each
 * skipped one was skipped.
 */
export function callParamsFor(
  resolved: ResolvedServers,
  call: { words: string[]; timeout?: number | undefined; maxResultChars?: number | undefined },
  shell: Readonly<Record<string, string | undefined>> = process.env,
): CallParams {
  const { configs, environment } = asThisShellRuns(resolved.configs, resolved.cwd, shell);
  return {
    configs,
    environment,
    servers: resolved.servers,
    configErrors: resolved.configErrors,
    skipped: resolved.skipped,
    whySkipped: Object.fromEntries(
      resolved.skipped.map((name) => [name, resolved.whySkipped?.get(name) ?? "not approved yet"]),
    ),
    shadowed: resolved.shadowed,
    embedded: resolved.embedded,
    words: call.words,
    cwd: resolved.cwd,
    timeout: call.timeout,
    maxResultChars: call.maxResultChars,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The params of a `call`, checked: a usage error naming the field that is wrong. */
export function callParams(value: unknown): CallParams {
  const wrong = (field: string, what: string): DaemonError =>
    new DaemonError(`the daemon's call: params.${field} must be ${what}`, EXIT.usage);
  if (!isRecord(value)) throw new DaemonError("the daemon's call: params must be an object", EXIT.usage);
  for (const field of ["configs", "servers"]) {
    if (!isRecord(value[field]) || !Object.values(value[field]).every(isRecord))
      throw wrong(field, "an object of objects");
  }
  for (const field of ["configErrors", "shadowed"])
    if (value[field] !== undefined && !(Array.isArray(value[field]) && value[field].every(isRecord)))
      throw wrong(field, "a list of objects");
  for (const field of ["words", "skipped"]) {
    if (
      (field === "words" || value[field] !== undefined) &&
      !(Array.isArray(value[field]) && value[field].every((w) => typeof w === "string"))
    )
      throw wrong(field, "a list of strings");
  }
  for (const field of ["whySkipped", "environment"]) {
    if (
      (field === "environment" || value[field] !== undefined) &&
      !(isRecord(value[field]) && Object.values(value[field]).every((w) => typeof w === "string"))
    )
      throw wrong(field, "an object of strings");
  }
  if (typeof value["cwd"] !== "string") throw wrong("cwd", "a string");
  for (const field of ["timeout", "maxResultChars"])
    if (value[field] !== undefined && typeof value[field] !== "number") throw wrong(field, "a number");
  return {
    configErrors: [],
    skipped: [],
    shadowed: [],
    ...value,
    embedded: value["embedded"] === true,
  } as unknown as CallParams;
}

/**
 * Answers one `call/2` on `socket`: declined (nothing ran) without a handler or when the daemon
 * cannot reach the servers as the shell would; else run by `handler` on the view of its servers.
 * `counted` is told when a call is taken. Rejects with the handler's error, for the caller to answer.
 */
export async function runCall(
  socket: Socket,
  message: DaemonMessage,
  signal: AbortSignal,
  views: Views,
  handler: CallHandler | undefined,
  counted: () => void,
): Promise<void> {
  const params = callParams(message.params);
  if (handler === undefined)
    return send(socket, { id: message.id, declined: "this daemon was started without a call handler" });
  const names = (await handler.serversOf?.(params)) ?? Object.keys(params.configs);
  const declined = whyNotHere(params.configs, names, params.environment);
  if (declined !== undefined) return send(socket, { id: message.id, declined });
  counted();
  const view = await views.acquire(params.configs, params.servers, params.cwd);
  try {
    const result = await handler.run(params, {
      manager: view.manager,
      register: () => view.register(),
      used: (server) => void view.used.set(server, Date.now()),
      calling: (label) => send(socket, { id: message.id, calling: label }),
      progress: (progress) => send(socket, { id: message.id, progress }),
      signal,
    });
    send(socket, { id: message.id, result });
  } finally {
    views.release(view);
  }
}
