// A gateway served by its process until it is asked to stop (what `mcp serve` does once the gateway
// is made): the upstream servers start first (a stop while they start ends the wait), then it serves
// over stdio or listens on HTTP until SIGINT, SIGTERM or (over stdio) the end of stdin; then the
// gateway and what the caller owns close, bounded in time after the stop.

import type { Readable, Writable } from "node:stream";
import type { McpGateway } from "./create.js";
import type { Caller } from "./policy.js";
import { startGatewayServer, type GatewayServer } from "./serve-setup.js";
import { closeWithin, stopRequests, type StopReason } from "./stop.js";

/** The HTTP server could not listen (`EADDRINUSE`, `EACCES`, a host that does not resolve): its error is `cause`. */
export class GatewayListenError extends Error {
  override readonly name = "GatewayListenError";
  constructor(
    readonly host: string,
    readonly port: number,
    override readonly cause: Error,
  ) {
    super(`could not listen on ${host}:${port}: ${cause.message}`);
  }
}

/** Options of {@link serveUntilStopped}. */
export interface ServeUntilStoppedOptions {
  /** Serve over stdio to this caller (`serveCallers`' `self`), on `stdin`/`stdout` (default the process's); otherwise over HTTP. */
  stdio?: { caller: Caller; stdin?: Readable | undefined; stdout?: Writable | undefined } | undefined;
  /** Where HTTP listens (default `127.0.0.1`, a free port). */
  host?: string | undefined;
  port?: number | undefined;
  /** Starts the upstream servers (e.g. the manager's `connectServers`), resolving with those that failed. */
  connect: () => Promise<{ errors: Map<string, string> }>;
  /** Closes what the caller owns, after the gateway (its audit sink, its manager). */
  close?: (() => Promise<void>) | undefined;
  /** How long closing may take once a stop was asked (ms, default 800): then the result says `"late"`. */
  closeMs?: number | undefined;
  /** A second SIGINT or SIGTERM once stopping (default: the process exits at once). */
  again?: (() => void) | undefined;
  /** Told of the stop request when it comes. */
  onStopping?: ((why: StopReason) => void) | undefined;
  /** Told once the upstream servers started, with those that failed (served without them), before it serves. */
  onStarted?: ((failed: Map<string, string>) => void) | undefined;
  /** Told once it serves: the HTTP server, or undefined over stdio. */
  onServing?: ((http: GatewayServer | undefined) => void) | undefined;
}

/**
 * Serves `gateway` until a stop is asked for, then closes it and `options.close`. Resolves with why
 * it stopped and whether closing finished within `closeMs` (`"late"`: what is still closing, such
 * as a server slow to exit, is the caller's to cut short, e.g. by exiting). Rejects with a
 * {@link GatewayListenError} when HTTP cannot listen (everything closed first).
 */
export async function serveUntilStopped(
  gateway: McpGateway,
  options: ServeUntilStoppedOptions,
): Promise<{ why: StopReason; closed: "closed" | "late" }> {
  const stdin = options.stdio ? (options.stdio.stdin ?? process.stdin) : undefined;
  const stop = stopRequests({ stdin, again: options.again ?? (() => process.exit(0)) });
  const asked = stop.asked.then((why) => {
    options.onStopping?.(why);
    return why;
  });
  let closed: "closed" | "late";
  try {
    const connecting = options.connect();
    const started = await Promise.race([connecting, asked.then(() => undefined)]);
    if (started === undefined) connecting.catch(() => undefined);
    else await serve(gateway, options, started.errors, asked);
  } finally {
    closed = await closeWithin(stop.at, options.closeMs ?? 800, async () => {
      await gateway.close();
      await options.close?.();
    });
    stop.dispose();
  }
  return { why: await asked, closed };
}

/** Serves once the servers started, until `asked`. */
async function serve(
  gateway: McpGateway,
  options: ServeUntilStoppedOptions,
  errors: Map<string, string>,
  asked: Promise<unknown>,
): Promise<void> {
  options.onStarted?.(errors);
  if (options.stdio) {
    const { caller, stdin, stdout } = options.stdio;
    const handle = gateway.serveStdio({ caller, stdin, stdout });
    options.onServing?.(undefined);
    await asked;
    await handle.close();
    return;
  }
  const host = options.host ?? "127.0.0.1";
  const http = await startGatewayServer(gateway, { host, port: options.port }).catch((error: unknown) => {
    throw new GatewayListenError(host, options.port ?? 0, error as Error);
  });
  options.onServing?.(http);
  await asked;
  await http.close();
}
