#!/usr/bin/env node
// A host the way a coding agent is one: it loads the user's configured MCP servers (every host's
// config, as `mcp` does, but a project's servers only when their host approved them;
// server-everything when there are none), hands their tools to a model
// through @mcp/adapters, and runs the model's tool loop with the AI SDK.
//
//   mcp-agent "<task>" [--search]
//
// The model is the AI SDK's mock model unless ANTHROPIC_API_KEY is set (then Claude, through
// @ai-sdk/anthropic). The mock plays an agent: it calls a tool that fits the task (after a
// search, with --search), reads the result, and answers. --search sends the model the
// `search_tools` meta-tool instead of every definition.
import { createRequire } from "node:module";
import { createAnthropic } from "@ai-sdk/anthropic";
import { toolSearch } from "@mcp/adapters";
import { toAiSdkTools } from "@mcp/adapters/ai-sdk";
import { loadAllMCPConfigs, MCPManager, type MCPTool } from "@mcp/manager";
import { generateText, stepCountIs, type LanguageModel, type ToolSet } from "ai";
import { MockLanguageModelV3 } from "ai/test";

const args = process.argv.slice(2);
const useSearch = args.includes("--search");
const task = args.filter((a) => a !== "--search").join(" ") || "echo hello";

const manager = new MCPManager({ maxResultChars: 20_000 });
const loaded = await loadAllMCPConfigs(process.cwd());
for (const error of loaded.errors) console.error(`config: ${error.message}`);
// A project's own files (.mcp.json, …) came with the repository: this agent asks nobody, so the
// manager starts only the project servers an approval covers (`mcp config approve`, Claude Code's
// enabledMcpjsonServers) and says why it refused the others.
await manager.connectServers(loaded.configs, loaded.servers);
for (const status of manager.getStatuses())
  if (status.state === "not-approved")
    console.error(
      `skipped project server "${status.name}" (${status.source}): ${status.refusal?.reason}; approve it: ${status.refusal?.approve}`,
    );
if (manager.getTools().length === 0) {
  // No server configured: the one a new user can see working at once.
  const entry = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
  await manager.connectServers({ everything: { command: process.execPath, args: [entry, "stdio"], timeout: 30_000 } });
}

const search = useSearch ? toolSearch(manager, { limit: 5 }) : undefined;
// Every tool is in the set; with --search only the meta-tool and what searches found are active
// (sent to the model) at each step.
const tools = toAiSdkTools(search ? [search.tool, ...manager.getTools()] : manager.getTools()) as ToolSet;
const model: LanguageModel = process.env["ANTHROPIC_API_KEY"]
  ? createAnthropic()("claude-sonnet-4-5")
  : mockAgent(manager.searchTools(task, { limit: 1 })[0], useSearch);

console.log(
  `${manager.getTools().length} tools from ${manager.getStatuses().filter((s) => s.state === "connected").length} servers; ${search ? "search_tools first" : "all of them"} sent to ${typeof model === "string" ? model : model.modelId}`,
);
try {
  const result = await generateText({
    model,
    prompt: task,
    stopWhen: stepCountIs(8),
    tools,
    // What a search loaded is sent from the next step on.
    ...(search ? { prepareStep: () => ({ activeTools: search.tools().map((t) => t.name) }) } : {}),
    onStepFinish: (step) => {
      for (const call of step.toolCalls) console.log(`→ ${call.toolName} ${JSON.stringify(call.input)}`);
      for (const done of step.toolResults) console.log(`← ${firstText(done.output)}`);
    },
  });
  console.log(`answer: ${result.text}`);
} finally {
  await manager.disconnectAll();
}

function firstText(output: unknown): string {
  const content = (output as { content?: { type: string; text?: string }[] } | undefined)?.content ?? [];
  const text = content.find((c) => c.type === "text")?.text ?? JSON.stringify(output);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/**
 * A mock model that acts like an agent: it calls `tool` (found by searching first when `search`),
 * filling its required string arguments from the task, then answers with what the tool said.
 */
function mockAgent(tool: MCPTool | undefined, search: boolean): MockLanguageModelV3 {
  const usage = {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 0, text: 0, reasoning: 0 },
  };
  let step = 0;
  return new MockLanguageModelV3({
    modelId: "mock-agent",
    doGenerate: ({ prompt, tools: offered }) => {
      step++;
      console.log(`[model] step ${step}: ${offered?.length ?? 0} tool definitions`);
      const call = (name: string, input: unknown) =>
        Promise.resolve({
          content: [
            { type: "tool-call" as const, toolCallId: `call-${step}`, toolName: name, input: JSON.stringify(input) },
          ],
          finishReason: { unified: "tool-calls" as const, raw: "tool_use" },
          usage,
          warnings: [],
        });
      if (tool && search && step === 1) return call("search_tools", { query: task });
      if (tool && step === (search ? 2 : 1)) return call(tool.name, argumentsFor(tool));
      const last = [...prompt].reverse().find((m) => m.role === "tool");
      const output = (last?.content[0] as { output?: { value?: unknown } } | undefined)?.output?.value;
      const said = typeof output === "string" ? output : JSON.stringify(output ?? "nothing");
      return Promise.resolve({
        content: [{ type: "text" as const, text: tool ? `${tool.toolName} said: ${said}` : "No tool fits that task." }],
        finishReason: { unified: "stop" as const, raw: "end_turn" },
        usage,
        warnings: [],
      });
    },
  });
}

/** The task's words for the tool's required string arguments (numbers: 1). */
function argumentsFor(tool: MCPTool): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: string }>; required?: string[] };
  const args: Record<string, unknown> = {};
  for (const key of schema.required ?? [])
    args[key] = schema.properties?.[key]?.type === "number" || schema.properties?.[key]?.type === "integer" ? 1 : task;
  return args;
}
