// What a request's context says of its caller, and what an upstream failure becomes for it.

import { RpcError } from "@mcp/client";
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, type ServerContext } from "@modelcontextprotocol/server";

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

/** The capabilities a 2026-07-28 request declares in its envelope. */
export function capabilitiesOf(ctx: ServerContext): Record<string, unknown> | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? ctx.mcpReq._meta?.[CLIENT_CAPABILITIES_META_KEY]) as
    Record<string, unknown> | undefined;
}
