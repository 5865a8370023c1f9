// Stdio servers where processes can be started (Node, and Bun and Deno, which resolve the "node"
// export condition). Loaded through `#stdio` (package.json "imports") for a stdio config only, so
// an HTTP-only program, a browser or a worker never loads @mcp/transport-stdio.
import { StdioTransport, type StdioTransportConfig } from "@mcp/transport-stdio";

/** A stdio transport for server `name`. */
export function createStdioTransport(name: string, config: StdioTransportConfig): StdioTransport {
  return new StdioTransport({ serverName: name, ...config });
}
