import { toError } from "@mcp/jsonrpc";
import type * as Net from "node:net";
import type * as Tls from "node:tls";
import { TextSink, TextStreamSink, type BodySink, type Exchange, type ExchangePool, type ExchangeRequest, type ExchangeResponse } from "./exchange.js";

/**
 * The transport's own HTTP/1.1 client, straight on `node:net` / `node:tls` sockets: a keep-alive
 * pool per origin, one request at a time per connection, the request written in one piece and
 * the response parsed in place (body chunks are views of what the socket read, never copies).
 * It does what an MCP client needs and no more — no pipelining on one connection, no upgrades, no
 * decompression (we never send `Accept-Encoding`) — and refuses what it cannot frame safely.
 *
 * It replaces `node:http`, whose per-request machinery (ClientRequest, the agent, the stream of
 * IncomingMessage) cost about twice what the rest of this transport does per request, and which
 * copies every body chunk once more in its parser.
 */

/** The limits of the HTTP/1.1 client. */
export const WIRE_LIMITS = {
  /** Largest response head (status line and headers), as `node:http`'s default `maxHeaderSize`. */
  maxHeaderBytes: 16 * 1024,
  /** Longest chunk-size line of a chunked body, extensions included. */
  maxChunkLineBytes: 4096,
  /** Connections open at once to one origin; more requests wait for one to be free. */
  maxConnections: 64,
  /**
   * An idle connection older than this is closed instead of reused: servers close idle keep-alive
   * connections after a few seconds (Node's default is 5 s), and one closed just as a request is
   * written loses that request's first attempt.
   */
  idleMs: 4000,
  /** Body bytes held for a response nobody reads yet before the socket is paused. */
  maxQueuedBytes: 64 * 1024,
  /**
   * A `Content-Length` body read as text between these sizes is read by the socket straight into
   * one buffer of its length: no buffer per read, no join at the end.
   */
  gatherMinBytes: 64 * 1024,
  gatherMaxBytes: 64 * 1024 * 1024,
} as const;

/** Size of the buffer every socket (plain and TLS) reads into (what the body does not take directly). */
const SCRATCH_BYTES = 64 * 1024;

/**
 * A gathered body's buffer up to this size is kept, once its text is decoded, for the origin's next
 * one while the origin has connections open. Fresh memory costs a page fault per 4 KiB on its first
 * write: on a VM that made reading a 5 MB body into a new buffer take 15 ms, into a used one 1 ms.
 */
const SPARE_MAX_BYTES = 16 * 1024 * 1024;

function codedError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A response the client cannot frame: an invalid status line, header or chunk, or a head too large. */
const protocolError = (what: string): Error => codedError(`Invalid HTTP response: ${what}`, "EPROTO");
/** What `node:http` says when a connection closes before any answer. */
const hangUp = (): Error => codedError("socket hang up", "ECONNRESET");
const endedEarly = (): Error => codedError("The response body ended early: the connection closed", "ECONNRESET");

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** True for an HTTP token (RFC 9110 §5.6.2): what a header name must be. */
export function isHttpToken(value: string): boolean {
  return TOKEN.test(value);
}
/** What a header value may hold: tab, visible ASCII, space, and bytes 0x80–0xff (sent as latin1). */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: ([\t\x20-\x7e\x80-\xff]*))?$/;
const DECIMAL = /^\d{1,15}$/;
const HEX = /^[0-9a-fA-F]{1,12}$/;

/** Headers the client writes itself; a request's own value for them is not sent twice. */
const FRAMING = new Set(["content-length", "transfer-encoding", "host"]);

/** Trims spaces and tabs (only: `String#trim` would also eat bytes such as 0xa0). */
function trimOws(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && (value.charCodeAt(start) === 0x20 || value.charCodeAt(start) === 0x09)) start++;
  while (end > start && (value.charCodeAt(end - 1) === 0x20 || value.charCodeAt(end - 1) === 0x09)) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/** True when the comma-separated header `value` holds `token` (case-insensitive). */
function hasToken(value: string | undefined, token: string): boolean {
  if (value === undefined) return false;
  for (const part of value.split(",")) if (trimOws(part).toLowerCase() === token) return true;
  return false;
}

