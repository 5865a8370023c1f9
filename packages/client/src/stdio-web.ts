// Browsers, workers and other runtimes that cannot start a process: a stdio config is refused
// clearly. Loaded through `#stdio` when the "node" export condition does not apply.
import { InvalidConfigError } from "@mcp/jsonrpc";
import type { StdioTransport, StdioTransportConfig } from "@mcp/transport-stdio";

/** Always throws: this runtime cannot start a server process. */
export function createStdioTransport(name: string, _config: StdioTransportConfig): StdioTransport {
  throw new InvalidConfigError(
    'a stdio server needs a runtime that can start processes (Node, Bun or Deno); from a browser or a worker, connect to an HTTP server ("type": "http" and its "url")',
    {
      serverName: name,
      field: "command",
    },
  );
}
