// Who sends a request to the HTTP gateway, and from where: bearer tokens checked in constant
// time, and the Host and Origin a request names (DNS rebinding: only this gateway's own names).

import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Caller } from "./policy.js";

/** Who sends a request: its caller, or undefined (answered `401`); an `AuthRefusal` thrown is answered with its status and challenge. */
export type Authenticate = (req: IncomingMessage) => Caller | undefined | Promise<Caller | undefined>;

export const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Whether a host name (or address) is this machine's loopback. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase());
}

/** The host name of a `Host` header (`[::1]` kept bracketed), its port dropped. */
export function hostnameOf(host: string): string {
  return host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!;
}

/** Whether `origin` is the gateway's own: the scheme aside, the host and port the request was sent to. */
export function sameOrigin(origin: string, host: string): boolean {
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}

function callerOf(header: string | undefined, callers: ReadonlyMap<string, Caller>): Caller | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  if (!match) return undefined;
  const given = Buffer.from(match[1]!);
  for (const [token, caller] of callers) {
    const want = Buffer.from(token);
    if (want.length === given.length && timingSafeEqual(want, given)) return caller;
  }
  return undefined;
}

/** Authenticates by `Authorization: Bearer <token>`, each token checked in constant time. */
export function bearerTokens(tokens: ReadonlyMap<string, Caller>): Authenticate {
  return (req) => callerOf(req.headers.authorization, tokens);
}
