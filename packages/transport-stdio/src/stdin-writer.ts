// The write queue to the child's stdin: messages of one tick leave in one write, later ones wait for
// `drain`, and what waits is bounded (`maxWriteQueueBytes`): past half of it `writable` is false
// (a writer that can wait, such as the pool, waits for `whenWritable`), and a write while the queue
// is over it is refused with a `WriteQueueFullError` instead of being buffered without end.
import type { Writable } from "node:stream";
import { McpError } from "@mcp/jsonrpc";

/** The default bound on what waits to be written to a server's stdin (16 MiB). */
export const DEFAULT_MAX_WRITE_QUEUE_BYTES = 16 * 1024 * 1024;

/**
 * A message was not written: the server has left more than `maxWriteQueueBytes` of what was
 * written to it unread (it does not read its stdin). The message is dropped; nothing else changes.
 */
export class WriteQueueFullError extends McpError<"write_queue_full"> {
  static override readonly brand: string = "WriteQueueFullError";
  /** What waited to be written when the message came (bytes of JSON text). */
  declare readonly queued: number;
  declare readonly limit: number;
  declare readonly serverName: string | undefined;

  constructor(queued: number, limit: number, serverName?: string) {
    super(
      "write_queue_full",
      `${serverName === undefined ? "the MCP server" : `MCP server "${serverName}"`} is not reading its stdin: ${queued} bytes wait to be written, over the limit of ${limit}; the message was not sent (raise the limit with the "maxWriteQueueBytes" option)`,
    );
    this.queued = queued;
    this.limit = limit;
    this.serverName = serverName;
  }
}

interface QueuedWrite {
  data: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** One child's stdin, with its write queue and bound. */
export class StdinWriter {
  #stdin: Writable | undefined;
  #queue: QueuedWrite[] = [];
  #queuedBytes = 0;
  #waitingForDrain = false;
  /** This tick's later lines (without their newlines), joined once when the tick ends: no string per line to glue them. */
  #outbox: string[] = [];
  /** What `#outbox` will write (bytes of JSON text, newlines included). */
  #outboxBytes = 0;
  #flushScheduled = false;
  #waiters: (() => void)[] = [];

  constructor(
    readonly limit: number,
    readonly serverName: string | undefined,
  ) {}

  /** Starts writing to `stdin` (once the child runs). */
  attach(stdin: Writable): void {
    this.#stdin = stdin;
    stdin.on("drain", () => this.#flush());
  }

  /** What waits to be written: this tick's outbox, the queue waiting for `drain`, the stream's own buffer. */
  get bytes(): number {
    return this.#outboxBytes + this.#queuedBytes + (this.#stdin?.writableLength ?? 0);
  }

  /** False past half of {@link limit}: a writer that can wait should (see {@link whenWritable}). */
  get writable(): boolean {
    return this.bytes <= this.limit / 2;
  }

  /**
   * Resolves once {@link writable} (at once if it is), or once the transport closes; rejects with
   * `signal`'s reason when it aborts first (and is forgotten: an abandoned wait holds nothing).
   */
  whenWritable(signal?: AbortSignal): Promise<void> {
    if (this.writable || this.#stdin === undefined) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter = (): void => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const at = this.#waiters.indexOf(waiter);
        if (at >= 0) this.#waiters.splice(at, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /**
   * Hands `line` (one message's JSON text, without its newline, which is added here) to stdin; a
   * promise only when it must wait for `drain`. Throws {@link WriteQueueFullError} when more than
   * {@link limit} waits already.
   */
  write(line: string): Promise<void> | undefined {
    const stdin = this.#stdin!;
    const waiting = this.bytes;
    if (waiting > this.limit) throw new WriteQueueFullError(waiting, this.limit, this.serverName);
    if (this.#waitingForDrain) {
      const data = `${line}\n`;
      this.#queuedBytes += data.length;
      return new Promise((resolve, reject) => this.#queue.push({ data, resolve, reject }));
    }
    if (!this.#flushScheduled) {
      // First message of this tick: out at once (no added latency for one-at-a-time traffic).
      this.#flushScheduled = true;
      process.nextTick(this.#flushOutbox);
      if (!stdin.write(`${line}\n`)) this.#waitingForDrain = true;
    } else {
      // Later messages of the same tick leave together in one write: far fewer syscalls and
      // stream bookkeeping when requests are pipelined.
      this.#outbox.push(line);
      this.#outboxBytes += line.length + 1;
    }
    return undefined;
  }

  readonly #flushOutbox = (): void => {
    this.#flushScheduled = false;
    const lines = this.#outbox;
    if (lines.length === 0) return;
    this.#outbox = [];
    this.#outboxBytes = 0;
    const stdin = this.#stdin;
    if (!stdin || !stdin.writable) return;
    lines.push(""); // the last line's newline
    if (!stdin.write(lines.join("\n"))) this.#waitingForDrain = true;
  };

  /** stdin drained: send what waited for it, in one write, release its callers and those waiting to write. */
  #flush(): void {
    this.#waitingForDrain = false;
    const stdin = this.#stdin;
    if (this.#queue.length > 0 && stdin && stdin.writable) {
      const batch = this.#queue.splice(0);
      this.#queuedBytes = 0;
      if (!stdin.write(batch.map((queued) => queued.data).join(""))) this.#waitingForDrain = true;
      for (const queued of batch) queued.resolve();
    }
    if (this.#waiters.length > 0 && this.writable) for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /** The transport closed: what waited is refused with `error`; those waiting to write are let go (their write fails). */
  close(error: unknown): void {
    for (const queued of this.#queue.splice(0)) queued.reject(error);
    this.#queuedBytes = 0;
    this.#outbox = [];
    this.#outboxBytes = 0;
    for (const resolve of this.#waiters.splice(0)) resolve();
    this.#stdin = undefined;
  }
}