/**
 * What is wrong with a header to send, or undefined when nothing is: a name must be an HTTP
 * token, a value a string without CR, LF or other control characters (so it cannot add lines).
 */
export function headerProblem(name: string, value: unknown): string | undefined {
  if (!TOKEN.test(name)) return "is not a valid header name (an HTTP token)";
  if (typeof value !== "string") return `must have a string value; got ${value === null ? "null" : typeof value}`;
  if (!FIELD_VALUE.test(value)) return "has a character a header value cannot hold (a control character such as CR or LF, or one above U+00FF)";
  return undefined;
}

/**
 * The request's bytes: a latin1 head (header values are checked: no CR, LF or other control
 * characters, nothing above 0xff) and the UTF-8 body, in one buffer for one write. Throws a
 * `TypeError` for an invalid header name or value, before anything is sent.
 */
export function encodeRequest(request: ExchangeRequest): { payload: Buffer; closes: boolean } {
  const url = request.url;
  const body = request.body;
  const bodyBytes = body === undefined ? 0 : Buffer.byteLength(body);
  const headers = request.headers;
  let host = url.host;
  let lines = "";
  let authorization = false;
  let closes = false;
  for (const name in headers) {
    const value = headers[name] as string; // checked just below: headerProblem refuses anything else
    const problem = headerProblem(name, value);
    if (problem !== undefined) throw Object.assign(new TypeError(`header ${JSON.stringify(name)} ${problem}`), { code: TOKEN.test(name) ? "ERR_INVALID_CHAR" : "ERR_INVALID_HTTP_TOKEN" });
    const lower = name.toLowerCase();
    if (FRAMING.has(lower)) {
      if (lower === "host") host = value;
      continue;
    }
    if (lower === "authorization") authorization = true;
    else if (lower === "connection") closes = hasToken(value, "close");
    lines += `${name}: ${value}\r\n`;
  }
  if (!authorization && (url.username !== "" || url.password !== "")) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    lines += `authorization: Basic ${Buffer.from(credentials).toString("base64")}\r\n`;
  }
  if (body !== undefined || request.method === "POST") lines += `content-length: ${bodyBytes}\r\n`;
  const head = `${request.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${host}\r\n${lines}\r\n`;
  const payload = Buffer.allocUnsafe(head.length + bodyBytes);
  payload.write(head, 0, "latin1");
  if (body !== undefined && bodyBytes > 0) payload.write(body, head.length, "utf8");
  return { payload, closes };
}

// How a response's body is framed, and where the parser is (plain numbers: a TypeScript enum
// would be emitted as an object with a reverse mapping, which nothing here uses).
/** No body (204, 304, `Content-Length: 0`). */
const NO_BODY = 0;
const BY_LENGTH = 1;
const CHUNKED = 2;
/** Read until the server closes (no length, or a transfer coding other than chunked last). */
const UNTIL_CLOSE = 3;
type Framing = typeof NO_BODY | typeof BY_LENGTH | typeof CHUNKED | typeof UNTIL_CLOSE;

// Parser states past the head; BY_LENGTH and UNTIL_CLOSE double as states.
const HEAD = 4;
const CHUNK_SIZE = 5;
const CHUNK_DATA = 6;
const CHUNK_END = 7;
const TRAILER = 8;
type State = typeof HEAD | typeof BY_LENGTH | typeof UNTIL_CLOSE | typeof CHUNK_SIZE | typeof CHUNK_DATA | typeof CHUNK_END | typeof TRAILER;

/** The parsed head of one response. */
interface Head {
  status: number;
  statusText: string;
  headers: Map<string, string>;
  framing: Framing;
  length: number;
  keepAlive: boolean;
}

