// The daemon's side of the light shim (`mcp-shim`, apps/cli/shim/mcp-shim): a bash script that relays
// a host's stdin/stdout through bash's /dev/tcp instead of a Node process (~4 MB against ~46 MB).
// bash cannot reach a Unix socket, so the daemon listens on 127.0.0.1 too (an ephemeral port, opened
// on the first ticket only). Nothing is trusted on that port by itself:
// - the shim's `mcp daemon ticket` child finds the server exactly as the Node shim does (the same
//   files, approvals and environment: apps/cli/src/daemon/shim.ts) and asks for a ticket over the private Unix socket;
//   the ticket (256 random bits, single use, valid TICKET_TTL_MS) is bound to that resolved server;
// - a TCP connection must send its ticket on its first line within HELLO_DEADLINE_MS; the daemon
//   keeps only each ticket's SHA-256 and compares in constant time; a wrong, late or missing ticket
//   closes the connection without a word, and at most MAX_UNAUTHENTICATED wait for their hello;
// - the daemon answers a good ticket with the proof issued beside it, so the shim knows it reached
//   this user's daemon and not a process another user bound to the port after the daemon died.
// After that the connection carries the host's JSON-RPC lines both ways, as the Node shim's do.

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";

/** How long an issued ticket may wait for its connection. */
export const TICKET_TTL_MS = 30_000;
/** How long a connection may take to send its ticket. */
export const HELLO_DEADLINE_MS = 5_000;
/** Connections that have not said their ticket yet, at most; more are closed at once. */
export const MAX_UNAUTHENTICATED = 16;
/** Tickets issued and not used yet, at most (a shim uses its own within a second). */
export const MAX_TICKETS = 256;
/** The longest line a host may send (what the Node shim's daemon connection allows). */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** A hello is a ticket (43 characters) and a newline; a longer first line is not one. */
const MAX_HELLO_BYTES = 64;
/** How often the daemon looks whether the scripts of its attached shims still run. */
export const SHIM_WATCH_MS = 2_000;

/** Whether `pid` runs (one of another user counts: it runs); kill(pid, 0) sends nothing. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** What the shim's child prints for the script: where to connect, the ticket, and the daemon's proof. */
export interface Ticket {
  port: number;
  ticket: string;
  proof: string;
}

/** A host's session on the pool (pool-socket.ts's `PoolHostSession`). */
interface HostSession {
  receive(message: unknown): void;
  close(): void;
}

/**
 * Attaches a host to the pool; `send` writes one message to the host, `end` ends its connection.
 * Resolves once the pool's approval check passed; rejects (the session closed) when it refused.
 */
export type Attach<P> = (
  params: P,
  host: { send: (mcp: unknown) => void; end: (reason: string) => void },
) => { session: HostSession; approved: Promise<void> };

const digest = (text: string): Buffer => createHash("sha256").update(text).digest();

/** The loopback listener of the light shims; see the file's head. */
/** `P`: what a ticket is issued for (pool-socket.ts's `AttachParams`). */
export class LightRelay<P> {
  private server: Server | undefined;
  private listening: Promise<number> | undefined;
  private readonly tickets = new Map<string, { hash: Buffer; params: P; proof: string; timer: NodeJS.Timeout }>();
  private readonly waiting = new Set<Socket>();
  private readonly attached = new Set<Socket>();
  /** The script's pid of each attached connection whose script ran when it said its ticket. */
  private readonly watched = new Map<Socket, number>();
  private watch: NodeJS.Timeout | undefined;

  /**
   * `shimPid`: the script's pid a ticket was issued for (the script's `$$`), watched while its
   * connection lasts. A script killed by SIGKILL cannot stop its `cat`s, and the one reading the
   * connection would hold it open (and the pool session with it) as long as the daemon runs: the
   * daemon closes a connection once its script is gone. A pid not running when the ticket is said
   * (another pid namespace, a bad label) is not watched.
   */
  constructor(
    private readonly attach: Attach<P>,
    private readonly shimPid?: (params: P) => number | undefined,
  ) {}

  /** A ticket for `params` (a server resolved by the CLI over the private socket); opens the listener on first use. */
  async issue(params: P): Promise<Ticket> {
    if (this.tickets.size >= MAX_TICKETS) throw new Error(`too many light shims starting at once (${MAX_TICKETS})`);
    const port = await this.listen();
    const ticket = randomBytes(32).toString("base64url");
    const proof = randomBytes(32).toString("base64url");
    const hash = digest(ticket);
    const key = hash.toString("hex");
    const timer = setTimeout(() => this.tickets.delete(key), TICKET_TTL_MS);
    timer.unref();
    this.tickets.set(key, { hash, params, proof, timer });
    return { port, ticket, proof };
  }

  /** The port, once listening (undefined before the first ticket). */
  get port(): number | undefined {
    const address = this.server?.address();
    return typeof address === "object" && address !== null ? address.port : undefined;
  }

  /** Light shims attached now (the daemon does not exit idle while there are any). */
  get connections(): number {
    return this.attached.size;
  }

  /** Tickets waiting for their connection. */
  get pendingTickets(): number {
    return this.tickets.size;
  }

