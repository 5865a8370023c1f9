// Keep-alive with a grace: an idle connection stays open a while past the time the answer's
// `Keep-Alive: timeout=` header states. A caller trusts that time (fetch, undici, reuses an idle
// connection until two seconds before it; with no header, for 4 s), and Node closes it one second
// after: on a busy host, where the event loop can be late by more than that, Node's timer fires
// after the caller has sent its next request on the connection but before the gateway has read
// it, and the caller gets a reset (ECONNRESET) instead of its answer. And a request that says
// `Connection: close` has its connection closed after the answer, whatever the answer's headers said.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Default of {@link HttpHandlerOptions.keepAliveGraceMs}. */
export const KEEP_ALIVE_GRACE_MS = 5_000;

/**
 * Once `res` is finished on a connection kept alive, keeps the connection open while idle for the
 * server's `keepAliveTimeout` (the time its `Keep-Alive` header states) plus `graceMs`, not Node's
 * one second more. Nothing changes for a connection that closes, a server whose idle timeout is
 * off (`keepAliveTimeout` 0) or longer already, or a socket that is not a node:http server's.
 */
export function keepAliveWithGrace(req: IncomingMessage, res: ServerResponse, graceMs: number): void {
  const socket = req.socket as Socket & { server?: { keepAliveTimeout?: unknown } };
  const stated = socket.server?.keepAliveTimeout;
  if (typeof stated !== "number" || stated <= 0 || graceMs <= 0) return;
  // Node's own `finish` listener, added before the request was handed on, runs first: it sets the
  // idle timeout (`keepAliveTimeout` and its second) on a connection that stays open, and none on
  // one that closes or has a pipelined request waiting.
  res.once("finish", () => {
    const idle = socket.timeout ?? 0;
    if (socket.destroyed || !socket.writable || idle < stated || idle >= stated + graceMs) return;
    socket.setTimeout(stated + graceMs);
  });
}

/** Whether `req` asks that its connection close after the answer: `Connection: close`, or HTTP/1.0 without keep-alive. */
function asksClose(req: IncomingMessage): boolean {
  const options = String(req.headers.connection ?? "")
    .toLowerCase()
    .split(",")
    .map((option) => option.trim());
  return options.includes("close") || (req.httpVersion === "1.0" && !options.includes("keep-alive"));
}

/**
 * A request that says `Connection: close` (RFC 9112 §9.6) gets its connection closed after the answer,
 * which says `Connection: close`: a `connection` header the gateway's answer sets (an event stream's
 * `keep-alive`, as the SDK's transport writes it) is left out of `writeHead`'s (one set before is made
 * `close`), so node:http decides from the request, as it does for an answer that sets none.
 */
export function closeWhenAsked(req: IncomingMessage, res: ServerResponse): void {
  if (!asksClose(req)) return;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const withoutConnection = (headers: unknown): unknown =>
    headers !== null && typeof headers === "object" && !Array.isArray(headers)
      ? Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== "connection"))
      : headers;
  res.writeHead = (...args: unknown[]) => {
    if (res.hasHeader("connection")) res.setHeader("connection", "close");
    return writeHead(...args.map(withoutConnection));
  };
}
