// A recording served in-process: `ReplayTransport` (an MCPTransport with no wire) and `connectReplay()`, an @mcp/client connection to it.
import { connectToServer, type ConnectOptions, type MCPServerConnection, type RecordedMessage } from "@mcp/client";
import {
  JsonRpcEndpoint,
  RpcError,
  toError,
  type JsonRpcMessage,
  type MCPTransport,
  type MessageDirection,
  type NotificationContext,
  type RequestContext,
} from "@mcp/jsonrpc";
import { recordingFrom, type Recording } from "./file.js";
import { ReplaySession, unrecordedMethodOf, type ReplayEvent } from "./session.js";

/** The recorded request closest to one that matched none. */
export interface ClosestRequest {
  method: string;
  params: unknown;
  /** Its line in the recording (1-based; its position for entries held in memory). */
  line: number;
}

/**
 * A request the recording has no answer for, as an in-process replay rejects it. An {@link RpcError}
 * with the code a replay server sends for it over stdio or HTTP: `-32602` when the recording has the
 * method with other params, `-32601` when it has not the method at all; the message and `closest`
 * name the recorded request nearest to it.
 */
export class UnrecordedRequestError extends RpcError {
  static override readonly brand: string = "UnrecordedRequestError";
  /** The method asked for. */
  declare readonly method: string;
  /** The recording's name (its file). */
  declare readonly recording: string;
  /** The nearest recorded request; undefined when the recording has none. */
  declare readonly closest: ClosestRequest | undefined;

  constructor(
    code: number,
    message: string,
    method: string,
    data: { recording: string; closest?: ClosestRequest | undefined },
  ) {
    super(code, message, data);
    this.method = method;
    this.recording = data.recording;
    this.closest = data.closest;
  }
}

/** Options of {@link ReplayTransport}. */
export interface ReplayTransportOptions {
  /** Each client message, and the recorded line that answered it (or the error sent). */
  onEvent?: ((event: ReplayEvent) => void) | undefined;
  /** Default request timeout (ms); the client's own timeouts apply as over any transport. */
  timeout?: number | undefined;
}

/**
 * A recording as an {@link MCPTransport} with no process and no socket: each message the client
 * sends is answered from the recording on a later microtask, as a wire would answer it (ids and
 * progress tokens rewritten, recorded server→client requests asked again). A request the recording
 * has no answer for rejects with {@link UnrecordedRequestError}.
 */
export class ReplayTransport implements MCPTransport {
  onClose: (() => void) | undefined;
  onError: ((error: Error) => void) | undefined;
  onNotification: ((method: string, params: unknown, context?: NotificationContext) => void) | undefined;
  onRequest: ((method: string, params: unknown, context: RequestContext) => Promise<unknown>) | undefined;
  onMessage: ((message: unknown, direction: MessageDirection) => void) | undefined;
  readonly #session: ReplaySession;
  readonly #endpoint: JsonRpcEndpoint;
  #closed = false;

  constructor(recording: Recording, options: ReplayTransportOptions = {}) {
    this.#session = new ReplaySession(recording, options.onEvent);
    this.#endpoint = new JsonRpcEndpoint({
      send: (message) => this.#send(message),
      handlers: this,
      defaultTimeout: options.timeout,
      source: "replay",
    });
  }

  get connected(): boolean {
    return !this.#closed;
  }

  get pendingRequests(): number {
    return this.#endpoint.pending.size;
  }

  request<T = unknown>(method: string, params?: object, options?: Parameters<MCPTransport["request"]>[2]): Promise<T> {
    return this.#endpoint.request<T>(method, params, options);
  }

  notify(method: string, params?: object): Promise<void> {
    return this.#endpoint.notify(method, params);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#session.close();
    this.#endpoint.close();
    this.onClose?.();
    return Promise.resolve();
  }

  /** The client's message reaches the recording after this turn, as it would cross a wire. */
  #send(message: JsonRpcMessage): void {
    queueMicrotask(() => {
      if (this.#closed) return;
      this.#session
        .receive(message, (answer) => this.#deliver(answer))
        .catch((error: unknown) => this.#endpoint.reportError(toError(error)));
    });
  }

  #deliver(message: JsonRpcMessage): void {
    if (this.#closed) return;
    const method = unrecordedMethodOf(message);
    if (method !== undefined && "error" in message && message.id !== null) {
      const {
        code,
        message: text,
        data,
      } = message.error as { code: number; message: string; data: { recording: string; closest?: ClosestRequest } };
      try {
        this.onMessage?.(message, "in");
      } catch (error) {
        this.#endpoint.reportError(toError(error));
      }
      this.#endpoint.pending.reject(message.id, new UnrecordedRequestError(code, text, method, data));
      return;
    }
    this.#endpoint.receive(message);
  }
}

/** Options of {@link connectReplay}: those of `connectToServer`, and which server of the recording. */
export interface ConnectReplayOptions extends Omit<ConnectOptions, "transport"> {
  /** The server to replay when the entries record several. */
  server?: string | undefined;
  /** The connection's name. Default: the recorded server's. */
  name?: string | undefined;
  /** Each client message, and the recorded line that answered it (or the error sent). */
  onEvent?: ((event: ReplayEvent) => void) | undefined;
}

/**
 * An @mcp/client connection to a recording, in-process: the handshake and every request answered
 * as the recorded server answered them. `recording` is what `readRecording` or `recordingFrom`
 * gave, or the entries a `record` listener collected. Close it with `disconnectServer`. Its
 * `config` is `{ command: "replay", args: [<recording's file>] }`: nothing is spawned.
 *
 * @example
 * const conn = await connectReplay(readRecording("test/fixtures/session.ndjson"));
 * expect(await callTool(conn, "get-sum", { a: 1, b: 2 })).toEqual(recordedSum);
 */
export async function connectReplay(
  recording: Recording | readonly RecordedMessage[],
  options: ConnectReplayOptions = {},
): Promise<MCPServerConnection<ReplayTransport>> {
  const { server, name, onEvent, ...connect } = options;
  const loaded = Array.isArray(recording)
    ? recordingFrom(recording as readonly RecordedMessage[], { server })
    : (recording as Recording);
  const transport = new ReplayTransport(loaded, { onEvent });
  return connectToServer(name ?? loaded.server, { command: "replay", args: [loaded.file] }, { ...connect, transport });
}