/** Parses a response head (without its final CRLF CRLF); throws on anything it cannot frame safely. */
function parseHead(text: string): Head {
  const lines = text.split("\r\n");
  const status = STATUS_LINE.exec(lines[0]!);
  if (status === null) throw protocolError(`bad status line ${JSON.stringify(lines[0]!.slice(0, 80))}`);
  const headers = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const first = line.charCodeAt(0);
    if (first === 0x20 || first === 0x09) throw protocolError("obsolete line folding in a header");
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon) : "";
    if (!TOKEN.test(name)) throw protocolError(`bad header line ${JSON.stringify(line.slice(0, 80))}`);
    const value = trimOws(line.slice(colon + 1));
    if (!FIELD_VALUE.test(value)) throw protocolError(`control character in header "${name}"`);
    const lower = name.toLowerCase();
    const known = headers.get(lower);
    if (known === undefined) headers.set(lower, value);
    else if (lower === "content-length") {
      if (known !== value) throw protocolError(`conflicting Content-Length headers (${known} and ${value})`);
    } else headers.set(lower, `${known}, ${value}`); // a repeated header is joined, as fetch's Headers.get() does
  }
  const code = Number(status[2]);
  const http11 = status[1] === "1";
  const connection = headers.get("connection");
  const head: Head = {
    status: code,
    statusText: status[3] ?? "",
    headers,
    framing: NO_BODY,
    length: 0,
    keepAlive: http11 ? !hasToken(connection, "close") : hasToken(connection, "keep-alive"),
  };
  if (code < 200 || code === 204 || code === 304) return head;
  const coding = headers.get("transfer-encoding");
  const length = headers.get("content-length");
  if (coding !== undefined) {
    if (length !== undefined) throw protocolError("both Content-Length and Transfer-Encoding");
    const codings = coding.split(",");
    if (trimOws(codings[codings.length - 1]!).toLowerCase() === "chunked") head.framing = CHUNKED;
    else {
      head.framing = UNTIL_CLOSE;
      head.keepAlive = false;
    }
  } else if (length !== undefined) {
    if (!DECIMAL.test(length)) throw protocolError(`bad Content-Length ${JSON.stringify(length.slice(0, 40))}`);
    head.length = Number(length);
    head.framing = head.length === 0 ? NO_BODY : BY_LENGTH;
  } else {
    head.framing = UNTIL_CLOSE;
    head.keepAlive = false;
  }
  return head;
}

interface Modules {
  net: typeof Net;
  tls: typeof Tls;
}

/** The connections to one origin (scheme, host and port). */
class Origin {
  /** Opens a socket to this origin that reads with `onread`. */
  readonly #open: (onread: Net.OnReadOpts) => Net.Socket;
  /** Free connections, the most recently used last. */
  readonly idle: Connection[] = [];
  readonly all = new Set<Connection>();
  /** Exchanges waiting for a connection, oldest first. */
  readonly waiting: WireExchange[] = [];
  /**
   * What sockets read into (`onread`, plain and TLS alike): one buffer serves all, since each read
   * is parsed, and what must outlive it copied, before the next read of any socket.
   */
  readonly scratch: Buffer;
  /** The memory of a gathered body, free for the next gathered body (see `SPARE_MAX_BYTES`). */
  spare: ArrayBuffer | undefined;

  constructor(modules: Modules, url: URL, scratch: Buffer) {
    this.scratch = scratch;
    const secure = url.protocol === "https:";
    // An IPv6 literal keeps its brackets in `hostname`; sockets want the bare address.
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const port = url.port === "" ? (secure ? 443 : 80) : Number(url.port);
    // `onread` is a documented option of tls.connect too, though @types/node's ConnectionOptions lacks it.
    this.#open = secure
      ? (onread) => modules.tls.connect({ host, port, servername: modules.net.isIP(host) === 0 ? host : undefined, ALPNProtocols: ["http/1.1"], onread } as Tls.ConnectionOptions)
      : (onread) => modules.net.connect({ host, port, onread });
  }

  /** Sends `exchange` on a free connection, a new one, or as soon as one is free. */
  dispatch(exchange: WireExchange): void {
    const now = Date.now();
    for (let connection = this.idle.pop(); connection !== undefined; connection = this.idle.pop()) {
      if (now - connection.idleSince <= WIRE_LIMITS.idleMs) {
        connection.start(exchange);
        return;
      }
      connection.destroy();
    }
    if (this.all.size < WIRE_LIMITS.maxConnections) this.connect(exchange);
    else this.waiting.push(exchange);
  }

