import { DEFAULT_REQUEST_TIMEOUT } from "@mcp/jsonrpc";

console.log(`MCP client stack for TypeScript: @mcp/jsonrpc is ready (default request timeout ${DEFAULT_REQUEST_TIMEOUT} ms).`);