  private listen(): Promise<number> {
    this.listening ??= new Promise<number>((resolve, reject) => {
      const server = createServer((socket) => this.accept(socket));
      this.server = server;
      server.once("error", reject);
      server.listen({ host: "127.0.0.1", port: 0, exclusive: true }, () => {
        server.off("error", reject);
        server.on("error", () => {});
        resolve(this.port!);
      });
    });
    return this.listening;
  }

  private accept(socket: Socket): void {
    socket.on("error", () => {});
    // One JSON-RPC line each way at a time: no waiting for more to fill a packet.
    socket.setNoDelay(true);
    if (this.waiting.size >= MAX_UNAUTHENTICATED) return void socket.destroy();
    this.waiting.add(socket);
    // Out of the waiting count before it closes: a connection that sees it closed finds room.
    const drop = (): void => {
      clearTimeout(deadline);
      this.waiting.delete(socket);
      socket.destroy();
    };
    const deadline = setTimeout(drop, HELLO_DEADLINE_MS);
    let hello = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      hello = Buffer.concat([hello, chunk]);
      const end = hello.indexOf(0x0a);
      if (end < 0) {
        if (hello.length > MAX_HELLO_BYTES) drop();
        return;
      }
      socket.off("data", onData);
      clearTimeout(deadline);
      this.waiting.delete(socket);
      const entry = this.redeem(hello.subarray(0, end).toString("latin1").trim());
      if (entry === undefined) return drop();
      this.relay(socket, entry, hello.subarray(end + 1));
    };
    socket.on("data", onData);
    socket.once("close", () => {
      clearTimeout(deadline);
      this.waiting.delete(socket);
    });
  }

  /** The ticket's entry, removed (single use); undefined for an unknown or malformed ticket. */
  private redeem(ticket: string): { params: P; proof: string } | undefined {
    if (!/^[A-Za-z0-9_-]{43}$/.test(ticket)) return undefined;
    const hash = digest(ticket);
    const key = hash.toString("hex");
    const entry = this.tickets.get(key);
    // Looked up by its hash (nothing about the ticket leaks from the lookup), then compared in constant time.
    if (entry === undefined || !timingSafeEqual(entry.hash, hash)) return undefined;
    this.tickets.delete(key);
    clearTimeout(entry.timer);
    return entry;
  }

  /** Carries the host's lines to its pool session and the session's messages back, one JSON per line. */
  private relay(socket: Socket, entry: { params: P; proof: string }, rest: Buffer): void {
    this.attached.add(socket);
    const pid = this.shimPid?.(entry.params);
    if (pid !== undefined && Number.isSafeInteger(pid) && pid > 1 && running(pid)) {
      this.watched.set(socket, pid);
      this.watch ??= setInterval(() => this.sweep(), SHIM_WATCH_MS).unref();
    }
    let proven = false;
    const write = (mcp: unknown): void => void (proven && socket.writable && socket.write(`${JSON.stringify(mcp)}\n`));
    const { session, approved } = this.attach(entry.params, {
      send: write,
      // The server failed twice or was killed: the connection ends, the shim exits and says so.
      end: () => socket.end(),
    });
    // The proof only once the pool's approval check passed: refused, the connection closes
    // unanswered and the script runs the Node shim, which says why on the host's stderr.
    approved.then(
      () => {
        proven = true;
        if (socket.writable) socket.write(`${entry.proof}\n`);
      },
      () => socket.destroy(),
    );
    socket.once("close", () => {
      this.attached.delete(socket);
      this.watched.delete(socket);
      if (this.watched.size === 0) this.stopWatch();
      session.close();
    });
    let parts: Buffer[] = [];
    let size = 0;
    const line = (text: string): void => {
      // Nothing is taken from the host before the daemon proved itself (the script sends nothing before).
      if (!proven || text.trim() === "") return;
      let mcp: unknown;
      try {
        mcp = JSON.parse(text);
      } catch {
        return write({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32700, message: "Parse error: a line that is not JSON" },
        });
      }
      session.receive(mcp);
    };
    const take = (chunk: Buffer): void => {
      let start = 0;
      for (let end = chunk.indexOf(0x0a); end >= 0; end = chunk.indexOf(0x0a, start)) {
        parts.push(chunk.subarray(start, end));
        const text = Buffer.concat(parts).toString("utf8");
        parts = [];
        size = 0;
        start = end + 1;
        line(text);
      }
      if (start < chunk.length) {
        parts.push(chunk.subarray(start));
        size += chunk.length - start;
        if (size > MAX_LINE_BYTES) {
          write({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `a line over ${MAX_LINE_BYTES} bytes` } });
          socket.end(() => socket.destroy());
        }
      }
    };
    socket.on("data", take);
    if (rest.length > 0) take(rest);
  }

  /** Closes the connections whose script is gone (see the constructor). */
  private sweep(): void {
    for (const [socket, pid] of this.watched) if (!running(pid)) socket.destroy();
  }

  private stopWatch(): void {
    clearInterval(this.watch);
    this.watch = undefined;
  }

  /** Closes the listener, every connection and every ticket. */
  async close(): Promise<void> {
    this.stopWatch();
    for (const { timer } of this.tickets.values()) clearTimeout(timer);
    this.tickets.clear();
    for (const socket of [...this.waiting, ...this.attached]) socket.destroy();
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
