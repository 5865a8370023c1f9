// A registry's server added to our own file in one step (`mcp registry add`): its entry asked for,
// a deprecated or deleted version refused unless forced, the entry written and a project's approved.
import { approveOwnServer, type ApproveOwnOptions } from "@mcp/manager";
import { getRegistryServer, retiredStatus, snippet, type RegistryRequestOptions } from "./client.js";
import type { RegistryConfig } from "./config.js";
import { RegistryError } from "./errors.js";
import { addFromRegistry, type AddFromRegistryOptions } from "./own-files.js";
import type { RegistryEntry } from "./types.js";

/** Options of {@link installFromRegistry}: where the entry goes, its choices, and how the registry is asked. */
export interface InstallFromRegistryOptions
  extends AddFromRegistryOptions, Pick<RegistryRequestOptions, "signal" | "timeout" | "maxBytes" | "fetch"> {
  /** The version to add (default: the latest). */
  version?: string | undefined;
  /** Add a version the registry marks deprecated or deleted (without it, a `RegistryError` `retired`). */
  force?: boolean | undefined;
  /** For a project's file: approve the entry as it loads (`approveOwnServer` of `@mcp/manager`). */
  approve?: ApproveOwnOptions | undefined;
}

/** What {@link installFromRegistry} wrote. */
export interface InstalledFromRegistry {
  /** The registry's entry for the version added. */
  entry: RegistryEntry;
  /** The config written (see `configFromRegistry`). */
  made: RegistryConfig;
  /** The version's status when it was added although deprecated or deleted (`force`). */
  status: "deprecated" | "deleted" | undefined;
  /** With `approve`: why the entry is not approved yet; undefined once it is. */
  notApproved: string | undefined;
}

/**
 * Asks `options.registry` for the server `name` (at `options.version`, else its latest) and writes
 * it into `options.file` as `options.name` ({@link addFromRegistry}: the record an update needs,
 * comments kept), then with `approve` approves it as it loads.
 *
 * @throws RegistryError `retired` for a deprecated or deleted version without `force`, or as
 *   `getRegistryServer` and `addFromRegistry` do; nothing is written then.
 */
export async function installFromRegistry(
  name: string,
  options: InstallFromRegistryOptions,
): Promise<InstalledFromRegistry> {
  const { version, force, approve, signal, timeout, maxBytes, fetch, ...add } = options;
  const entry = await getRegistryServer(name, version, { registry: add.registry, signal, timeout, maxBytes, fetch });
  const status = retiredStatus(entry);
  if (status && !force)
    throw new RegistryError("retired", `${name} ${snippet(entry.server.version, 40)} is ${status} in ${add.registry}`, {
      registry: add.registry,
    });
  const made = await addFromRegistry(entry, add);
  const notApproved = approve ? await approveOwnServer(add.file, add.name, approve) : undefined;
  return { entry, made, status, notApproved };
}
