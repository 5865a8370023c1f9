// `@mcp/lite`'s errors, the same classes as `@mcp/jsonrpc`'s: a non-2xx answer, and a body that is not JSON.
import { HttpError, ParseError } from "@mcp/jsonrpc";
import { jsonRpcErrorIn } from "@mcp/jsonrpc/internal";

/**
 * The server answered with a non-2xx status. Message: `MCP request failed: <status> <statusText>`,
 * then the server's reason when its body gives one (a JSON-RPC error's `message`, or the text).
 * The same class as `@mcp/jsonrpc`'s `HttpError`: one error family for the whole stack.
 */
export const LiteHttpError = HttpError;
export type LiteHttpError = HttpError;

/**
 * The body was neither JSON nor SSE carrying JSON. Message: `Failed to parse MCP response`.
 * The same class as `@mcp/jsonrpc`'s `ParseError` (`snippet`, `status`, `cause`).
 */
export const LiteParseError = ParseError;
export type LiteParseError = ParseError;

const MAX_REASON = 300;

/** The readable reason in an error body: a JSON-RPC error's message, else the trimmed text. */
function reasonOf(body: string): string {
  const error = jsonRpcErrorIn(body);
  if (error) return error.message;
  const text = body.trim();
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON)}…` : text;
}

/** `MCP request failed: <status> <statusText>[: <reason>]`, as an {@link HttpError}. */
export function liteHttpError(
  status: number,
  statusText: string | undefined,
  body: string,
  url: string,
  headers: { wwwAuthenticate?: string | undefined; mcpAuthServer?: string | undefined },
): HttpError {
  // undici's fetch through a proxy gives no status text.
  statusText ??= "";
  let reason = reasonOf(body);
  // "400 Bad Request: Bad Request: Server not initialized" says it twice.
  if (statusText && reason.startsWith(`${statusText}: `)) reason = reason.slice(statusText.length + 2);
  return new HttpError(
    { status, statusText, body, url, ...headers },
    "http_error",
    `MCP request failed: ${status}${statusText ? ` ${statusText}` : ""}${reason ? `: ${reason}` : ""}`,
  );
}

/** `Failed to parse MCP response`, as a {@link ParseError} quoting the input. */
export function liteParseError(
  input: string,
  options: { cause?: unknown; status?: number | undefined } = {},
): ParseError {
  return new ParseError("MCP response", input, { ...options, message: "Failed to parse MCP response" });
}
