// The client's errors, each with a stable `code`: an unknown server type, a handshake timeout, an unsupported version or capability, a bad page or UI resource.
import { InvalidConfigError, McpError } from "@mcp/jsonrpc";
import type { TransportHttpErrorCode } from "@mcp/transport-http";
import type { TransportStdioErrorCode } from "@mcp/transport-stdio";

/**
 * Every `code` of an error a client's user can meet: the client's own, and both transports' (which
 * hold `@mcp/jsonrpc`'s). Each layer declares its own codes; none is listed below where it is thrown.
 */
export type ClientErrorCode =
  | "unknown_server_type"
  | "connection_timeout"
  | "unsupported_protocol_version"
  | "invalid_initialize_result"
  | "capability_not_supported"
  | "pagination_error"
  | "task_cancelled"
  | "not_in_protocol_revision"
  | "skill_verification_failed"
  | "skill_not_found"
  | "ui_resource"
  | TransportStdioErrorCode
  | TransportHttpErrorCode;

/** A name others use for a type we know under another name. */
const TYPE_ALIASES: Record<string, string> = {
  "streamable-http": "http",
  streamableHttp: "http",
  streamable_http: "http",
  "http+sse": "sse",
};

/**
 * `config.type` names no transport. Message: `Unknown server type: <type>`, then the server, the
 * valid values, and the right one when the type is a known alias (`streamable-http` → `http`).
 * An {@link InvalidConfigError}, with its own code.
 */
export class UnknownServerTypeError extends InvalidConfigError<"unknown_server_type"> {
  static override readonly brand: string = "UnknownServerTypeError";
  declare readonly type: unknown;

  constructor(type: unknown, serverName?: string) {
    const alias = typeof type === "string" ? TYPE_ALIASES[type] : undefined;
    const hint = alias ? `; for this transport use "type": "${alias}"` : "";
    const where = serverName === undefined ? "" : ` (MCP server "${serverName}")`;
    super(
      `Unknown server type: ${typeof type === "string" ? type : JSON.stringify(type)}${where}; expected "stdio" (the default), "http" (Streamable HTTP) or "sse" (HTTP+SSE, the 2024-11-05 transport)${hint}`,
      {
        serverName,
        field: "type",
        code: "unknown_server_type",
      },
    );
    this.type = type;
  }
}

/** The handshake did not finish in time. Message: `Connection to MCP server "<name>" timed out after <n>ms`. */
export class ConnectionTimeoutError extends McpError<"connection_timeout"> {
  static override readonly brand: string = "ConnectionTimeoutError";
  declare readonly serverName: string;
  declare readonly timeout: number;

  constructor(serverName: string, timeout: number) {
    super("connection_timeout", `Connection to MCP server "${serverName}" timed out after ${timeout}ms`);
    this.serverName = serverName;
    this.timeout = timeout;
  }
}

/** The server answered `initialize` with a protocol version this client does not speak. */
export class UnsupportedProtocolVersionError extends McpError<"unsupported_protocol_version"> {
  static override readonly brand: string = "UnsupportedProtocolVersionError";
  declare readonly offered: string;
  declare readonly received: unknown;

  constructor(serverName: string, offered: string, received: unknown, supported: readonly string[]) {
    super(
      "unsupported_protocol_version",
      `MCP server "${serverName}" answered protocol version ${JSON.stringify(received)}, which this client does not support; we offered "${offered}" (supported: ${supported.join(", ")})`,
    );
    this.offered = offered;
    this.received = received;
  }
}

/** The server did not declare the capability a method needs; no request was sent. */
export class CapabilityNotSupportedError extends McpError<"capability_not_supported"> {
  static override readonly brand: string = "CapabilityNotSupportedError";
  declare readonly capability: string;
  declare readonly method: string;

  constructor(serverName: string, capability: string, method: string) {
    super(
      "capability_not_supported",
      `MCP server "${serverName}" does not support ${capability} (needed for ${method})`,
    );
    this.capability = capability;
    this.method = method;
  }
}

/** A paginated list misbehaved: a repeated cursor, or more pages or items than allowed. */
export class PaginationError extends McpError<"pagination_error"> {
  static override readonly brand: string = "PaginationError";
  declare readonly method: string;
  declare readonly pages: number;

  constructor(message: string, method: string, pages: number) {
    super("pagination_error", message);
    this.method = method;
    this.pages = pages;
  }
}

/** The server's `initialize` answer was not an InitializeResult. */
export class InvalidInitializeResultError extends McpError<"invalid_initialize_result"> {
  static override readonly brand: string = "InvalidInitializeResultError";

  constructor(serverName: string, reason: string) {
    super("invalid_initialize_result", `MCP server "${serverName}" sent an invalid initialize result: ${reason}`);
  }
}

/** A tool's `ui://` resource (MCP Apps) cannot be shown: not a `ui://` URI, no HTML, another MIME type. Names the server, the URI and what was wrong. */
export class UiResourceError extends McpError<"ui_resource"> {
  static override readonly brand: string = "UiResourceError";
  declare readonly serverName: string;
  declare readonly uri: string;

  constructor(serverName: string, uri: string, problem: string) {
    super("ui_resource", `The UI resource ${uri} of MCP server "${serverName}" cannot be shown: ${problem}`);
    this.serverName = serverName;
    this.uri = uri;
  }
}
