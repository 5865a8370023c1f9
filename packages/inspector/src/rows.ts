import { toolUi } from "@mcp/client/apps";
import { formatToolDiff, heldFacts, type MCPManager, type MCPTool } from "@mcp/manager";
import type { HeldRow, ServerRow, ToolRow } from "./api.js";

// The rows the inspector's API answers, from the manager: the same shapes as `mcp <command> --json`.

/** The server list from the manager's statuses alone (a tool may pass its own: `servers` of the options). */
export function statusRows(manager: MCPManager): ServerRow[] {
  return manager.getStatuses().map((s) => ({
    name: s.name,
    transport: s.transport,
    source: s.source ?? "",
    status: s.state === "not-approved" ? "not approved" : s.state,
    tools: s.state === "connected" || s.toolsFromCache ? s.toolCount : undefined,
    connectMs: s.connectMs,
    lastError: s.lastError,
    stderrTail: s.stderrTail,
  }));
}

/** The tool list, each with its app (`ui`) when it has one. */
export function toolRows(tools: MCPTool[]): ToolRow[] {
  return tools.map((t) => {
    const row: ToolRow = {
      name: t.name,
      server: t.serverName,
      tool: t.toolName,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as ToolRow["inputSchema"],
      outputSchema: t.outputSchema,
      annotations: t.annotations,
    };
    const support = (t.definition?.["execution"] as { taskSupport?: unknown } | undefined)?.taskSupport;
    if (support === "required" || support === "optional") row.taskSupport = support;
    const ui = toolUi(t.definition ?? {});
    return ui ? { ...row, ui } : row;
  });
}

/** The manager's held tools (tool pinning) of the servers it manages, with their diff for a person. */
export function heldRows(
  manager: MCPManager,
  approveCommand: ((server: string, tool: string) => string) | undefined,
): HeldRow[] {
  return manager.pins
    .held()
    .filter((held) => manager.getConnectionStatus(held.server) !== undefined)
    .map((held) => ({
      ...heldFacts(held),
      diff: formatToolDiff(held.diff),
      ...(approveCommand ? { approve: approveCommand(held.server, held.tool) } : {}),
    }));
}
