// What a request's context says of its caller, how the caller is asked (and told a URL
// elicitation completed), and what an upstream failure becomes for it.

import { notifyRootsListChanged, RpcError, type LoggingLevel, type LogMessage } from "@mcp/client";
import type { MCPManager } from "@mcp/manager";
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { UPSTREAM_TIMEOUT_MS, type Era } from "./gateway-options.js";
import type { Asker } from "./inflight.js";
import type { Caller } from "./policy.js";
import { CallEndedError } from "./rounds.js";

const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";

/** Turns an upstream failure into the JSON-RPC error the caller gets: its code kept when it had one. */
export function toProtocolError(error: unknown): Error {
  if (error instanceof ProtocolError) return error;
  if (RpcError.isInstance(error)) return new ProtocolError(error.code, error.rpcMessage, error.data);
  const code = typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : undefined;
  return new ProtocolError(
    -32603,
    error instanceof Error ? error.message : String(error),
    code === undefined ? undefined : { code },
  );
}

export const CAPABILITY: Record<string, string> = {
  "sampling/createMessage": "sampling",
  "elicitation/create": "elicitation",
  "roots/list": "roots",
};
/** What a server may ask a caller. */
export const ASKING = Object.keys(CAPABILITY);

/** Whether capabilities a caller declared cover `method`. */
export function covers(capabilities: Record<string, unknown> | undefined, method: string): boolean {
  const needed = CAPABILITY[method];
  return needed === undefined || (capabilities?.[needed] !== undefined && capabilities[needed] !== null);
}

/** Log levels, least severe first (RFC 5424, as MCP names them). */
export const LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/**
 * The log level to send upstream with a caller's request (a 2026-07-28 server sends a request's
 * logs only at or above the level that request carries, none when it carries none): a 2026-07-28
 * request's own (its envelope's `io.modelcontextprotocol/logLevel`); a 2025 session's, as its
 * `logging/setLevel` set it — the lowest level its SDK server lets through, `debug` while it set
 * none (until then a 2025 session is sent every log).
 */
export function logLevelOf(era: Era, instance: Server | undefined, ctx: ServerContext): LoggingLevel | undefined {
  if (era === "modern" || instance === undefined) {
    const level = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[LOG_LEVEL_KEY];
    return LEVELS.find((known) => known === level);
  }
  const server = instance as unknown as { isMessageIgnored(level: string, sessionId: string | undefined): boolean };
  return LEVELS.find((level) => !server.isMessageIgnored(level, ctx.sessionId));
}

/** The capabilities a 2026-07-28 request declares in its envelope. */
export function capabilitiesOf(ctx: ServerContext): Record<string, unknown> | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? ctx.mcpReq._meta?.[CLIENT_CAPABILITIES_META_KEY]) as
    Record<string, unknown> | undefined;
}

/**
 * How a URL elicitation's completion reaches a 2025-era caller's own connection (its session, or
 * stdio): `notifications/elicitation/complete` (MCP 2025-11-25), for a caller that declared URL
 * elicitation; none otherwise (2026-07-28 has no such notification). Holds the instance weakly: an
 * open session's is held by its session, a closed one's is dropped.
 */
export function completedOf(instance: Server | undefined): ((elicitationId: string) => void) | undefined {
  const url = (instance?.getClientCapabilities()?.elicitation as { url?: unknown } | undefined)?.url;
  if (!instance || url === undefined || url === null) return undefined;
  // Kept until the consent completes (up to 30 min): never what keeps a closed session's instance alive.
  const held = new WeakRef(instance);
  return (elicitationId) =>
    void held
      .deref()
      ?.notification({ method: "notifications/elicitation/complete", params: { elicitationId } })
      .catch(() => {});
}

/**
 * A 2025-era request's asker: questions travel on the request's own stream, so once it has its
 * result (`end`), none can; what the caller can be asked is what its connection declared.
 */
export function legacyAsker(
  instance: Server | undefined,
  ctx: ServerContext,
  caller: Caller,
  log: (from: string, message: LogMessage) => void,
): { asker: Asker; end(): void } {
  let ended = false;
  const ask = (method: string, params: unknown, signal: AbortSignal): Promise<unknown> =>
    ended
      ? Promise.reject(new CallEndedError())
      : ctx.mcpReq.send({ method, params: params as Record<string, unknown> } as never, {
          signal,
          timeout: UPSTREAM_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
        });
  const can = (method: string): boolean => covers(instance?.getClientCapabilities(), method);
  return { asker: { caller, can, ask, log, ended: () => ended }, end: () => void (ended = true) };
}

/** The asker of a caller that can be asked nothing: a question to it is refused at once. */
export function mutedAsker(caller: Caller, log: (from: string, message: LogMessage) => void): Asker {
  return { caller, can: () => false, ask: () => Promise.reject(new Error("the caller can be asked nothing")), log };
}

/** Tells the 2025-era servers among `names` (the manager's shared connections) that their caller's roots changed. */
export function tellRootsChanged(manager: MCPManager, names: readonly string[]): void {
  for (const name of names) {
    const connection = manager.getConnection(name);
    if (connection?.era === "2025") void notifyRootsListChanged(connection).catch(() => undefined);
  }
}
