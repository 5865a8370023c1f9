// The config objects discovery made, each with its entry, so a project entry passed on without its source is still checked.
import type { MCPServerConfig } from "@mcp/client";
import type { DiscoveredServer } from "../config/types.js";

/**
 * Each config object discovery returned, with its entry: a host that passes `loadAllMCPConfigs`'s
 * `configs` to `connectServers` without the `servers` beside them still has its project entries
 * checked (the object is the one discovery made; a copy is the host's own config).
 */
const entries = new WeakMap<MCPServerConfig, DiscoveredServer>();

/** Marks a discovered entry's config as discovered. */
export function markDiscovered(server: DiscoveredServer): void {
  entries.set(server.config, server);
}

/** The entry this config object was discovered as, if discovery made it. */
export function discoveredAs(config: MCPServerConfig): DiscoveredServer | undefined {
  return entries.get(config);
}
