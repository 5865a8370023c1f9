// `StdioTransport`: spawning the server, framing its messages, the write queue, its lifecycle.
import type { ChildProcess } from "node:child_process";
import {
  EndpointTransport,
  InvalidConfigError,
  MessageTooLargeError,
  ParseError,
  TransportClosedError,
  type JsonRpcMessage,
} from "@mcp/jsonrpc";
import { checkTimeout, inspectCustom, redactConfig } from "@mcp/jsonrpc/internal";
import { checkStdioNumbers, stdioCommandProblems, type StdioTransportConfig } from "./config.js";
import { spawnServer, started } from "./child.js";
import { endProcessTree, forgetChild, runNow, signalGroup, watchChild } from "./process-tree.js";
import { SpawnError } from "./spawn-error.js";
import { LineDecoder } from "./line-decoder.js";
import { ByteRing } from "./ring-buffer.js";
import { DEFAULT_MAX_WRITE_QUEUE_BYTES, StdinWriter } from "./stdin-writer.js";

const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
const DEFAULT_STDERR_TAIL_BYTES = 64 * 1024;
const DEFAULT_GRACE_MS = 2000;
/** After the child exits, how long the rest of its stdout may take; before, how long its exit may. */
const STDOUT_DRAIN_MS = 100;
const EXIT_WAIT_MS = 2000;

type State = "new" | "connecting" | "open" | "closing" | "closed";

/**
 * An MCP transport over a child process's stdin/stdout (newline-delimited JSON).
 * Owns spawning, framing, stderr and the process lifecycle; knows nothing of MCP method order.
 * The JSON-RPC peer (ids, routing, cancellation, callbacks) is the jsonrpc {@link EndpointTransport};
 * stdio ties no notification to a request (`onNotification`'s context is never given here).
 */
export class StdioTransport extends EndpointTransport {
  readonly config: Readonly<StdioTransportConfig>;
  readonly #stderr: ByteRing;
  #child: ChildProcess | undefined;
  #state: State = "new";
  readonly #writer: StdinWriter;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #exited: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #closeError: TransportClosedError | undefined;
  #drainTimer: ReturnType<typeof setTimeout> | undefined;
  #drainWait = 0;
  #stdoutEnded = false;
  #protocolVersion: string | undefined;
  #sawOutput!: () => void;
  readonly #firstOutput = new Promise<void>((resolve) => (this.#sawOutput = resolve));

  constructor(config: StdioTransportConfig) {
    const serverName = config.serverName;
    const [problem] = stdioCommandProblems(config);
    if (problem !== undefined) throw new InvalidConfigError(problem.message, { serverName, field: problem.field });
    checkTimeout(config.timeout, "timeout", serverName);
    checkStdioNumbers(config);
    super({ timeout: config.timeout, source: "stdout" });
    this.config = { ...config };
    this.#stderr = new ByteRing(config.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);
    this.#writer = new StdinWriter(config.maxWriteQueueBytes ?? DEFAULT_MAX_WRITE_QUEUE_BYTES, serverName);
  }

  /** Hands a message to stdin (the endpoint's way out). */
  protected send(message: JsonRpcMessage): Promise<void> | undefined {
    return this.#write(message);
  }

  /** True while the child is running and the transport is open. */
  override get connected(): boolean {
    return this.#state === "open";
  }

  /** The child's process id, once spawned. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Bytes written to the server and not yet taken by its stdin (bounded by `maxWriteQueueBytes`). */
  get writeQueueBytes(): number {
    return this.#writer.bytes;
  }

  /**
   * False while more than half of `maxWriteQueueBytes` waits for the server to read its stdin: a
   * writer that can wait should, with {@link whenWritable} (past the whole bound, writes are refused).
   */
  get writable(): boolean {
    return this.#writer.writable;
  }

  /**
   * Resolves once {@link writable} is true again (at once if it is), or once the transport closes;
   * rejects with `signal`'s reason if it aborts first.
   */
  whenWritable(signal?: AbortSignal): Promise<void> {
    return this.#writer.whenWritable(signal);
  }

  /** The last lines the child wrote to stderr (in `"pipe"` mode). */
  get stderrTail(): string {
    return this.#stderr.text();
  }

