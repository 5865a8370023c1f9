// Our own files' entries by name: one added (a name already there kept unless replaced), one removed
// from the first file that has it, and a project entry the user just wrote there approved as it
// loads (`mcp config add | remove`, `mcp registry add | update`).
import type { MCPServerConfig } from "@mcp/client";
import { createApprovalStore } from "../approvals/store.js";
import { describeConfig } from "../unavailable.js";
import { clearSecrets, type ClearSecret } from "./own-entry.js";
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

/** {@link addOwnServer} was not asked to replace the entry of that name the file already has: nothing was written. */
export class OwnServerExistsError extends Error {
  constructor(
    /** The file that has it. */
    readonly file: string,
    /** The entry's name. */
    readonly server: string,
    /** What the entry there runs (`describeConfig`), when it names a command or URL. */
    readonly runs: string | undefined,
  ) {
    super(`${file} already has "${server}"${runs === undefined ? "" : `: ${runs}`}`);
    this.name = "OwnServerExistsError";
  }
}

/** What {@link addOwnServer} did. */
export interface OwnServerAdded {
  /** True when an entry of that name was replaced. */
  replaced: boolean;
  /** Values that look like secrets, now written in the clear (see `clearSecrets`). */
  secrets: ClearSecret[];
  /** With `approve`: why the entry is not approved yet (see {@link approveOwnServer}); undefined once it is. */
  notApproved: string | undefined;
}

/**
 * Writes `config` as the entry `name` of our own `file` ({@link editOwnConfig}: comments kept), and
 * with `approve` (a project's file) approves it as it loads ({@link approveOwnServer}). An entry of
 * that name already there is replaced only with `replace`.
 *
 * @throws OwnServerExistsError when the file has `name` and `replace` is not set (nothing written).
 */
export async function addOwnServer(
  file: string,
  name: string,
  config: MCPServerConfig,
  options: { replace?: boolean | undefined; approve?: ApproveOwnOptions | undefined } = {},
): Promise<OwnServerAdded> {
  const servers = await readOwnServers(file);
  const before = Object.hasOwn(servers, name) ? servers[name] : undefined;
  if (before !== undefined && !options.replace) {
    const entry = (typeof before === "object" && before !== null ? before : {}) as { command?: unknown; url?: unknown };
    const named = typeof entry.command === "string" || typeof entry.url === "string";
    throw new OwnServerExistsError(file, name, named ? describeConfig(before as MCPServerConfig) : undefined);
  }
  await editOwnConfig(file, ["servers", name], config);
  const notApproved = options.approve ? await approveOwnServer(file, name, options.approve) : undefined;
  return { replaced: before !== undefined, secrets: clearSecrets(config), notApproved };
}
