// Our own files' entries by name: one removed from the first file that has it, and a project entry
// the user just wrote there approved as it loads (`mcp config add | remove`, `mcp registry add | update`).
import { createApprovalStore } from "../approvals/store.js";
import { loadAllMCPConfigs } from "./load.js";
import { editOwnConfig, readOwnServers } from "./own-file.js";

/**
 * Removes the entry `name` from the first of our own `files` that has one (comments and formatting
 * kept, as {@link editOwnConfig} writes). Resolves with that file, or `undefined` when none has it.
 */
export async function removeOwnServer(files: readonly string[], name: string): Promise<string | undefined> {
  for (const file of files) {
    if ((await readOwnServers(file))[name] === undefined) continue;
    await editOwnConfig(file, ["servers", name], undefined);
    return file;
  }
  return undefined;
}

/** Where {@link approveOwnServer} looks and remembers. */
export interface ApproveOwnOptions {
  /** The project folder (its config files are loaded from it; the approval is for it). */
  cwd: string;
  /** The approvals file (`createApprovalStore`'s `file`). */
  approvals: string;
}

/**
 * Approves for the project the entry `name` the user just wrote in the project's own `file`: their
 * own writing needs no second yes. What is approved is the entry as it loads (variables expanded),
 * so the project's files are loaded again. Resolves with `undefined` once approved, else with why
 * it is not: the load error for it (a variable not set), or that another file's `name` comes first.
 */
export async function approveOwnServer(
  file: string,
  name: string,
  options: ApproveOwnOptions,
): Promise<string | undefined> {
  const loaded = await loadAllMCPConfigs(options.cwd);
  const added = loaded.servers[name];
  if (added?.source.file !== file)
    return loaded.errors.find((e) => e.server === name)?.message ?? `another file's "${name}" comes first`;
  await createApprovalStore({ file: options.approvals }).remember(options.cwd, [added]);
  return undefined;
}
