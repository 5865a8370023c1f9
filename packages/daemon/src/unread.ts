// What the daemon lets a host leave unread, and the sessions it ended. A host that does not read its
// stdout fills its connection (the light shim's D, the Node shim's Unix socket): past the socket's
// own buffer the daemon reads no more of that host (light-relay.ts, pool-socket.ts), but the answers
// of requests already in service still come, and would wait in the daemon's memory for good. Past
// `maxUnreadBytes` unread on one connection the daemon ends that session (its connection destroyed,
// with what waited on it), says why in its log (its stderr) and keeps the latest such endings for
// `mcp --json ps` (`ended`). Other hosts are not touched.

/** The default of {@link HostLedger.maxUnreadBytes}: 16 MiB unread on one host's connection. */
export const DEFAULT_MAX_UNREAD_BYTES = 16 * 1024 * 1024;
/** How many ended sessions `pool/status` keeps (the latest). */
const ENDED_KEPT = 32;

/** A host session the daemon ended, as `mcp --json ps` lists it (`ended`). */
export interface EndedSession {
  server: string;
  /** The shim's pid and its parent's (the host's), as the shim said them. */
  shimPid: number;
  parentPid: number;
  reason: string;
  /** When (ISO 8601). */
  at: string;
  /** Bytes the host had left unread on its connection then. */
  unreadBytes: number;
}

/** A host's connection as pool-socket.ts's `attachHost` uses it (the Node shim's socket, the light shim's D). */
export interface HostLink {
  /** Writes one message to the host. */
  send: (mcp: unknown) => void;
  /** The daemon ends the session, saying why (its last lines handed over first). */
  end: (reason: string) => void;
  /** Its requests held are back under the pool's bound: read the host again. */
  drain: () => void;
  /** Bytes written to the host and not yet taken by it (the connection's buffer). */
  unread: () => number;
  /** Ends the session at once, dropping what waits unread (the host left too much unread). */
  abort: () => void;
}

/** Who a session is, for the log and `ended`. */
export interface SessionLabel {
  server: string;
  shimPid: number;
  parentPid: number;
}

/** The daemon's bound on what one host leaves unread, and its record of the sessions it ended. */
export class HostLedger {
  readonly #ended: EndedSession[] = [];
  /** The most any host connection held unread since the daemon started, right after a write (bytes). */
  peakUnreadBytes = 0;
  /** The daemon is closing: the sessions it ends are not recorded (each would say so). */
  closing = false;

  constructor(
    /** Bytes waiting unread on one host's connection past which, at its next message, its session is ended. */
    readonly maxUnreadBytes: number = DEFAULT_MAX_UNREAD_BYTES,
    /** Where the daemon's log lines go (default: its stderr, which `mcp daemon start` appends to daemon.log). */
    readonly log: (line: string) => void = (line) => void process.stderr.write(`${line}\n`),
  ) {
    if (!(maxUnreadBytes > 0))
      throw new RangeError(`maxUnreadBytes must be a positive number of bytes; got ${String(maxUnreadBytes)}`);
  }

  /** The latest sessions the daemon ended, oldest first. */
  get ended(): readonly EndedSession[] {
    return this.#ended;
  }

  /** Notes what a connection holds right after a write. */
  wrote(unread: number): void {
    if (unread > this.peakUnreadBytes) this.peakUnreadBytes = unread;
  }

  /** Records (and logs) that the daemon ended `who`'s session for `reason`. */
  record(who: SessionLabel, reason: string, unreadBytes: number): void {
    if (this.closing) return;
    const at = new Date().toISOString();
    this.#ended.push({ ...who, reason, at, unreadBytes });
    if (this.#ended.length > ENDED_KEPT) this.#ended.shift();
    this.log(
      `${at} mcp daemon: ended the session of shim ${who.shimPid} (host pid ${who.parentPid}) on "${who.server}": ${reason}`,
    );
  }

  /** Why a session over the bound was ended, as its log line and `ended` say. */
  overReason(unread: number): string {
    return `the host left ${unread} bytes of answers unread (not reading its stdout), over the daemon's limit of ${this.maxUnreadBytes} (MCP_POOL_MAX_UNREAD_MB)`;
  }
}
