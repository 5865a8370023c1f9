// The `record` option: each message of a connection, redacted, with its time and direction.
import type { MCPTransport, MessageDirection } from "@mcp/jsonrpc";
import { redactJson } from "@mcp/jsonrpc/internal";

/** One JSON-RPC message of a recorded connection (a line of a recording, as `mcp call --record` writes it). */
export interface RecordedMessage {
  /** When it went by, ISO 8601 with milliseconds. */
  t: string;
  /** The connection's name (the server's name in the manager). */
  server: string;
  /** Who sent it: `"client"` (this side) or `"server"`. */
  from: "client" | "server";
  /** The message as it went over the wire (a batch as its array), secrets redacted ({@link redactJson}). */
  message: unknown;
}

/** Receives each message of a recorded connection, in the order they went by. */
export type RecordListener = (entry: RecordedMessage) => void;

/**
 * Makes `transport` report every JSON-RPC message both ways to `record`, from the first
 * (`server/discover` or `initialize`) to the last: a redacted copy with its time, direction and
 * server name. Works for the built-in transports and any built on `JsonRpcEndpoint` (they call
 * `onMessage`); a listener that throws is reported through the transport's `onError`.
 */
export function recordTransport(transport: MCPTransport, name: string, record: RecordListener): void {
  transport.onMessage = (message: unknown, direction: MessageDirection) => {
    record({
      t: new Date().toISOString(),
      server: name,
      from: direction === "out" ? "client" : "server",
      message: redactJson(message),
    });
  };
}
