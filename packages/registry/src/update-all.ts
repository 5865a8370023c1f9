// Entries added from the registry moved to their registry's latest version, each one's outcome said
// (what `mcp registry update` prints), a project entry approved as it was staying approved.
import { approveOwnServer, createApprovalStore, loadAllMCPConfigs } from "@mcp/manager";
import { RegistryError } from "./errors.js";
import { updateInstalled, type InstalledIn, type InstalledUpdate } from "./own-files.js";
import { checkForUpdates, type CheckForUpdatesOptions } from "./updates.js";

/** An entry {@link updateFromRegistry} is given: `project` when its file is the project's (it came with a repository). */
export type UpdateItem = InstalledIn & { project?: boolean | undefined };

/** What {@link updateFromRegistry} did with one entry. */
export interface UpdateOutcome<T extends UpdateItem = UpdateItem> {
  item: T;
  /**
   * - `failed`: not checked, or the registry failed, or the new version cannot be made with the
   *   record's choices (`problem` says which; nothing written);
   * - `current`: at the latest version already;
   * - `retired`: the latest version is deprecated or deleted (`status`), so not updated without `force`;
   * - `updated`: rewritten in its file (`update`).
   */
  action: "failed" | "current" | "retired" | "updated";
  /** The registry asked. */
  url?: string | undefined;
  /** The latest version. */
  version?: string | undefined;
  status?: "deprecated" | "deleted" | undefined;
  /** Why it failed. Text from a file or a registry: print it escaped. */
  problem?: string | undefined;
  update?: InstalledUpdate | undefined;
  /** A project entry updated: whether it is approved as it is now (only one approved as it was is). */
  approved?: boolean | undefined;
  /** A project entry approved as it was but not now: why (its load error, or another file's entry comes first). */
  notApproved?: string | undefined;
}

/** Options of {@link updateFromRegistry}. */
export interface UpdateFromRegistryOptions extends CheckForUpdatesOptions {
  /** Update to a latest version that is deprecated or deleted. */
  force?: boolean | undefined;
  /** The project folder: its approvals are carried over. */
  cwd: string;
  /** The approvals file (`createApprovalStore`'s `file`). */
  approvals: string;
}

/**
 * Checks each entry against its registry's latest version ({@link checkForUpdates}) and updates
 * the outdated ones in their files, one after another ({@link updateInstalled}: the user's own
 * fields and values kept). A project entry that was approved as it was is approved as it is now
 * (the update is the user's own); one that was not stays unapproved. One outcome per entry, in order.
 */
export async function updateFromRegistry<T extends UpdateItem>(
  items: readonly T[],
  options: UpdateFromRegistryOptions,
): Promise<UpdateOutcome<T>[]> {
  const loaded = await loadAllMCPConfigs(options.cwd);
  const store = createApprovalStore({ file: options.approvals });
  const outcomes: UpdateOutcome<T>[] = [];
  for (const { item, url, latest, outdated, status, problem } of await checkForUpdates(items, options)) {
    const version = latest?.server.version;
    const said = { item, url, version, status };
    if (!latest || problem) outcomes.push({ ...said, action: "failed", problem: problem ?? "not checked" });
    else if (!outdated) outcomes.push({ ...said, action: "current" });
    else if (status && !options.force) outcomes.push({ ...said, action: "retired" });
    else {
      const before = loaded.servers[item.local];
      const wasApproved =
        item.project === true && before?.source.file === item.file && (await store.isApproved(options.cwd, before));
      let update: InstalledUpdate;
      try {
        update = await updateInstalled(item, latest);
      } catch (error) {
        if (!RegistryError.isInstance(error)) throw error;
        outcomes.push({ ...said, action: "failed", problem: error.message });
        continue;
      }
      const notApproved = wasApproved ? await approveOwnServer(item.file, item.local, options) : undefined;
      const approved = item.project === true ? wasApproved && notApproved === undefined : undefined;
      outcomes.push({ ...said, action: "updated", update, approved, notApproved });
    }
  }
  return outcomes;
}
