// Every entry the loader found, in one list: active and disabled ones, those another file
// shadows, and those that did not load (`mcp config list`, whose `--json` rows these are).
import type { MCPServerConfig } from "@mcp/client";
import { redactUrl } from "@mcp/jsonrpc/internal";
import { tildify } from "../unavailable.js";
import type { LoadResult } from "./types.js";

/** One entry of {@link configEntries}. */
export interface ConfigEntry {
  /** The server's name, or `(file)` for a file that did not load. */
  name: string;
  /** The host family whose file it is (`claude-code`, `cursor`, …); empty for an invalid entry. */
  family: string;
  /** `user` or `project`; empty for an invalid entry. */
  scope: string;
  file: string;
  state: "active" | "disabled" | "shadowed" | "invalid";
  /**
   * What runs (the command line, or the transport and URL with any password hidden, and its
   * proxy), the file that overrides a shadowed entry (from `~`), or why an invalid one did not load.
   */
  detail: string;
}

/** The command line of a stdio entry, or an HTTP entry's transport, URL and proxy (passwords hidden). */
function whatRuns(config: MCPServerConfig & { url?: string; proxy?: string | false | undefined }): string {
  const runs =
    "command" in config
      ? [config.command, ...(config.args ?? [])].join(" ")
      : `${config.type} ${redactUrl(config.url)}`;
  if (!("url" in config)) return runs;
  if (config.proxy === false) return `${runs} (no proxy)`;
  return typeof config.proxy === "string" ? `${runs} via proxy ${redactUrl(config.proxy)}` : runs;
}

/** Every entry of a {@link LoadResult}: the servers, then the shadowed entries, then the errors. */
export function configEntries(result: LoadResult, home: string): ConfigEntry[] {
  const fromHome = (path: string | undefined): string => tildify(path, home);
  return [
    ...Object.values(result.servers).map((s) => ({
      name: s.name,
      family: s.source.family,
      scope: s.source.scope,
      file: s.source.file,
      state: s.enabled ? ("active" as const) : ("disabled" as const),
      detail: whatRuns(s.config),
    })),
    ...result.shadowed.map((s) => ({
      name: s.name,
      family: s.source.family,
      scope: s.source.scope,
      file: s.source.file,
      state: "shadowed" as const,
      detail: `overridden by ${fromHome(result.servers[s.name]?.source.file)}`,
    })),
    ...result.errors.map((e) => ({
      name: e.server ?? "(file)",
      family: "",
      scope: "",
      file: e.file,
      state: "invalid" as const,
      detail: e.message,
    })),
  ];
}
