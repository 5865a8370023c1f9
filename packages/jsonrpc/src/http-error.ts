// `HttpError`, whose message reads an HTML or JSON-RPC body, and `SessionExpiredError`.
import { McpError } from "./errors.js";
import { redactUrl } from "./redact.js";

/** Fields of an {@link HttpError}. */
export interface HttpErrorDetails {
  status: number;
  statusText?: string;
  body?: string;
  url?: string;
  wwwAuthenticate?: string | undefined;
  mcpAuthServer?: string | undefined;
  /** For a redirect that was not followed: where it pointed (its `Location`). */
  location?: string | undefined;
  cause?: unknown;
}

const MAX_BODY_IN_MESSAGE = 500;

/** A non-2xx HTTP answer. Message: `HTTP <status>: <text>` plus any auth hints. */
export class HttpError extends McpError<"http_error" | "session_expired"> {
  static override readonly brand: string = "HttpError";
  declare readonly status: number;
  declare readonly statusText: string;
  /** The response body (as text), possibly empty. */
  declare readonly body: string;
  declare readonly url: string | undefined;
  /** The `WWW-Authenticate` header, when present (401/403). */
  declare readonly wwwAuthenticate: string | undefined;
  /** The `Mcp-Auth-Server` header, when present. */
  declare readonly mcpAuthServer: string | undefined;
  /** A redirect's `Location` that was not followed (a password or token in it hidden). */
  declare readonly location: string | undefined;

  constructor(
    details: HttpErrorDetails,
    code: "http_error" | "session_expired" = "http_error",
    messageOverride?: string,
  ) {
    super(code, messageOverride ?? HttpError.describe(details), details);
    this.status = details.status;
    this.statusText = details.statusText ?? "";
    this.body = details.body ?? "";
    this.url = details.url === undefined ? undefined : redactUrl(details.url);
    this.wwwAuthenticate = details.wwwAuthenticate;
    this.mcpAuthServer = details.mcpAuthServer;
    this.location = details.location === undefined ? undefined : redactUrl(details.location);
  }

  private static describe(d: HttpErrorDetails): string {
    const text = HttpError.reasonOf(d.body ?? "") || d.statusText || "";
    const shown = text.length > MAX_BODY_IN_MESSAGE ? `${text.slice(0, MAX_BODY_IN_MESSAGE)}…` : text;
    let message = `HTTP ${d.status}: ${shown}`;
    if (d.wwwAuthenticate) message += ` (WWW-Authenticate: ${d.wwwAuthenticate})`;
    if (d.mcpAuthServer) message += ` (Mcp-Auth-Server: ${d.mcpAuthServer})`;
    return message;
  }

  /**
   * The readable part of a body: a JSON-RPC error's message when the body is one; for an HTML page
   * (a proxy's or a web server's error page), its title or else its first line of text; else the text.
   */
  private static reasonOf(body: string): string {
    const error = jsonRpcErrorIn(body);
    if (error) return error.code === undefined ? error.message : `${error.message} (JSON-RPC error ${error.code})`;
    const text = body.trim();
    return /^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text)
      ? `an HTML page: ${htmlGist(text) || "(no text)"}`
      : text;
  }
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** An HTML page in a few words: its `<title>` and its first line of visible text (when that says more). */
function htmlGist(html: string): string {
  const decode = (text: string): string =>
    text.replace(/&(#\d+|[a-z]+);/gi, (whole, name: string) =>
      name.startsWith("#")
        ? String.fromCodePoint(Number(name.slice(1)) || 32)
        : (ENTITIES[name.toLowerCase()] ?? whole),
    );
  const title = decode(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? "")
    .replace(/\s+/g, " ")
    .trim();
  const visible = html
    .replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<br\s*\/?>|<\/(p|div|h[1-6]|li|tr|title)>/gi, "\n")
    .replace(/<[^>]*>/g, " ");
  const line =
    decode(visible)
      .split("\n")
      .map((text) => text.replace(/\s+/g, " ").trim())
      .find((text) => text !== "") ?? "";
  // Express titles every error page "Error"; its text ("Cannot POST /nope") says what happened.
  if (!title) return line;
  return line && line !== title && !title.includes(line) ? `${title}: ${line}` : title;
}

/**
 * The JSON-RPC error an HTTP error body carries (`{"error": {"code", "message"}}`), if it is one
 * with a message: what a person should read instead of the raw JSON.
 */
export function jsonRpcErrorIn(body: string): { code: number | undefined; message: string } | undefined {
  const text = body.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const { code, message } = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error ?? {};
    if (typeof message === "string" && message !== "")
      return { code: typeof code === "number" ? code : undefined, message };
  } catch {
    // Not JSON after all.
  }
  return undefined;
}

/**
 * The server no longer knows the session (`404` on a request that carried `Mcp-Session-Id`).
 * The layer above should start a new session; the transport never does.
 */
export class SessionExpiredError extends HttpError {
  static override readonly brand: string = "SessionExpiredError";
  declare readonly code: "session_expired";
  declare readonly sessionId: string;

  constructor(sessionId: string, details: HttpErrorDetails) {
    super(details, "session_expired", `Session expired: ${sessionId} (HTTP ${details.status})`);
    this.sessionId = sessionId;
  }
}
