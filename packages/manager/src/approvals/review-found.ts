// The project servers among those a command found, reviewed before anything starts: those an
// approval covers (or the policy approves) stay, marked approved; the others are left out, with why.

import type { MCPServerConfig } from "@mcp/client";
import type { DiscoveredServer } from "../config/types.js";
import { reviewApprovals, type ApprovalPolicy } from "./policy.js";

/** What {@link reviewProjectServers} leaves to start. */
export interface ReviewedServers {
  /** The configs given, without the project servers that may not start. */
  configs: Record<string, MCPServerConfig>;
  /** The entries given, the approved project servers marked `approved: true` (so the manager starts them and runs their `headersHelper`). */
  servers: Record<string, DiscoveredServer>;
  /** The names of the project servers left out, in the order of `servers`. */
  skipped: string[];
  /** Why each was left out, in words ("not approved yet", "changed since it was approved: env", …). */
  whySkipped: Map<string, string>;
}

/**
 * Reviews the project-scope entries of `servers` that `configs` would start (`reviewApprovals`
 * with `policy`, asked at most once about them all) and returns what may start. Nothing is asked
 * when there is none; `configs` and `servers` are not changed.
 */
export async function reviewProjectServers(
  found: { configs: Readonly<Record<string, MCPServerConfig>>; servers: Readonly<Record<string, DiscoveredServer>> },
  options: { project: string; policy?: ApprovalPolicy | undefined },
): Promise<ReviewedServers> {
  const reviewed: ReviewedServers = {
    configs: { ...found.configs },
    servers: { ...found.servers },
    skipped: [],
    whySkipped: new Map(),
  };
  const project = Object.values(found.servers).filter(
    (server) => server.source.scope === "project" && found.configs[server.name] !== undefined,
  );
  if (project.length === 0) return reviewed;
  const { approved, refused } = await reviewApprovals(project, options);
  reviewed.whySkipped = refused;
  for (const server of project) {
    if (!approved.has(server.name)) {
      reviewed.skipped.push(server.name);
      delete reviewed.configs[server.name];
    } else reviewed.servers[server.name] = { ...server, approved: true };
  }
  return reviewed;
}
