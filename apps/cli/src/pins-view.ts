import { commandLine, findHeld, formatToolDiff, heldFacts, heldReason, type HeldTool } from "@mcp/manager";
import type { Session } from "./session.js";
import { CliError, color, EXIT } from "./ui.js";

// Held tools as a person reads them (`mcp tools`, `mcp pins`, a refused `mcp call`): tool pinning
// of @mcp/manager holds a tool whose definition changed since it was approved, or that is new.

/** The command that approves a server's held tools (one of them, when named). */
export function approveCommand(server: string, tool?: string): string {
  return commandLine("mcp", ["pins", "approve", server, ...(tool === undefined ? [] : [tool])]);
}

/** The held tools of this session's servers (of one, when named). */
export function heldOf(session: Session, server?: string): HeldTool[] {
  return session.manager.pins.held(server).filter((held) => session.configs[held.server] !== undefined);
}

/**
 * The error `call` fails with when the tool it names is held (by its name, `server.tool` or
 * `mcp__server__tool`): what changed and the command that approves it. Undefined when it is not.
 */
export function heldCallError(session: Session, name: string, server?: string): CliError | undefined {
  const held = findHeld(heldOf(session, server), name);
  if (!held) return undefined;
  return new CliError(
    `tool "${held.tool}" of server "${held.server}" is held: ${heldReason(held)}, so it is not offered nor called until you approve it. See the diff: mcp pins ${held.server}   Approve: ${approveCommand(held.server, held.tool)}`,
    EXIT.failure,
  );
}

/** One held tool for a terminal: its name and why, the approving command, then its diff indented. */
export function heldText(held: HeldTool, indent = "  "): string {
  const diff = formatToolDiff(held.diff)
    .split("\n")
    .filter(Boolean)
    .map((line) => `${indent}  ${line}`);
  return [
    `${indent}${color.yellow(`${held.server}.${held.tool}`)}  held: ${heldReason(held)}`,
    ...diff,
    `${indent}  approve: ${approveCommand(held.server, held.tool)}`,
  ].join("\n");
}

/** A held tool for `--json`: @mcp/manager's heldFacts and the command that approves it. */
export function heldJson(held: HeldTool): Record<string, unknown> {
  return { ...heldFacts(held), approve: approveCommand(held.server, held.tool) };
}
