// The daemon's side of the light shim (`mcp-shim`, apps/cli/shim/mcp-shim): a bash script that leaves
// two `cat`s relaying a host's stdin/stdout over bash's /dev/tcp instead of a Node process (~2.6 MB against ~42 MB).
// bash cannot reach a Unix socket, so the daemon listens on 127.0.0.1 too (an ephemeral port, opened
// on the first ticket only). Nothing is trusted on that port by itself:
// - the shim's `mcp daemon ticket` child finds the server exactly as the Node shim does (the same
//   files, approvals and environment: apps/cli/src/daemon/shim.ts) and asks for a ticket over the private Unix socket;
//   the ticket (256 random bits, single use, valid TICKET_TTL_MS) is bound to that resolved server;
// - a TCP connection must send its ticket on its first line within HELLO_DEADLINE_MS; the daemon
//   keeps only each ticket's SHA-256 and compares in constant time; a wrong, late or missing ticket
//   closes the connection without a word, and at most MAX_UNAUTHENTICATED wait for their hello;
// - the daemon answers a good ticket with the proof issued beside it, so the shim knows it reached
//   this user's daemon and not a process another user bound to the port after the daemon died;
// - the proof comes with a pairing secret (256 random bits, single use, said within PAIR_DEADLINE_MS,
//   hashed and compared as a ticket is): the shim's second connection says it to be bound to the
//   same session, and is answered with the proof again.
// The first connection (U) then carries the host's JSON-RPC lines to the pool, the second (D) the
// pool's lines to the host. In the shim each is held by one `cat` and nothing else, so either one
// closing (the host closed stdin; the process the host waits on ended, even by SIGKILL) is seen
// here, and the session ends with both connections: no process needs watching by its pid.

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { stopHolder } from "./light-holder.js";
import type { HostLink } from "./unread.js";

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
/** How long a session's second connection (D) may take to say its pairing secret, from when it was sent on U. */
export const PAIR_DEADLINE_MS = 5_000;
/** How long a session that ended may take to hand its last lines to the shim before D is closed regardless. */
const DRAIN_MS = 5_000;

/** What the shim's child prints for the script: where to connect, the ticket, and the daemon's proof. */
export interface Ticket {
  port: number;
  ticket: string;
  proof: string;
}

/** A host's session on the pool (pool-socket.ts's `PoolHostSession`). */
interface HostSession {
  /** False: the host's requests held are over the pool's mark; read no more until `drain`. */
  receive(message: unknown, bytes?: number): boolean | void;
  hostReads(reads: boolean): void; // false: the host reads nothing of D, its requests wait unstarted
  close(): void;
}

/**
 * Attaches a host to the pool; `send` writes one message to the host, `end` ends its connection,
 * `drain`: the host's requests held are back under the mark (read U again); `unread`: bytes on D
 * the host has not taken; `abort`: ends the session at once, D destroyed with what waits on it.
 * Resolves once the pool's approval check passed; rejects (the session closed) when it refused.
 */
export type Attach<P> = (params: P, host: HostLink) => { session: HostSession; approved: Promise<void> };

const digest = (text: string): Buffer => createHash("sha256").update(text).digest();

/** One light shim's session: U (the host's lines in), D (the pool's lines out) once paired. */
interface Link {
  up: Socket;
  down: Socket | undefined;
  session: HostSession | undefined;
  proof: string;
  /** The pairing secret's key while it waits for D. */
  pairKey: string | undefined;
  /** U is read no more until D drains (the host is not reading its stdout). */
  held: boolean;
  /** U is read no more until the pool drains (the host's requests held are over its mark). */
  full: boolean;
  /** The pid the script said holds U (its reading `cat`), said first on D: signalled when the daemon ends the session (light-holder.ts). */
  upPid: number | undefined;
  closed: boolean;
}

/** The loopback listener of the light shims; see the file's head. */
/** `P`: what a ticket is issued for (pool-socket.ts's `AttachParams`). */
export class LightRelay<P> {
  private server: Server | undefined;
  private listening: Promise<number> | undefined;
  private readonly tickets = new Map<string, { hash: Buffer; params: P; proof: string; timer: NodeJS.Timeout }>();
  private readonly pairs = new Map<string, { hash: Buffer; link: Link; timer: NodeJS.Timeout }>();
  private readonly waiting = new Set<Socket>();
  private readonly links = new Set<Link>();
  /** Sockets of ended sessions still handing their last lines over (DRAIN_MS at most). */
  private readonly draining = new Set<Socket>();

