// One client's conversation with a replayed server: each request answered by the recorded exchange it
// matches (ids and progress tokens rewritten), or by an error naming the closest recorded request.
import {
  ErrorCodes,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
} from "@mcp/jsonrpc";
import type { Exchange, Recording } from "./file.js";
import { closestOf, describeRequest, matchKey } from "./match.js";

/** What a replay tells its operator: each client message, and what answered it. */
export interface ReplayEvent {
  method: string;
  /** The recorded exchange that answered it, by its line; undefined when none matched. */
  line?: number | undefined;
  /** For a request nothing matched: the error sent. */
  error?: string | undefined;
}

/** Sends one message to the client (stdio: a line; HTTP: an event of the request's stream, or the listening stream). */
export type Send = (message: JsonRpcMessage) => void;

/** The error answers {@link ReplaySession} made for requests no recorded one matched, each with the method asked. */
const unrecordedAnswers = new WeakMap<object, string>();

/** For the error a replay sent because a request matched no recorded one: that request's method. */
export function unrecordedMethodOf(message: JsonRpcMessage): string | undefined {
  return unrecordedAnswers.get(message);
}

function progressTokenOf(params: unknown): RequestId | undefined {
  const token = (params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

/**
 * The replayed server's side of one connection (a stdio pipe, an HTTP session). Recorded exchanges
 * are used in their order: a request gets the first exchange with its key not used yet, or, when all
 * are, the last one used (a host that lists tools twice gets the list twice).
 */
export class ReplaySession {
  readonly #recording: Recording;
  readonly #used = new Set<Exchange>();
  readonly #lastUsed = new Map<string, Exchange>();
  /** Our requests to the client (a recorded sampling or elicitation), each waiting for its answer. */
  readonly #waiting = new Map<RequestId, () => void>();
  readonly #onEvent: ((event: ReplayEvent) => void) | undefined;
  #nextId = 0;
  #closed = false;

  constructor(recording: Recording, onEvent?: (event: ReplayEvent) => void) {
    this.#recording = recording;
    this.#onEvent = onEvent;
  }

  /** The exchange that answers a client message, or undefined; marks it used. */
  #match(kind: Exchange["kind"], method: string, params: unknown): Exchange | undefined {
    const key = matchKey(method, params);
    const found =
      this.#recording.exchanges.find(
        (exchange) => exchange.kind === kind && exchange.key === key && !this.#used.has(exchange),
      ) ?? this.#lastUsed.get(`${kind} ${key}`);
    if (found) {
      this.#used.add(found);
      this.#lastUsed.set(`${kind} ${key}`, found);
    }
    return found;
  }

  /**
   * The messages that answer one client message, in order, ready to send (none for a client's
   * answer, which settles the request of ours it answers). A request nothing matches gets a
   * JSON-RPC error naming the closest recorded request.
   */
  reply(message: JsonRpcMessage): JsonRpcMessage[] {
    if (isJsonRpcResponse(message)) {
      if (message.id !== null) this.#waiting.get(message.id)?.();
      return [];
    }
    const request = isJsonRpcRequest(message);
    if (!request && !isJsonRpcNotification(message)) return [];
    const exchange = this.#match(request ? "request" : "notification", message.method, message.params);
    if (!exchange) {
      if (!request) {
        this.#onEvent?.({ method: message.method });
        return [];
      }
      const error = this.#unmatched(message);
      this.#onEvent?.({ method: message.method, error: error.error.message });
      return [error];
    }
    this.#onEvent?.({ method: message.method, line: exchange.line });
    const token = request ? progressTokenOf(message.params) : undefined;
    const out: JsonRpcMessage[] = [];
    for (const recorded of exchange.answer) {
      const sent = recorded.message;
      if (recorded.kind === "response") {
        // Only this exchange's own response, under the id the client gave now.
        if (request && "id" in sent && sent.id === exchange.id) out.push({ ...sent, id: message.id });
      } else if (recorded.kind === "request") {
        out.push({ ...(sent as JsonRpcRequest), id: `replay-${++this.#nextId}` });
      } else {
        const notification = sent as JsonRpcNotification<Record<string, unknown>>;
        if (
          notification.method === "notifications/progress" &&
          exchange.progressToken !== undefined &&
          notification.params?.["progressToken"] === exchange.progressToken
        ) {
          if (token === undefined) continue; // the client asked for no progress this time
          out.push({ ...notification, params: { ...notification.params, progressToken: token } });
        } else {
          out.push(notification);
        }
      }
    }
    return out;
  }

  #unmatched(message: JsonRpcRequest): {
    jsonrpc: "2.0";
    id: RequestId;
    error: { code: number; message: string; data: unknown };
  } {
    const requests = this.#recording.exchanges.filter((exchange) => exchange.kind === "request");
    const closest = closestOf(requests, message.method, message.params);
    const asked = describeRequest(message.method, message.params);
    const known = requests.some((exchange) => exchange.method === message.method);
    const text = closest
      ? `No recorded request matches ${asked}; the closest recorded one is ${describeRequest(closest.method, closest.params)} (line ${closest.line} of ${this.#recording.file})`
      : `No recorded request matches ${asked}; ${this.#recording.file} records no requests`;
    const answer = {
      jsonrpc: "2.0" as const,
      id: message.id,
      error: {
        code: known ? ErrorCodes.InvalidParams : ErrorCodes.MethodNotFound,
        message: text,
        data: {
          recording: this.#recording.file,
          closest: closest && { method: closest.method, params: closest.params, line: closest.line },
        },
      },
    };
    unrecordedAnswers.set(answer, message.method);
    return answer;
  }

  /**
   * Sends an answer's messages in order; after each request of ours, waits for the client's answer
   * before going on (as the recorded server did). Ends early when the session closes.
   */
  async play(messages: readonly JsonRpcMessage[], send: Send): Promise<void> {
    for (const message of messages) {
      if (this.#closed) return;
      send(message);
      if (isJsonRpcRequest(message) && !this.#closed) {
        await new Promise<void>((resolve) => this.#waiting.set(message.id, resolve));
        this.#waiting.delete(message.id);
      }
    }
  }

  /** Answers one parsed value from the client (a message or a batch); returns once every answer is sent. */
  async receive(value: unknown, send: Send): Promise<void> {
    const items = Array.isArray(value) ? value : [value];
    const plays: Promise<void>[] = [];
    for (const item of items) {
      if (!isJsonRpcRequest(item) && !isJsonRpcNotification(item) && !isJsonRpcResponse(item)) {
        send({
          jsonrpc: "2.0",
          id: null,
          error: { code: ErrorCodes.InvalidRequest, message: "Invalid Request: not a JSON-RPC 2.0 message" },
        });
        continue;
      }
      plays.push(this.play(this.reply(item), send));
    }
    await Promise.all(plays);
  }

  /** Ends the session: answers still being played stop, requests of ours stop waiting. */
  close(): void {
    this.#closed = true;
    for (const resolve of this.#waiting.values()) resolve();
    this.#waiting.clear();
  }
}