  /** Sends `exchange` on a new connection. */
  connect(exchange: WireExchange): void {
    const connection = new Connection(this, this.#open);
    connection.socket.setNoDelay(true);
    connection.socket.setKeepAlive(true, 1000);
    this.all.add(connection);
    connection.start(exchange);
  }

  /** A connection finished its exchange and may serve another. */
  release(connection: Connection): void {
    const next = this.waiting.shift();
    if (next !== undefined) {
      connection.start(next);
      return;
    }
    connection.idleSince = Date.now();
    connection.socket.unref(); // an idle connection never keeps the process alive
    this.idle.push(connection);
  }

  /** A connection closed: it leaves the pool, and a waiting exchange may open another. */
  forget(connection: Connection): void {
    this.all.delete(connection);
    if (this.all.size === 0) this.spare = undefined;
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
    const next = this.waiting.shift();
    if (next !== undefined) this.connect(next);
  }

  /** Takes `exchange` out of the queue; true when it was waiting there. */
  unqueue(exchange: WireExchange): boolean {
    const at = this.waiting.indexOf(exchange);
    if (at < 0) return false;
    this.waiting.splice(at, 1);
    return true;
  }

  destroy(): void {
    for (const exchange of this.waiting.splice(0)) exchange.failed(hangUp());
    for (const connection of this.all) connection.destroy(hangUp());
  }
}

/** One socket and the parser of the response on it. */
class Connection {
  readonly socket: Net.Socket;
  readonly #origin: Origin;
  #current: WireExchange | undefined;
  /** True once it served an exchange: a failure before any answer may then be a stale socket. */
  #reused = false;
  #closes = false;
  #closed = false;
  #error: Error | undefined;
  idleSince = 0;
  // The response being parsed.
  #state: State = HEAD;
  #partial: Buffer | undefined;
  #head: Head | undefined;
  #remaining = 0;
  #line = "";
  #ending = 0;
  #trailerBytes = 0;
  /** The buffer a gathered body is read into, and how much of it is filled. */
  #gathered: Buffer | undefined;
  #filled = 0;

