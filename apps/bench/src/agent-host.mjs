#!/usr/bin/env node
// Agent hosts: what tool search costs and saves. A fixture of 20 servers × 50 tools (realistic
// names, descriptions and parameters) goes through @mcp/manager's search index and
// @mcp/adapters' definitions: the time of one search over 2,000 tools, and the bytes of tool
// definitions a request carries with every tool vs with the search meta-tool and what one search
// loads. No server is started: the index and the adapters work on the tool list alone.
//   pnpm bench:agent                 prints the numbers
//   pnpm bench:agent -- --write      … and rewrites the "Agent hosts" section of docs/benchmarks.md
import { readFileSync, writeFileSync } from "node:fs";
import { toAnthropicTools } from "@mcp/adapters/anthropic";
import { toOpenAITools } from "@mcp/adapters/openai";
import { toolSearch } from "@mcp/adapters";
import { withSection } from "./cli-latency.mjs";
import { median } from "./scenarios.mjs";

const SERVERS = 20;
const PER_SERVER = 50;
const DOMAINS = [
  "github",
  "jira",
  "slack",
  "postgres",
  "filesystem",
  "browser",
  "calendar",
  "email",
  "drive",
  "notion",
  "linear",
  "sentry",
  "stripe",
  "aws",
  "kubernetes",
  "docker",
  "figma",
  "hubspot",
  "zendesk",
  "search",
];
const VERBS = ["list", "get", "create", "update", "delete", "search", "archive", "export", "import", "sync"];
const NOUNS = ["issue", "comment", "user", "project", "file", "message", "event", "record", "report", "label"];

/** A tool shaped like the manager's, with a description and three parameters. */
function fixtureTool(server, i) {
  const verb = VERBS[i % VERBS.length];
  const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
  const toolName = `${verb}_${noun}${i >= 100 ? `_${i}` : ""}`;
  return {
    name: `mcp__${server}__${toolName}`,
    serverName: server,
    toolName,
    title: undefined,
    description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${noun} in ${server}. Returns the ${noun} as JSON with its id, timestamps and owner; fails when the ${noun} does not exist or access is denied.`,
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: `The ${noun}'s id in ${server}` },
        fields: { type: "array", items: { type: "string" }, description: "Fields to return (default: all)" },
        limit: { type: "integer", minimum: 1, maximum: 100, description: "Most items to return" },
      },
      required: ["id"],
    },
    outputSchema: undefined,
    annotations: undefined,
    deferred: false,
    call: async () => ({ content: [{ type: "text", text: "ok" }] }),
  };
}

const tools = DOMAINS.slice(0, SERVERS).flatMap((server) =>
  Array.from({ length: PER_SERVER }, (_, i) => fixtureTool(server, i)),
);
// Search is timed over twice as many: 40 servers × 50 tools.
const searched = [
  ...tools,
  ...DOMAINS.flatMap((server) => Array.from({ length: PER_SERVER }, (_, i) => fixtureTool(`${server}-eu`, i))),
];

// The manager's index, through a manager-shaped source (the index module is the manager's own).
const { ToolSearchIndex } = await import(new URL("../../../packages/manager/dist/search.js", import.meta.url).href);
const buildStart = performance.now();
const index = new ToolSearchIndex(searched);
const buildMs = performance.now() - buildStart;
const queries = [
  "create a github issue",
  "send a slack message",
  "list postgres records",
  "export a report from stripe",
  "delete a kubernetes project",
  "search drive files",
  "update a jira comment",
  "archive email messages",
];
for (let i = 0; i < 200; i++) index.search(queries[i % queries.length], 5); // warm-up
const times = [];
for (let round = 0; round < 25; round++) {
  for (const query of queries) {
    const t = performance.now();
    index.search(query, 5);
    times.push(performance.now() - t);
  }
}
const searchMs = median(times);
const top = index.search("create a github issue", 5).map((t) => t.name);

const small = new ToolSearchIndex(tools);
const source = { getTools: () => tools, searchTools: (q, o) => small.search(q, o?.limit ?? 5) };
const bytes = (value) => Buffer.byteLength(JSON.stringify(value));
const search = toolSearch(source, { limit: 5 });
const before = search.tools();
await search.tool.call({ query: "create a github issue" });
const after = search.tools();
const rows = [
  [
    "Anthropic Messages",
    bytes(toAnthropicTools(tools).tools),
    bytes(toAnthropicTools(before).tools),
    bytes(toAnthropicTools(after).tools),
  ],
  [
    "OpenAI Responses",
    bytes(toOpenAITools(tools).tools),
    bytes(toOpenAITools(before).tools),
    bytes(toOpenAITools(after).tools),
  ],
];
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const section = [
  "<!-- agent-host:start (apps/bench/src/agent-host.mjs --write) -->",
  "## Agent hosts: tool search",
  "",
  `A fixture of ${SERVERS} servers × ${PER_SERVER} tools (${tools.length} tools, each with a description and three parameters), on ${process.version}.`,
  "",
  `- \`manager.searchTools\` (BM25 over names, descriptions and parameters) over ${searched.length} tools: **${(searchMs * 1000).toFixed(0)} µs** per search (median of ${times.length}; the index is built once per tool list, in ${buildMs.toFixed(1)} ms) (target: under 1 ms per search for 2,000 tools: ${searchMs < 1 ? "met" : "MISSED"}). "create a github issue" → ${top
    .slice(0, 3)
    .map((n) => `\`${n}\``)
    .join(", ")}.`,
  "",
  "Tool definition bytes one request carries:",
  "",
  "| API | every tool | search meta-tool only | after one search (5 loaded) |",
  "|---|---:|---:|---:|",
  ...rows.map(
    ([api, all, meta, loaded]) =>
      `| ${api} | ${kb(all)} | ${kb(meta)} | ${kb(loaded)} (${((1 - loaded / all) * 100).toFixed(1)} % less) |`,
  ),
  "",
  "Reproduce: `npx -y pnpm@10.34.9 bench:agent` (`-- --write` rewrites this section).",
  "<!-- agent-host:end -->",
].join("\n");

process.stdout.write(`${section.split("\n").slice(1, -2).join("\n")}\n`);
if (process.argv.includes("--write")) {
  const file = new URL("../../../docs/benchmarks.md", import.meta.url);
  writeFileSync(file, withSection(readFileSync(file, "utf8"), section));
  process.stderr.write("rewrote the Agent hosts section of docs/benchmarks.md\n");
}
