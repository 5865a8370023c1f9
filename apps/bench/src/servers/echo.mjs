// The MCP echo logic every bench server shares: the least a server can do, so what gets measured is
// the client. It speaks the 2025 era (both SDK clients' default), refuses `server/discover` with
// -32601 (so a client that probes falls back at once), and has two tools: `echo` returns its `text`
// argument, `big` returns `bytes` characters of text (built once per size, then reused).

const TOOLS = [
  {
    name: "echo",
    description: "Returns its text argument.",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
  },
  {
    name: "big",
    description: "Returns `bytes` characters of text.",
    inputSchema: { type: "object", properties: { bytes: { type: "number" } } },
  },
];
const VERSIONS = new Set(["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
const bigText = new Map();

function ok(id, result) {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
}

/**
 * The answer to one parsed JSON-RPC message, as a serialised line without its newline, or
 * `undefined` for a notification or a response (nothing to answer).
 */
export function answer(message) {
  const { id, method, params } = message;
  if (id === undefined || id === null || method === undefined) return undefined;
  switch (method) {
    case "initialize": {
      const requested = params?.protocolVersion;
      const protocolVersion = VERSIONS.has(requested) ? requested : "2025-11-25";
      return ok(
        id,
        JSON.stringify({
          protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "bench-echo", version: "1.0.0" },
        }),
      );
    }
    case "tools/list":
      return ok(id, JSON.stringify({ tools: TOOLS }));
    case "ping":
      return ok(id, "{}");
    case "tools/call": {
      const args = params?.arguments ?? {};
      if (params?.name === "big") {
        const bytes = Number(args.bytes);
        let text = bigText.get(bytes);
        if (text === undefined) bigText.set(bytes, (text = "x".repeat(bytes)));
        return ok(id, `{"content":[{"type":"text","text":"${text}"}]}`);
      }
      return ok(id, JSON.stringify({ content: [{ type: "text", text: String(args.text ?? "") }] }));
    }
    default:
      return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":-32601,"message":"Method not found: ${method}"}}`;
  }
}
