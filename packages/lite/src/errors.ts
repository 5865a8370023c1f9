import { McpError } from "@mcp/jsonrpc";

/** The server answered with a non-2xx status. Message: `MCP request failed: <status> <statusText>`. */
export class LiteHttpError extends McpError {
  static override readonly brand: string = "LiteHttpError";
  readonly status: number;
  readonly statusText: string;
  /** The first 500 characters of the body. */
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super("http_error", `MCP request failed: ${status} ${statusText}`);
    this.status = status;
    this.statusText = statusText;
    this.body = body.slice(0, 500);
  }
}

/** The body was neither JSON nor SSE carrying JSON. Message: `Failed to parse MCP response`. */
export class LiteParseError extends McpError {
  static override readonly brand: string = "LiteParseError";
  /** The first 200 characters of what could not be parsed. */
  readonly snippet: string;
  readonly status: number | undefined;

  constructor(input: string, options: { cause?: unknown; status?: number } = {}) {
    super("parse_error", "Failed to parse MCP response", options);
    this.snippet = input.slice(0, 200);
    this.status = options.status;
  }
}