  /**
   * Settles at the child's first output (a byte on stdout, or on stderr in `"pipe"` mode) or when the
   * transport closes, whichever comes first: the first sign that the server runs. `@mcp/client` counts
   * its stdio `server/discover` probe's short bound from here, not from the spawn.
   */
  get firstOutput(): Promise<void> {
    return this.#firstOutput;
  }

  /** The protocol version the handshake agreed on, once told (stdio sends no header; kept for callers). */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** Records the negotiated protocol version (part of the MCPTransport contract; stdio has no header to send). */
  setProtocolVersion(version: string | undefined): void {
    this.#protocolVersion = version;
  }

  /** Exit code and signal, once the child has exited. */
  get exitStatus(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.#exit;
  }

  /** Spawns the child. Rejects with {@link SpawnError} when the command cannot be started. */
  async connect(): Promise<void> {
    if (this.#state !== "new") throw new Error("StdioTransport.connect() can be called only once");
    this.#state = "connecting";
    let child: ChildProcess;
    try {
      child = spawnServer(this.config);
    } catch (refused) {
      if (!(refused instanceof SpawnError)) throw refused;
      this.#state = "closed";
      this.#sawOutput();
      this.endpoint.close(new TransportClosedError({ cause: refused }));
      throw refused;
    }
    this.#child = child;
    // Watched from the start, so a close() that arrives while the child is still starting can wait
    // for its exit (and escalate to SIGTERM and SIGKILL) like any other.
    this.#exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.#exit = { code, signal };
        resolve();
        this.#onChildGone();
      });
    });
    if (child.pid !== undefined) {
      watchChild(this);
    }

    try {
      await started(child, this.config);
    } catch (error) {
      const wasClosing = this.#state !== "connecting";
      this.#state = "closed";
      this.#sawOutput();
      this.#forget();
      this.endpoint.close(new TransportClosedError({ cause: error }));
      if (wasClosing) {
        await this.#closing;
        throw new TransportClosedError({ detail: "closed while connecting", cause: error });
      }
      throw error;
    }
    if (this.#state !== "connecting") {
      // close() was called while the child started; it is ending it now.
      await this.#closing;
      throw new TransportClosedError({ detail: "closed while connecting" });
    }

    this.#state = "open";
    child.on("error", (error) => this.endpoint.reportError(error));

    const stdin = child.stdin!;
    // EPIPE and friends: the child is going away; requests learn it as "Transport closed", never as a crash.
    stdin.on("error", () => this.#onChildGone());
    this.#writer.attach(stdin);

    const decoder = new LineDecoder(
      this.config.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      (line) => this.#onLine(line),
      (size) =>
        this.endpoint.reportError(
          new MessageTooLargeError(size, this.config.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, "stdout line"),
        ),
    );
    const stdout = child.stdout!;
    stdout.once("data", () => this.#sawOutput());
    stdout.on("data", (chunk: Buffer) => decoder.push(chunk));
    stdout.on("error", (error) => this.endpoint.reportError(error));
    stdout.once("end", () => {
      this.#stdoutEnded = true;
      this.#onChildGone();
    });

    if (child.stderr) {
      child.stderr.once("data", () => this.#sawOutput());
      child.stderr.on("data", (chunk: Buffer) => {
        this.#stderr.push(chunk);
        if (this.config.onStderr) {
          try {
            this.config.onStderr(chunk.toString("utf8"));
          } catch {
            // A log hook must not break the transport.
          }
        }
      });
      child.stderr.on("error", () => undefined);
    }
  }

  /**
   * Closes the transport: rejects pending requests with `Transport closed`, ends stdin, waits
   * `closeGraceMs`, sends SIGTERM to the child's process group, waits `killGraceMs`, then SIGKILL.
   * Resolves when the child is gone. Safe to call more than once.
   */
  override close(): Promise<void> {
    this.#shutdown();
    return this.#closing ?? Promise.resolve();
  }

  /** Synchronously kills the process group (used when the host process exits). */
  killNow(): void {
    const pid = this.#child?.pid;
    if (pid !== undefined) signalGroup(pid, "SIGKILL", process.platform, runNow);
  }

  /** No longer killed when the host exits: the child is gone (or never started). */
  #forget(): void {
    forgetChild(this);
  }

  /** What `console.log(transport)` shows: the process and config, with env values redacted. */
  [inspectCustom](): object {
    return {
      command: this.config.command,
      args: this.config.args ?? [],
      pid: this.pid,
      connected: this.connected,
      exitStatus: this.#exit,
      config: redactConfig(this.config),
    };
  }

  /** What `JSON.stringify(transport)` gives: the same redacted view. */
  toJSON(): object {
    return this[inspectCustom]();
  }

  /** Refusals after the child died carry why (its exit status, its stderr's tail). */
  protected override closedReason(): TransportClosedError {
    return this.#closeError ?? new TransportClosedError();
  }

  #onLine(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      // A banner or log line on stdout: skip it, say so, keep the connection.
      this.endpoint.reportError(new ParseError("stdout line", text, { cause: error }));
      return;
    }
    this.endpoint.receive(value);
  }

  /** Hands a message to stdin; returns a promise only when it must wait for `drain`. */
  #write(message: JsonRpcMessage): Promise<void> | undefined {
    if (this.#state !== "open") throw this.closedReason();
    return this.#writer.write(JSON.stringify(message));
  }

  /**
   * The child exited or closed its stdout; the two race, and pending responses are delivered first.
   * Exited: the rest of stdout comes within moments. Not yet: its exit status can come late on a
   * loaded machine, and the error would say "closed its stdout" instead of "exited with code 3".
   */
  #onChildGone(): void {
    if (this.#state !== "open") return; // connecting: the spawn outcome decides; closing: #terminate waits
    if (this.#stdoutEnded && this.#exit !== undefined) return this.#shutdown(this.#diedError());
    const wait = this.#exit === undefined ? EXIT_WAIT_MS : STDOUT_DRAIN_MS;
    if (this.#drainTimer !== undefined && this.#drainWait === wait) return;
    clearTimeout(this.#drainTimer);
    this.#drainWait = wait;
    this.#drainTimer = setTimeout(() => this.#shutdown(this.#diedError()), wait);
  }

  #diedError(): TransportClosedError {
    const exit = this.#exit;
    const tail = this.#stderr.text();
    return new TransportClosedError({
      ...(exit ? { exitCode: exit.code, signal: exit.signal } : { detail: "the server closed its stdout" }),
      ...(tail ? { stderrTail: tail } : {}),
    });
  }

  /** Moves to closing exactly once, whatever triggered it, and starts ending the child. */
  #shutdown(error?: TransportClosedError): void {
    if (this.#state === "closing" || this.#state === "closed") return;
    this.#sawOutput();
    if (this.#state === "new") {
      this.#state = "closed";
      this.endpoint.close(error ?? new TransportClosedError());
      return;
    }
    this.#state = "closing";
    if (this.#drainTimer !== undefined) clearTimeout(this.#drainTimer);
    this.#closeError = error ?? new TransportClosedError();
    this.#writer.close(this.#closeError);
    this.endpoint.close(this.#closeError);
    this.#closing = this.#terminate().finally(() => {
      this.#state = "closed";
      this.#forget();
      this.closed(this.#closeError); // onClose, once the child is gone
    });
  }

  async #terminate(): Promise<void> {
    const child = this.#child;
    if (!child || child.pid === undefined) return;
    const exited = this.#exited ?? Promise.resolve();
    const waitExit = (ms: number): Promise<boolean> =>
      this.#exit !== undefined
        ? Promise.resolve(true)
        : new Promise((resolve) => {
            const timer = setTimeout(() => resolve(false), ms);
            void exited.then(() => {
              clearTimeout(timer);
              resolve(true);
            });
          });
    await endProcessTree(
      child,
      waitExit,
      this.config.closeGraceMs ?? DEFAULT_GRACE_MS,
      this.config.killGraceMs ?? DEFAULT_GRACE_MS,
    );
  }
}

/** Spawns `config.command` and returns a connected transport. */
export async function createStdioTransport(config: StdioTransportConfig): Promise<StdioTransport> {
  const transport = new StdioTransport(config);
  await transport.connect();
  return transport;
}
