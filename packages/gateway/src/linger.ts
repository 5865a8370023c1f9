// A lingering close for the gateway's refusals: the answer goes out with `connection: close`, then
// the connection is half-closed (a FIN after the answer) and what the caller still sends is read
// and dropped until it closes its side, sends nothing for a while, or a total time has passed;
// only then is the socket destroyed. Destroying it at once with a body still arriving leaves
// unread bytes in the receive buffer, so the kernel resets the connection and a caller that has
// not yet read the answer loses it (ECONNRESET instead of the 413).

import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/** Default of {@link HttpHandlerOptions.lingerMs}. */
export const LINGER_MS = 10_000;

/** How long a lingering connection may send nothing before it is closed (ms; at most the total). */
export const LINGER_IDLE_MS = 2_000;

/** Sockets lingering, each with what drops a request that still arrives on it (pipelined after the refusal). */
const lingering = new WeakMap<Socket, (req: IncomingMessage) => void>();

/**
 * Whether `req` came on a connection already refused and lingering: it is not served (its answer
 * could not be written); what it sends is dropped as the rest is.
 */
export function droppedWhileLingering(req: IncomingMessage): boolean {
  const drop = lingering.get(req.socket);
  if (drop) drop(req);
  return drop !== undefined;
}

/**
 * Closes `req`'s connection after its answer (which must say `connection: close`) without losing
 * the answer to a reset: Node ends such a response's socket with `destroySoon()` (its write side,
 * then destroy); this socket's is replaced by a lingering close bounded by `totalMs` in all.
 */
export function closeLingering(req: IncomingMessage, totalMs: number): void {
  const socket = req.socket;
  const idleMs = Math.min(LINGER_IDLE_MS, totalMs);
  socket.destroySoon = () => {
    if (socket.destroyed) return;
    let idle: NodeJS.Timeout | undefined;
    const done = (): void => void socket.destroy();
    const total = setTimeout(done, totalMs);
    const poke = (): void => {
      clearTimeout(idle);
      idle = setTimeout(done, idleMs);
    };
    // Bytes of any request on it are read (through Node's parser, as their bodies) and dropped.
    const drop = (incoming: IncomingMessage): void => {
      incoming.on("error", () => {});
      incoming.on("data", poke).resume();
    };
    lingering.set(socket, drop);
    socket.once("close", () => {
      clearTimeout(total);
      clearTimeout(idle);
      lingering.delete(socket);
    });
    poke();
    drop(req);
    // The write side ends (FIN after the answer); the caller's end then closes the socket (Node's own end handling).
    socket.end();
  };
}
