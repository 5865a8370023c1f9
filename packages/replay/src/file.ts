// A recording (`mcp call --record`, `openRecording`, or the `record` option of @mcp/client) read back:
// each message the client sent, and what the server sent in answer to it, in order.
import { readFileSync, statSync } from "node:fs";
import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcMessage,
  type RequestId,
} from "@mcp/jsonrpc";
import type { RecordedMessage } from "@mcp/client";
import { matchKey } from "./match.js";

/**
 * A recording that cannot be read, written or served, and where: the file (or the name given to
 * entries held in memory) and, when one line is to blame, its number. Message: `<file>:<line>: <what>`.
 */
export class RecordingError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line?: number,
  ) {
    super(line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`);
    this.name = "RecordingError";
  }
}

/** One message the server sent, as recorded. */
export interface ServerMessage {
  message: JsonRpcMessage;
  kind: "response" | "notification" | "request";
  /** Its line in the recording (1-based). */
  line: number;
}

/** One message the client sent (a request or a notification) and the server's messages that answer it, in order. */
export interface Exchange {
  kind: "request" | "notification";
  method: string;
  params: unknown;
  /** What a request must equal to be answered by this exchange (see match.ts). */
  key: string;
  /** The recorded request's id. */
  id?: RequestId | undefined;
  /** The recorded request's `_meta.progressToken`. */
  progressToken?: RequestId | undefined;
  answer: ServerMessage[];
  line: number;
}

/** One server's part of a recording, ready to serve: its exchanges in order. */
export interface Recording {
  /** The file it came from (or the name given to entries held in memory), for error messages. */
  file: string;
  /** The server it records (the `server` of its entries). */
  server: string;
  exchanges: Exchange[];
}

/** The biggest recording read (256 MiB): it is held in memory whole. */
export const MAX_RECORDING_BYTES = 256 * 1024 * 1024;

interface Entry {
  line: number;
  server: string;
  from: "client" | "server";
  message: unknown;
}

/** One line's value checked to be a recording entry. */
function entryOf(value: unknown, file: string, line: number): Entry {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new RecordingError("not a JSON object", file, line);
  const { from, server, message } = value as { from?: unknown; server?: unknown; message?: unknown };
  if (from !== "client" && from !== "server")
    throw new RecordingError(
      `"from" must be "client" or "server", not ${JSON.stringify(from) ?? "missing"}`,
      file,
      line,
    );
  if (message === undefined) throw new RecordingError(`no "message"`, file, line);
  return { line, server: typeof server === "string" ? server : "", from, message };
}

function parseLines(file: string, text: string): Entry[] {
  const entries: Entry[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new RecordingError("not JSON (a recording has one JSON object per line)", file, i + 1);
    }
    entries.push(entryOf(value, file, i + 1));
  }
  return entries;
}

/** The messages of one entry: a batch is its elements, each checked to be a JSON-RPC message. */
function messagesOf(entry: Entry, file: string): JsonRpcMessage[] {
  const items = Array.isArray(entry.message) ? entry.message : [entry.message];
  return items.map((item) => {
    if (isJsonRpcRequest(item) || isJsonRpcNotification(item) || isJsonRpcResponse(item)) return item;
    throw new RecordingError("the message is not a JSON-RPC request, notification or response", file, entry.line);
  });
}

function progressTokenOf(params: unknown): RequestId | undefined {
  const token = (params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

/**
 * Pairs a server's messages with the client message they answer: a response with its request; a
 * progress notification with the request that holds its token; anything else with the latest request
 * still unanswered when it came, or else the client's latest message (so a notification that
 * follows `notifications/initialized` is sent after it again).
 */
function exchangesOf(entries: readonly Entry[], file: string): Exchange[] {
  const exchanges: Exchange[] = [];
  const pending = new Map<RequestId, Exchange>();
  // The requests in the order they came, the answered ones dropped from the end as they are met: the
  // latest unanswered one in constant time (amortized), so a recording of many unanswered requests
  // and many notifications pairs in linear time, not in their product.
  const unanswered: Exchange[] = [];
  const latestUnanswered = (): Exchange | undefined => {
    for (let top = unanswered.at(-1); top !== undefined; top = unanswered.at(-1)) {
      if (pending.get(top.id!) === top) return top;
      unanswered.pop();
    }
    return undefined;
  };
  const byToken = new Map<RequestId, Exchange>();
  let last: Exchange | undefined;
  for (const entry of entries) {
    for (const message of messagesOf(entry, file)) {
      if (entry.from === "client") {
        if (isJsonRpcResponse(message)) continue; // an answer to the server's own request: the replay asks it again
        const request = isJsonRpcRequest(message);
        const exchange: Exchange = {
          kind: request ? "request" : "notification",
          method: message.method,
          params: message.params,
          key: matchKey(message.method, message.params),
          answer: [],
          line: entry.line,
        };
        if (request) {
          exchange.id = message.id;
          exchange.progressToken = progressTokenOf(message.params);
          pending.set(message.id, exchange);
          unanswered.push(exchange);
          if (exchange.progressToken !== undefined) byToken.set(exchange.progressToken, exchange);
        }
        exchanges.push(exchange);
        last = exchange;
        continue;
      }
      let owner: Exchange | undefined;
      let kind: ServerMessage["kind"];
      if (isJsonRpcResponse(message)) {
        kind = "response";
        owner = message.id === null ? undefined : pending.get(message.id);
        if (owner && message.id !== null) pending.delete(message.id);
        if (owner?.progressToken !== undefined) byToken.delete(owner.progressToken);
      } else {
        kind = isJsonRpcRequest(message) ? "request" : "notification";
        if (message.method === "notifications/progress")
          owner = byToken.get(progressTokenOf({ _meta: message.params }) ?? "");
        owner ??= latestUnanswered();
      }
      owner ??= last;
      if (owner) owner.answer.push({ message, kind, line: entry.line });
    }
  }
  return exchanges;
}

/** One server's exchanges out of checked entries: `server` when they hold several (else the only one). */
function recordingOf(file: string, entries: readonly Entry[], server: string | undefined): Recording {
  const servers = [...new Set(entries.map((entry) => entry.server))];
  if (entries.length === 0) throw new RecordingError("no messages in it", file);
  let chosen = server;
  if (chosen === undefined) {
    if (servers.length > 1)
      throw new RecordingError(
        `it records several servers (${servers.map((s) => JSON.stringify(s)).join(", ")}); choose one with --server`,
        file,
      );
    chosen = servers[0]!;
  } else if (!servers.includes(chosen)) {
    throw new RecordingError(
      `no server named ${JSON.stringify(chosen)} in it (it has ${servers.map((s) => JSON.stringify(s)).join(", ")})`,
      file,
    );
  }
  return {
    file,
    server: chosen,
    exchanges: exchangesOf(
      entries.filter((entry) => entry.server === chosen),
      file,
    ),
  };
}

/**
 * Reads a recording file (NDJSON, one {@link RecordedMessage} a line) for one server: `server`
 * when the file has several (else the only one). Throws {@link RecordingError} for a file that
 * cannot be read or served, naming the line.
 */
export function readRecording(file: string, server?: string): Recording {
  let text: string;
  try {
    if (statSync(file).size > MAX_RECORDING_BYTES)
      throw new RecordingError(`over ${MAX_RECORDING_BYTES / 1024 / 1024} MiB`, file);
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (error instanceof RecordingError) throw error;
    throw new RecordingError(
      `cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      file,
    );
  }
  return recordingOf(file, parseLines(file, text), server);
}

/** Options of {@link recordingFrom}. */
export interface RecordingFromOptions {
  /** The server to serve when the entries record several. */
  server?: string | undefined;
  /** What error messages call the entries (they have no file). Default `"recording"`. */
  name?: string | undefined;
}

/**
 * A recording from entries held in memory: what the `record` option of @mcp/client gave (each
 * entry's position, from 1, stands for its line). Throws {@link RecordingError} as
 * {@link readRecording} does.
 */
export function recordingFrom(entries: readonly RecordedMessage[], options: RecordingFromOptions = {}): Recording {
  const name = options.name ?? "recording";
  return recordingOf(
    name,
    entries.map((entry, index) => entryOf(entry, name, index + 1)),
    options.server,
  );
}
