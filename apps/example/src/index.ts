// The whole stack in one page: connect to an MCP server over stdio, list its tools, call one,
// and watch a long-running call report progress. Run: `pnpm run demo` (or node dist/index.js).
import { createRequire } from "node:module";
import { callTool, connectToServer, disconnectServer, listTools, type MCPServerConfig } from "@mcp/client";

// The embedded default server: @modelcontextprotocol/server-everything, a dependency of this app.
// Any MCP server works the same way, e.g. { command: "npx", args: ["-y", "some-mcp-server"] }.
const serverEntry = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
const config: MCPServerConfig = { command: process.execPath, args: [serverEntry, "stdio"], timeout: 20_000 };

const connection = await connectToServer("everything", config, {
  clientInfo: { name: "mcp-example", version: "0.1.0" },
});

try {
  const { name, version } = connection.serverInfo;
  console.log(`Connected to ${name} ${version} (protocol ${connection.protocolVersion})\n`);

  const tools = await listTools(connection);
  console.log(`${tools.length} tools:`);
  for (const tool of tools)
    console.log(`  ${tool.name.padEnd(32)} ${(tool.description ?? "").split("\n")[0]?.slice(0, 70)}`);

  const echo = await callTool(connection, "echo", { message: "Hello from @mcp/client" });
  const text = echo.content.find((block) => block.type === "text");
  console.log(`\necho → ${String(text?.["text"])}`);

  console.log("\ntrigger-long-running-operation (2 s, 4 steps):");
  const started = Date.now();
  const result = await callTool(
    connection,
    "trigger-long-running-operation",
    { duration: 2, steps: 4 },
    {
      onProgress: ({ progress, total }) => {
        const done = total ? Math.round((progress / total) * 20) : 0;
        console.log(`  [${"#".repeat(done).padEnd(20)}] ${progress}/${total ?? "?"} after ${Date.now() - started} ms`);
      },
    },
  );
  const summary = result.content.find((block) => block.type === "text");
  console.log(`  done: ${String(summary?.["text"]).split("\n")[0]}`);
} finally {
  await disconnectServer(connection);
}
