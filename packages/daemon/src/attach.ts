// What a shim sends the pool for the stdio entry it found (@mcp/manager's `pooledEntry`): the entry
// as this shell runs it, and what the pool's approval check needs to read the same files as this shell.
import type { PooledEntry } from "@mcp/manager/config";
import type { StdioTransportConfig } from "@mcp/transport-stdio";
import { asThisShellRuns } from "./environment.js";
import type { AttachParams } from "./pool-socket.js";
import { shellValuesFor } from "./shell-values.js";

/**
 * `pool/attach`'s params for `entry`, found by a shim in the folder `cwd`: its config with this
 * shell's folder and environment written in (`asThisShellRuns`), its source, `cwd` as the project
 * whose files the pool's approval check reads, and this shell's values of the variables those files
 * name (`shellValuesFor`), so the check expands them as this shell did.
 */
export function attachParamsFor(
  entry: Pick<PooledEntry, "config" | "source" | "files">,
  cwd: string,
  shell: NodeJS.ProcessEnv = process.env,
): Pick<AttachParams, "config" | "source" | "project" | "vars"> {
  const { configs } = asThisShellRuns({ entry: entry.config }, cwd, shell);
  return {
    config: configs["entry"] as StdioTransportConfig,
    source: entry.source,
    project: cwd,
    vars: shellValuesFor(entry.files, shell),
  };
}
