// Tool pinning's errors: a held tool's call (`ToolHeldError`) and a pin store that cannot be read (`PinStoreError`).
import { McpError } from "@mcp/jsonrpc";

/**
 * A tool whose definition (description, schema, title or annotations) changed since a person
 * approved it, or that is new on a server whose tools are pinned: it is held, so nothing was sent
 * to the server. `manager.pins.approve(serverName)` (the CLI: `mcp pins approve <server>`)
 * approves it.
 */
export class ToolHeldError extends McpError<"tool_held"> {
  static override readonly brand: string = "ToolHeldError";
  declare readonly serverName: string;
  declare readonly toolName: string;
  /** `changed`: its definition differs from the approved one; `added`: it was never approved. */
  declare readonly change: "changed" | "added";
  /** The approved definition's hash (absent for a new tool) and the held one's. */
  declare readonly oldHash: string | undefined;
  declare readonly newHash: string;

  constructor(
    serverName: string,
    toolName: string,
    change: "changed" | "added",
    oldHash: string | undefined,
    newHash: string,
  ) {
    const why =
      change === "changed"
        ? "its definition changed since it was approved"
        : "it is new since the server's tools were approved";
    super(
      "tool_held",
      `tool "${toolName}" of MCP server "${serverName}" is held: ${why}; a person must approve it first`,
    );
    this.serverName = serverName;
    this.toolName = toolName;
    this.change = change;
    this.oldHash = oldHash;
    this.newHash = newHash;
  }
}