  constructor(origin: Origin, open: (onread: Net.OnReadOpts) => Net.Socket) {
    this.#origin = origin;
    // The socket reads into the origin's scratch buffer (or the gathered body), not a new buffer per read.
    const socket = open({
      buffer: () => (this.#gathered === undefined ? origin.scratch : this.#gathered.subarray(this.#filled)),
      callback: (bytes: number, buffer: Uint8Array) => {
        this.#read(bytes, buffer as Buffer);
        return true;
      },
    });
    this.socket = socket;
    socket.on("error", (error: Error) => {
      this.#error ??= error;
    });
    socket.on("close", () => this.#close());
  }

  get current(): WireExchange | undefined {
    return this.#current;
  }

  start(exchange: WireExchange): void {
    this.#current = exchange;
    exchange.connection = this;
    exchange.reused = this.#reused;
    this.#reused = true;
    this.#closes = exchange.closes;
    this.#state = HEAD;
    this.#head = undefined;
    this.#gathered = undefined;
    if (this.socket.isPaused()) this.socket.resume();
    this.socket.ref();
    this.socket.write(exchange.payload);
  }

  /** Ends the connection; its exchange, if any, fails with `error` (or is simply dropped without one). */
  destroy(error?: Error): void {
    const exchange = this.#current;
    this.#current = undefined;
    this.#closes = true;
    this.#gathered = undefined;
    this.socket.destroy();
    if (exchange !== undefined && error !== undefined) exchange.failed(error);
  }

  /** A read of the socket: into the gathered body, or into `scratch`. */
  #read(bytes: number, buffer: Buffer): void {
    const exchange = this.#current;
    if (buffer !== this.#origin.scratch && this.#gathered !== undefined && exchange !== undefined) {
      exchange.gotBytes = true;
      this.#filled += bytes;
      this.#remaining -= bytes;
      try {
        if (this.#remaining === 0) this.#bodyComplete(exchange, false);
      } catch (error) {
        // Nothing may throw out of a socket's read callback: that would crash the host.
        if (this.#current === exchange) this.destroy(toError(error));
      }
      return;
    }
    this.#data(bytes === buffer.length ? buffer : buffer.subarray(0, bytes));
  }

  /**
   * Reads the rest of a `Content-Length` body straight into one buffer of its length (what
   * arrived already, `queued`, copied to its start), delivered as one chunk at its end. Only for
   * a body between the gather sizes and within `maxBytes`; false when it does not apply.
   */
  gather(queued: readonly Buffer[] | undefined, maxBytes: number | undefined): boolean {
    if (this.#state !== BY_LENGTH || this.#gathered !== undefined) return false;
    const total = this.#head!.length;
    if (total < WIRE_LIMITS.gatherMinBytes || total > WIRE_LIMITS.gatherMaxBytes || (maxBytes !== undefined && total > maxBytes)) return false;
    // The view is exactly the body's length: the socket must not read past the body into it.
    const spare = this.#origin.spare;
    this.#origin.spare = undefined;
    const gathered = spare !== undefined && spare.byteLength >= total ? Buffer.from(spare, 0, total) : Buffer.allocUnsafe(total);
    let filled = 0;
    if (queued !== undefined) for (const chunk of queued) filled += chunk.copy(gathered, filled);
    this.#gathered = gathered;
    this.#filled = filled;
    return true;
  }

  #data(chunk: Buffer): void {
    const exchange = this.#current;
    if (exchange === undefined) {
      // Bytes nobody asked for (on an idle connection, or after a response): the stream is out of step.
      this.destroy();
      return;
    }
    exchange.gotBytes = true;
    try {
      this.#parse(exchange, chunk);
    } catch (error) {
      if (this.#current === exchange) this.destroy(toError(error));
    }
  }

  #parse(exchange: WireExchange, chunk: Buffer): void {
    const size = chunk.length;
    let at = 0;
    while (at < size && this.#current === exchange) {
      switch (this.#state) {
        case HEAD: {
          at = this.#readHead(exchange, chunk, at);
          if (at < 0) return;
          break;
        }
        case BY_LENGTH:
        case CHUNK_DATA: {
          // The bytes are in the scratch buffer: what the exchange keeps is a copy.
          const take = Math.min(this.#remaining, size - at);
          if (this.#gathered !== undefined) this.#filled += chunk.copy(this.#gathered, this.#filled, at, at + take);
          else exchange.body(Buffer.from(chunk.subarray(at, at + take)));
          at += take;
          this.#remaining -= take;
          if (this.#remaining > 0) break;
          if (this.#state === BY_LENGTH) this.#bodyComplete(exchange, at < size);
          else {
            this.#state = CHUNK_END;
            this.#ending = 0;
          }
          break;
        }
        case CHUNK_SIZE: {
          const line = this.#readLine(chunk, at, WIRE_LIMITS.maxChunkLineBytes, "chunk size line");
          if (line === undefined) return;
          at = line.next;
          const semicolon = line.text.indexOf(";");
          const hex = trimOws(semicolon < 0 ? line.text : line.text.slice(0, semicolon));
          if (!HEX.test(hex)) throw protocolError(`bad chunk size ${JSON.stringify(hex.slice(0, 40))}`);
          this.#remaining = parseInt(hex, 16);
          this.#state = this.#remaining === 0 ? TRAILER : CHUNK_DATA;
          this.#trailerBytes = 0;
          break;
        }
        case CHUNK_END: {
          // The CRLF after a chunk's data (it may be split across reads).
          if (chunk[at] !== (this.#ending === 0 ? 0x0d : 0x0a)) throw protocolError("chunk data not followed by CRLF");
          at++;
          if (++this.#ending === 2) this.#state = CHUNK_SIZE;
          break;
        }
        case TRAILER: {
          const line = this.#readLine(chunk, at, WIRE_LIMITS.maxHeaderBytes - this.#trailerBytes, "trailer");
          if (line === undefined) return;
          at = line.next;
          this.#trailerBytes += line.text.length + 2;
          if (line.text === "") this.#complete(exchange, at < size);
          break;
        }
        case UNTIL_CLOSE: {
          exchange.body(Buffer.from(chunk.subarray(at)));
          at = size;
          break;
        }
      }
    }
  }

  /** Reads a response head from `at`; the position after it, or -1 when more bytes are needed. */
  #readHead(exchange: WireExchange, chunk: Buffer, at: number): number {
    let bytes = chunk;
    let start = at;
    const held = this.#partial;
    if (held !== undefined) {
      bytes = Buffer.concat([held, at === 0 ? chunk : chunk.subarray(at)]);
      start = 0;
    }
    const end = bytes.indexOf("\r\n\r\n", start, "latin1");
    // The head so far (or whole) is over the limit: refused before it is held any longer.
    if ((end < 0 ? bytes.length : end) - start > WIRE_LIMITS.maxHeaderBytes) throw protocolError(`response head over ${WIRE_LIMITS.maxHeaderBytes} bytes`);
    if (end < 0) {
      this.#partial = held === undefined ? Buffer.from(chunk.subarray(at)) : bytes;
      return -1;
    }
    this.#partial = undefined;
    const head = parseHead(bytes.toString("latin1", start, end));
    const next = held === undefined ? end + 4 : at + (end + 4 - held.length);
    if (head.status < 200) {
      // 100 Continue, 103 Early Hints: informational, the real answer follows.
      if (head.status === 101) throw protocolError("unexpected 101 Switching Protocols");
      return next;
    }
    this.#head = head;
    exchange.responded(head);
    if (head.framing === NO_BODY) this.#complete(exchange, next < chunk.length);
    else {
      this.#state = head.framing === CHUNKED ? CHUNK_SIZE : head.framing;
      this.#remaining = head.length;
      this.#line = "";
    }
    return next;
  }

  /** One CRLF-ended line from `at` (held across reads), or undefined when it is not complete yet. */
  #readLine(chunk: Buffer, at: number, max: number, what: string): { text: string; next: number } | undefined {
    const lf = chunk.indexOf(0x0a, at);
    if (lf < 0) {
      this.#line += chunk.toString("latin1", at);
      if (this.#line.length > max) throw protocolError(`${what} over ${max} bytes`);
      return undefined;
    }
    const text = this.#line + chunk.toString("latin1", at, lf);
    this.#line = "";
    if (text.length > max + 1) throw protocolError(`${what} over ${max} bytes`);
    if (text.charCodeAt(text.length - 1) !== 0x0d) throw protocolError(`${what} not ended by CRLF`);
    return { text: text.slice(0, -1), next: lf + 1 };
  }

  /** A `Content-Length` body is complete: a gathered one goes to the exchange now, whole. */
  #bodyComplete(exchange: WireExchange, extra: boolean): void {
    const gathered = this.#gathered;
    if (gathered !== undefined) {
      this.#gathered = undefined;
      exchange.body(gathered);
      if (this.#current !== exchange) return; // cancelled from inside the read
    }
    this.#complete(exchange, extra);
    // Only a text read gathers, and its sink decoded the body as it ended (bodyEnded, in
    // #complete): nothing refers to the buffer now, so the origin's next gathered body may have it.
    if (gathered !== undefined && gathered.buffer.byteLength <= SPARE_MAX_BYTES) this.#origin.spare = gathered.buffer as ArrayBuffer;
  }

  /** The response is complete; `extra` when more bytes followed it (the connection is then not reused). */
  #complete(exchange: WireExchange, extra: boolean): void {
    this.#current = undefined;
    exchange.connection = undefined;
    const reusable = !extra && !this.#closes && this.#head!.keepAlive && !this.#closed;
    exchange.bodyEnded();
    if (reusable) this.#origin.release(this);
    else this.destroy();
  }

  #close(): void {
    this.#closed = true;
    this.#origin.forget(this);
    const exchange = this.#current;
    this.#current = undefined;
    if (exchange === undefined) return;
    exchange.connection = undefined;
    const error = this.#error;
    if (this.#state === UNTIL_CLOSE && error === undefined) {
      exchange.bodyEnded();
      return;
    }
    if (exchange.hasResponse) exchange.failed(error ?? endedEarly());
    else exchange.lost(error ?? hangUp(), this.#origin);
  }
}

/** One request and its response, as the transport sees it. */
class WireExchange implements ExchangeResponse {
  status = 0;
  statusText = "";
  readonly payload: Buffer;
  readonly closes: boolean;
  readonly #request: ExchangeRequest;
  readonly #origin: Origin;
  readonly #resolve: (response: ExchangeResponse) => void;
  readonly #reject: (error: unknown) => void;
  connection: Connection | undefined;
  /** Set by the connection: whether it served an exchange before this one. */
  reused = false;
  gotBytes = false;
  hasResponse = false;
  /** The first attempt's error, once it is retried: it tells what happened, not the retry's. */
  #firstError: Error | undefined;
  #headers: Map<string, string> | undefined;
  #over = false;
  #consumed = false;
  #stopped = false;
  #ended = false;
  /** True while the sink takes a chunk: a cancel() from inside it must not settle the read before a throw. */
  #inChunk = false;
  #failure: unknown;
  /** Body chunks that arrived before anyone read them, and their size. */
  #queue: Buffer[] | undefined;
  #queued = 0;
  #sink: BodySink<unknown> | undefined;
  #readDone: ((value: unknown) => void) | undefined;
  #readFailed: ((error: unknown) => void) | undefined;
  readonly #onAbort = (): void => {
    if (this.#over) return;
    const reason = toError(this.#request.abort!.reason);
    if (this.#origin.unqueue(this)) this.failed(reason);
    else if (this.connection !== undefined) this.connection.destroy(reason);
  };

  constructor(origin: Origin, request: ExchangeRequest, resolve: (response: ExchangeResponse) => void, reject: (error: unknown) => void) {
    const { payload, closes } = encodeRequest(request);
    this.payload = payload;
    this.closes = closes;
    this.#origin = origin;
    this.#request = request;
    this.#resolve = resolve;
    this.#reject = reject;
    request.abort?.onAbort(this.#onAbort);
  }

  #finish(): void {
    if (this.#over) return;
    this.#over = true;
    this.#request.abort?.offAbort(this.#onAbort);
  }

  responded(head: Head): void {
    this.hasResponse = true;
    this.status = head.status;
    this.statusText = head.statusText;
    this.#headers = head.headers;
    this.#resolve(this);
  }

  /**
   * The connection closed before any answer. A kept-alive connection the server closed while it
   * sat idle fails so, before the request reached the server: it is sent again, once, on a new
   * connection. If that fails too, the first error is the one that tells what happened.
   */
  lost(error: Error, origin: Origin): void {
    const code = (error as NodeJS.ErrnoException).code;
    if (this.#firstError === undefined && this.reused && !this.gotBytes && (code === "ECONNRESET" || code === "EPIPE") && !this.#request.abort?.aborted) {
      this.#firstError = error;
      origin.connect(this);
      return;
    }
    this.failed(error);
  }

  /** The exchange failed: before the answer the request rejects, after it the body read does. */
  failed(error: unknown): void {
    this.#finish();
    if (!this.hasResponse) {
      this.#reject(this.#firstError ?? error);
      return;
    }
    this.#failure ??= error;
    if (this.#sink !== undefined) this.#settleRead(this.#failure);
  }

  header(name: string): string | undefined {
    return this.#headers?.get(name);
  }

  text(maxBytes?: number): Promise<string> {
    return this.#consume(new TextSink(this, maxBytes), true, maxBytes);
  }

  readText(onText: (text: string) => void): Promise<void> {
    return this.#consume(new TextStreamSink(onText));
  }

  /** A chunk of the body, as the connection parsed it. */
  body(chunk: Buffer): void {
    if (this.#stopped) return;
    if (this.#sink !== undefined) {
      this.#deliver(chunk);
      return;
    }
    (this.#queue ??= []).push(chunk);
    this.#queued += chunk.length;
    if (this.#queued > WIRE_LIMITS.maxQueuedBytes) this.connection?.socket.pause();
  }

  bodyEnded(): void {
    this.#ended = true;
    this.#finish();
    if (this.#sink !== undefined) this.#settleRead(undefined);
  }

  /** Reads the body into `sink`: one promise per body, whatever it is read as. */
  #consume<T>(sink: BodySink<T>, whole = false, maxBytes?: number): Promise<T> {
    if (this.#consumed) return Promise.reject(new Error("Response body already read"));
    this.#consumed = true;
    // What arrived before this read goes to the sink first (or, for a body gathered into one
    // buffer, to the start of that buffer).
    let queued = this.#queue;
    this.#queue = undefined;
    this.#queued = 0;
    if (whole && !this.#ended && !this.#stopped && this.#failure === undefined && this.connection?.gather(queued, maxBytes) === true) queued = undefined;
    return new Promise<T>((resolve, reject) => {
      this.#sink = sink;
      this.#readDone = resolve as (value: unknown) => void;
      this.#readFailed = reject;
      // Each delivery may settle the read (a throw, or a cancel() from inside the sink).
      if (queued !== undefined) for (let i = 0; i < queued.length && this.#sink !== undefined; i++) this.#deliver(queued[i]!);
      if (this.#sink === undefined) return;
      if (this.#stopped || this.#ended) this.#settleRead(undefined);
      else if (this.#failure !== undefined) this.#settleRead(this.#failure);
      else if (this.connection?.socket.isPaused()) this.connection.socket.resume();
    });
  }

  cancel(): void {
    this.#stopped = true;
    this.#queue = undefined;
    this.#finish();
    // A body still arriving cannot be skipped on a keep-alive connection: the connection goes.
    if (this.connection !== undefined && this.connection.current === this) {
      const connection = this.connection;
      this.connection = undefined;
      connection.destroy();
    }
    if (!this.#inChunk) this.#settleRead(undefined);
  }

  #deliver(chunk: Buffer): void {
    this.#inChunk = true;
    try {
      this.#sink!.chunk(chunk);
    } catch (error) {
      this.#failure = error;
      this.#inChunk = false;
      const fail = this.#readFailed;
      this.#readDone = this.#readFailed = this.#sink = undefined;
      this.cancel();
      fail?.(error);
      return;
    }
    this.#inChunk = false;
    // A cancel() from inside the callback settles the read now, as done.
    if (this.#stopped) this.#settleRead(undefined);
  }

  #settleRead(error: unknown): void {
    const done = this.#readDone;
    const fail = this.#readFailed;
    const sink = this.#sink;
    this.#readDone = this.#readFailed = this.#sink = undefined;
    if (error !== undefined) {
      fail?.(error);
      return;
    }
    if (done === undefined) return;
    let value: unknown;
    try {
      value = sink!.end();
    } catch (failure) {
      fail!(failure);
      return;
    }
    done(value);
  }
}

/** The transport's HTTP/1.1 client: keep-alive connections per origin, owned by one transport. */
export async function wirePool(): Promise<ExchangePool> {
  const modules: Modules = { net: await import("node:net"), tls: await import("node:tls") };
  const origins = new Map<string, Origin>();
  const scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  let destroyed = false;
  const exchange: Exchange = (request) =>
    new Promise((resolve, reject) => {
      const url = request.url;
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        reject(new TypeError(`Unsupported URL protocol: ${url.protocol}`));
        return;
      }
      if (request.abort?.aborted) {
        reject(request.abort.reason);
        return;
      }
      if (destroyed) {
        reject(hangUp());
        return;
      }
      const key = url.origin;
      let origin = origins.get(key);
      if (origin === undefined) {
        origin = new Origin(modules, url, scratch);
        origins.set(key, origin);
      }
      let started: WireExchange;
      try {
        started = new WireExchange(origin, request, resolve, reject);
      } catch (error) {
        reject(error);
        return;
      }
      origin.dispatch(started);
    });
  return {
    exchange,
    destroy: () => {
      destroyed = true;
      for (const origin of origins.values()) origin.destroy();
      origins.clear();
    },
  };
}
