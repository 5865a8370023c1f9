// Tool pinning seen from the gateway: a tool its manager holds (its definition changed since it was
// approved, or it is new) is not in the manager's tool list, so no caller sees or calls it; this
// says so once in the audit log, with the tool's old and new hashes.
import type { HeldTool, MCPManager } from "@mcp/manager";
import type { AuditEntry, AuditSink } from "./audit.js";

/** The audit entry of a held tool: `decision: "held"`, its server, its tool, the old and new hashes. */
export function heldEntry(held: HeldTool): AuditEntry {
  const entry: AuditEntry = {
    time: new Date().toISOString(),
    caller: null,
    endpoint: "upstream",
    method: "tools/list",
    server: held.server,
    tool: `${held.server}__${held.tool}`,
    decision: "held",
    durationMs: 0,
    newHash: held.newHash,
  };
  if (held.oldHash !== undefined) entry.oldHash = held.oldHash;
  return entry;
}

/** How often a gateway with held tools reads the pin store again, for approvals made elsewhere (`mcp pins approve`, another replica). */
export const HELD_RECHECK_MS = 10_000;

/**
 * Audits each tool the manager holds, now and whenever one is held (once per tool and definition),
 * and while any is held reads the pin store again every `recheckMs`, so an approval made in another
 * process serves it. Returns the function that stops both.
 */
export function watchHeld(manager: MCPManager, audit: AuditSink | undefined, recheckMs = HELD_RECHECK_MS): () => void {
  if (audit) for (const held of manager.pins.held()) audit(heldEntry(held));
  const off = manager.pins.onHeld((held) => {
    if (audit) for (const tool of held) audit(heldEntry(tool));
  });
  const timer = setInterval(() => {
    if (manager.pins.held().length > 0) void manager.pins.recheck();
  }, recheckMs);
  timer.unref();
  return () => {
    off();
    clearInterval(timer);
  };
}