  constructor(private readonly attach: Attach<P>) {}

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

  /** Light shims attached now, paired or waiting for D (the daemon does not exit idle while there are any). */
  get connections(): number {
    return this.links.size;
  }

  /** Tickets waiting for their connection. */
  get pendingTickets(): number {
    return this.tickets.size;
  }

  /** Sessions whose host is not reading its stdout: their U is read no more until D drains. */
  get held(): number {
    let count = 0;
    for (const link of this.links) if (link.held) count++;
    return count;
  }

  /** Sessions whose requests held in the pool are over its mark: their U is read no more until they drain. */
  get full(): number {
    let count = 0;
    for (const link of this.links) if (link.full) count++;
    return count;
  }

  /** Pairing secrets waiting for their second connection. */
  get pendingPairs(): number {
    return this.pairs.size;
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
      // Nothing more is read until the connection's role is known (U reads again once paired).
      socket.pause();
      clearTimeout(deadline);
      this.waiting.delete(socket);
      const said = hello.subarray(0, end).toString("latin1").trim();
      const entry = this.redeem(this.tickets, said);
      if (entry !== undefined) return this.openUp(socket, entry, hello.subarray(end + 1));
      const pair = this.redeem(this.pairs, said);
      if (pair !== undefined) return this.openDown(socket, pair.link);
      drop();
    };
    socket.on("data", onData);
    socket.once("close", () => {
      clearTimeout(deadline);
      this.waiting.delete(socket);
    });
  }

  /** The secret's entry in `table`, removed (single use); undefined for an unknown or malformed secret. */
  private redeem<E extends { hash: Buffer; timer: NodeJS.Timeout }>(
    table: Map<string, E>,
    said: string,
  ): E | undefined {
    if (!/^[A-Za-z0-9_-]{43}$/.test(said)) return undefined;
    const hash = digest(said);
    const key = hash.toString("hex");
    const entry = table.get(key);
    // Looked up by its hash (nothing about the secret leaks from the lookup), then compared in constant time.
    if (entry === undefined || !timingSafeEqual(entry.hash, hash)) return undefined;
    table.delete(key);
    clearTimeout(entry.timer);
    return entry;
  }

  /** U: attaches the host to its pool session; once approved, the proof and a pairing secret for D. */
  private openUp(up: Socket, entry: { params: P; proof: string }, rest: Buffer): void {
    const link: Link = {
      up,
      down: undefined,
      session: undefined,
      proof: entry.proof,
      pairKey: undefined,
      held: false,
      full: false,
      upPid: undefined,
      closed: false,
    };
    this.links.add(link);
    up.once("close", () => this.end(link, "up"));
    const { session, approved } = this.attach(entry.params, {
      // Nothing reaches the host before D is paired (the host has said nothing before).
      send: (mcp) => this.toHost(link, mcp),
      // The server failed twice or was killed: both connections end, and so does the shim.
      end: () => this.end(link),
      drain: () => ((link.full = false), this.readUp(link)),
      unread: () => link.down?.writableLength ?? 0,
      abort: () => this.end(link, "abort"),
    });
    link.session = session;
    // The proof only once the pool's approval check passed: refused, the connection closes
    // unanswered and the script runs the Node shim, which says why on the host's stderr.
    approved.then(
      () => {
        if (link.closed) return;
        const secret = randomBytes(32).toString("base64url");
        const hash = digest(secret);
        const key = hash.toString("hex");
        // Not paired in time (the script gone between its two connections): the session ends.
        const timer = setTimeout(() => this.end(link), PAIR_DEADLINE_MS);
        timer.unref();
        this.pairs.set(key, { hash, link, timer });
        link.pairKey = key;
        up.write(`${entry.proof} ${secret}\n`);
      },
      () => this.end(link),
    );
    // Bytes after the ticket, before pairing: the script sends none; kept for when U reads again.
    if (rest.length > 0) up.unshift(rest);
  }

  /** D: bound to U's session; the proof again, then U's lines are read and the pool's written here. */
  private openDown(down: Socket, link: Link): void {
    link.pairKey = undefined;
    link.down = down;
    down.once("close", () => this.end(link));
    // D carries one line from the shim, the pid of its reading cat (U's holder); anything more is dropped.
    let said = "";
    down.on("data", (chunk: Buffer) => {
      if (said.length > 16) return;
      said += chunk.toString("latin1");
      const end = said.indexOf("\n");
      if (end < 0) return;
      if (/^[1-9]\d{0,9}$/.test(said.slice(0, end))) link.upPid = Number(said.slice(0, end));
      said = "x".repeat(17);
    });
    down.resume();
    down.write(`${link.proof}\n`);
    this.relayUp(link);
  }

  /**
   * Writes one message to the host on D. Past D's buffer (the host not reading its stdout), U is read
   * no more until D drains: the host's requests wait in its own pipe, not as answers in the daemon's memory.
   */
  private toHost(link: Link, mcp: unknown): void {
    const down = link.down;
    if (down === undefined || !down.writable) return;
    // A Buffer: D's `writableLength` then counts bytes (a string counts UTF-16 code units), as the bound does.
    if (down.write(Buffer.from(`${JSON.stringify(mcp)}\n`)) || link.held || link.closed) return;
    link.held = true;
    link.up.pause();
    link.session?.hostReads(false); // and the requests the pool has are held unstarted
    down.once("drain", () => {
      link.held = false;
      link.session?.hostReads(true);
      this.readUp(link);
    });
  }

  /** Reads U again once neither D nor the pool holds it back. */
  private readUp(link: Link): void {
    if (!link.closed && !link.held && !link.full) link.up.resume();
  }

  /** Carries the host's lines on U to its pool session, one JSON per line. */
  private relayUp(link: Link): void {
    const { up } = link;
    let parts: Buffer[] = [];
    let size = 0;
    const write = (mcp: unknown): void => this.toHost(link, mcp);
    const line = (text: string, bytes: number): void => {
      if (link.closed || text.trim() === "") return;
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
      // Over the pool's mark: U is read no more until the session drains (light-relay's backpressure).
      if (link.session?.receive(mcp, bytes) === false && !link.closed) {
        link.full = true;
        up.pause();
      }
    };
    const take = (chunk: Buffer): void => {
      let start = 0;
      for (let end = chunk.indexOf(0x0a); end >= 0; end = chunk.indexOf(0x0a, start)) {
        parts.push(chunk.subarray(start, end));
        const bytes = size + end - start;
        const text = Buffer.concat(parts).toString("utf8");
        parts = [];
        size = 0;
        start = end + 1;
        line(text, bytes);
        // D or the pool is full: the chunk's other lines wait with the rest of U until it drains.
        if ((link.held || link.full) && !link.closed) {
          if (start < chunk.length) up.unshift(chunk.subarray(start));
          return;
        }
      }
      if (start < chunk.length) {
        parts.push(chunk.subarray(start));
        size += chunk.length - start;
        if (size > MAX_LINE_BYTES) {
          write({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `a line over ${MAX_LINE_BYTES} bytes` } });
          this.end(link);
        }
      }
    };
    up.on("data", take);
    up.resume();
  }

  /**
   * Ends a session: the pool's side, U at once, D once its last lines are handed over (DRAIN_MS at
   * most); unless U ended first (its cat is gone), the cat holding U is signalled (light-holder.ts).
   */
  private end(link: Link, first?: "up" | "abort"): void {
    if (link.closed) return;
    link.closed = true;
    const port = this.port;
    if (first !== "up" && link.upPid !== undefined && link.up.remotePort !== undefined && port !== undefined)
      stopHolder(link.upPid, link.up.remotePort, port);
    this.links.delete(link);
    if (link.pairKey !== undefined) {
      clearTimeout(this.pairs.get(link.pairKey)?.timer);
      this.pairs.delete(link.pairKey);
    }
    link.session?.close();
    link.up.destroy();
    const down = link.down;
    if (down === undefined || down.destroyed) return;
    if (first === "abort") return void down.destroy(); // what waits unread goes with it (unread.ts)
    this.draining.add(down);
    const timer = setTimeout(() => down.destroy(), DRAIN_MS);
    timer.unref();
    down.once("close", () => {
      clearTimeout(timer);
      this.draining.delete(down);
    });
    down.end();
  }

  /** Closes the listener, every connection, ticket and pairing secret. */
  async close(): Promise<void> {
    for (const { timer } of this.tickets.values()) clearTimeout(timer);
    this.tickets.clear();
    for (const link of [...this.links]) this.end(link);
    for (const socket of [...this.waiting, ...this.draining]) socket.destroy();
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
