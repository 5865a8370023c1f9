/** Headers: which the transport may send (a header that could add lines never leaves), and which only it sets. */

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a header value may hold: tab, visible ASCII, space, and bytes 0x80–0xff (sent as latin1). */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** True for an HTTP token (RFC 9110 §5.6.2): what a header name must be. */
export function isHttpToken(value: string): boolean {
  return TOKEN.test(value);
}

/**
 * What is wrong with a header to send, or undefined when nothing is: a name must be an HTTP
 * token, a value a string without CR, LF or other control characters (so it cannot add lines).
 */
export function headerProblem(name: string, value: unknown): string | undefined {
  if (!TOKEN.test(name)) return "is not a valid header name (an HTTP token)";
  if (typeof value !== "string") return `must have a string value; got ${value === null ? "null" : typeof value}`;
  if (!FIELD_VALUE.test(value))
    return "has a character a header value cannot hold (a control character such as CR or LF, or one above U+00FF)";
  return undefined;
}

/** Throws the `TypeError` Node's HTTP clients throw for a header that could add lines. */
export function checkHeader(name: string, value: unknown): void {
  const problem = headerProblem(name, value);
  if (problem !== undefined)
    throw Object.assign(new TypeError(`header ${JSON.stringify(name)} ${problem}`), {
      code: TOKEN.test(name) ? "ERR_INVALID_CHAR" : "ERR_INVALID_HTTP_TOKEN",
    });
}

/** Headers that carry the MCP session and protocol: a config that sets one is refused. */
export function isProtocolHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    lower === "mcp-session-id" ||
    lower === "mcp-protocol-version" ||
    lower === "mcp-method" ||
    lower === "mcp-name" ||
    lower === "last-event-id" ||
    lower.startsWith("mcp-param-")
  );
}

/** Headers that describe the body the transport sends: a config's are dropped, never sent. */
export const BODY_HEADERS: ReadonlySet<string> = new Set(["content-type", "content-length", "transfer-encoding"]);

/**
 * Headers only the transport sets: the MCP session and protocol ones, those describing the body,
 * and `Host`. An auth provider's (a `headersHelper`'s among them) are never sent.
 */
export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return isProtocolHeader(lower) || BODY_HEADERS.has(lower) || lower === "host";
}

/** No control character (tab aside): what a header can carry once the id is in UTF-8 bytes. */
const ID_CARRIED = /^[\t\x20-\x7e\u0080-\uffff]*$/;
const EDGE_SPACE = /^[ \t]|[ \t]$/;
const ID_ASCII = /^[\t\x20-\x7e]*$/;

/**
 * An SSE event id as a `Last-Event-ID` value: its UTF-8 bytes, one character each (header values
 * go out as latin1, so the server gets back exactly the bytes it sent). Undefined when a header
 * cannot carry it: a control character, or whitespace at either end (which HTTP trims).
 */
export function lastEventIdHeader(id: string): string | undefined {
  if (!ID_CARRIED.test(id) || EDGE_SPACE.test(id)) return undefined;
  if (ID_ASCII.test(id)) return id;
  let bytes = "";
  for (const byte of new TextEncoder().encode(id)) bytes += String.fromCharCode(byte);
  return bytes;
}
