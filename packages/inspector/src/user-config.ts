// The page's config editing as a command line sets it up for its own user: the user's own file
// (`~/.config/mcp-client/mcp-client.json`, where `mcp config add --scope user` writes), loaded again as
// the command loaded its servers, and the command's record of them kept in step (config-route.ts).
import type { MCPServerConfig } from "@mcp/client";
import { loadAllMCPConfigs, OWN_FILE, userConfigDir, type DiscoveredServer } from "@mcp/manager";
import { join } from "node:path";
import type { InspectorConfigEditing } from "./config-route.js";

/**
 * Editing from the page for a command that loaded `found` with `loadAllMCPConfigs(found.cwd, { home:
 * found.home })`: the page writes the user's own file under `found.home` (`$XDG_CONFIG_HOME`,
 * `%APPDATA%` on Windows, read from `env`), loads it again the same way after each write, and keeps
 * `found.configs` and `found.servers` in step with what it applied.
 */
export function userConfigEditing(
  found: {
    cwd: string;
    home: string;
    configs: Record<string, MCPServerConfig>;
    servers: Record<string, DiscoveredServer>;
  },
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): InspectorConfigEditing {
  const { cwd, home } = found;
  return {
    file: join(userConfigDir({ home, env, platform }), OWN_FILE),
    load: () => loadAllMCPConfigs(cwd, { home, env, platform }),
    found,
  };
}
