// The connections of a node:http server in front of the gateway: how many there may be (in all,
// and from one address), and how long one may take to send a request's headers. A connection
// past a cap is closed at once, before anything is read from it; one that sends no complete
// request head in time (first, or after its last answer) is closed. The gateway's handler bounds
// the body's time itself (`bodyTimeoutMs`).

import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Options of {@link guardConnections}. */
export interface ConnectionLimits {
  /** Connections open at once; one more is closed at once. Default 512. */
  maxConnections?: number | undefined;
  /**
   * Connections open at once from one remote address (a load balancer is one). Default 128. An
   * IPv6 address counts by its /64 (a host picks any address of its network's /64 at will); an
   * IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`) counts as the IPv4 one.
   */
  maxPerAddress?: number | undefined;
  /** How long a connection may take to send a request's headers, first or next (ms). Default 10 s. */
  headersTimeoutMs?: number | undefined;
}

export const MAX_CONNECTIONS = 512;
export const MAX_CONNECTIONS_PER_ADDRESS = 128;
export const HEADERS_TIMEOUT_MS = 10_000;

/**
 * Whom a remote address counts against for the per-address cap: an IPv4 address itself (mapped
 * `::ffff:a.b.c.d` too), an IPv6 one by its first 64 bits (`2001:db8:0:1::/64`).
 */
export function addressKey(address: string): string {
  const a = address.split("%")[0]!.toLowerCase();
  if (a.startsWith("::ffff:") && a.includes(".")) return a.slice(7);
  if (!a.includes(":")) return a;
  const [head = "", tail] = a.split("::");
  const front = head === "" ? [] : head.split(":");
  const back = tail === undefined || tail === "" ? [] : tail.split(":");
  // An embedded IPv4 tail (`::1.2.3.4`) stands for two groups.
  const width = (groups: string[]): number => groups.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
  const groups =
    tail === undefined
      ? front
      : [...front, ...Array<string>(Math.max(0, 8 - width(front) - width(back))).fill("0"), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16).toString(16) : g))
    .join(":")}::/64`;
}

/** What {@link guardConnections} counts now. */
export interface ConnectionGuard {
  /** Connections open now. */
  readonly open: number;
  /** Connections closed at once for a cap, since the start. */
  readonly refused: number;
  /** Stops guarding (the counts are dropped). */
  close(): void;
}

/**
 * Caps `server`'s connections and the time each may take to send a request head: what keeps one
 * address, or many, from holding every descriptor of the process (see {@link ConnectionLimits}).
 */
export function guardConnections(server: Server, limits: ConnectionLimits = {}): ConnectionGuard {
  const max = limits.maxConnections ?? MAX_CONNECTIONS;
  const perAddress = limits.maxPerAddress ?? MAX_CONNECTIONS_PER_ADDRESS;
  const headersMs = limits.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const byAddress = new Map<string, number>();
  const waiting = new WeakMap<Socket, NodeJS.Timeout>();
  /** Requests of a connection being served: several when pipelined (Node takes each at once). */
  const serving = new WeakMap<Socket, number>();
  let open = 0;
  let refused = 0;
  const wait = (socket: Socket): void => {
    clearTimeout(waiting.get(socket));
    const timer = setTimeout(() => socket.destroy(), headersMs);
    timer.unref();
    waiting.set(socket, timer);
  };
  const onConnection = (socket: Socket): void => {
    const address = addressKey(socket.remoteAddress ?? "");
    const from = byAddress.get(address) ?? 0;
    if (open >= max || from >= perAddress) {
      refused++;
      return void socket.destroy();
    }
    open++;
    byAddress.set(address, from + 1);
    wait(socket);
    socket.once("close", () => {
      clearTimeout(waiting.get(socket));
      open--;
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    });
  };
  // A request's head has come: no clock while it, or another pipelined on its connection, is
  // served; once the last is answered, the next head has its own time.
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const socket = req.socket;
    clearTimeout(waiting.get(socket));
    serving.set(socket, (serving.get(socket) ?? 0) + 1);
    const done = (): void => {
      const left = (serving.get(socket) ?? 1) - 1;
      serving.set(socket, left);
      if (left === 0 && !socket.destroyed) wait(socket);
    };
    if (res.writableFinished) done();
    else res.once("finish", done);
  };
  server.on("connection", onConnection);
  server.on("request", onRequest);
  return {
    get open() {
      return open;
    },
    get refused() {
      return refused;
    },
    close() {
      server.off("connection", onConnection);
      server.off("request", onRequest);
    },
  };
}
