// Entries added from the registry, each checked against the latest version its registry has.
import { setMaxListeners } from "node:events";
import { getRegistryServer, retiredStatus, type RegistryRequestOptions } from "./client.js";
import { RegistryError } from "./errors.js";
import { isNewerVersion, registryToAsk, type InstalledEntry } from "./installed.js";
import { printable } from "@mcp/manager";
import type { RegistryEntry } from "./types.js";

/** One entry checked by {@link checkForUpdates}. */
export interface UpdateCheck<T extends InstalledEntry = InstalledEntry> {
  /** The entry as given. */
  item: T;
  /** The registry asked; absent when none was (see `problem`). */
  url?: string | undefined;
  /** The registry's latest version of the server, when it could be had. */
  latest?: RegistryEntry | undefined;
  /** True when `latest` is newer than the entry's recorded version. */
  outdated?: boolean | undefined;
  /** `"deprecated"` or `"deleted"` when the latest version is. */
  status?: "deprecated" | "deleted" | undefined;
  /**
   * Why the entry was not checked: a project's entry naming a registry other than `registry`
   * (`not checked: …`, saying how to ask that one), or the registry's failure (a
   * {@link RegistryError}'s message). Text from a file or a registry: print it escaped.
   */
  problem?: string | undefined;
}

/** Options of {@link checkForUpdates}. */
export interface CheckForUpdatesOptions extends Pick<RegistryRequestOptions, "signal" | "timeout" | "fetch"> {
  /** The registry the user chose (see `resolveRegistry`): the only one a project's entries are asked about. */
  registry: string;
}

/**
 * Asks, for each entry added from the registry (`installedEntries` of a file), the latest version
 * of its server, all at once: at the registry its record names, except for a project's entries
 * (`project: true`: the file came with a repository), asked only at `options.registry`. A registry
 * that fails or refuses gives that entry a `problem`; other entries are still checked. Rejects only
 * when `signal` aborts (or on an error that is not the registry's).
 */
export async function checkForUpdates<T extends InstalledEntry & { project?: boolean | undefined }>(
  items: readonly T[],
  options: CheckForUpdatesOptions,
): Promise<UpdateCheck<T>[]> {
  // One listener on the caller's signal, whatever the number of entries (each request listens on
  // the signal it is given: a dozen on the caller's would warn of a leak).
  const { signal } = options;
  if (signal === undefined) return Promise.all(items.map((item) => checkOne(item, options)));
  const own = new AbortController();
  setMaxListeners(0, own.signal);
  const abort = (): void => own.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener("abort", abort, { once: true });
  try {
    return await Promise.all(items.map((item) => checkOne(item, { ...options, signal: own.signal })));
  } finally {
    signal.removeEventListener("abort", abort);
  }
}

async function checkOne<T extends InstalledEntry & { project?: boolean | undefined }>(
  item: T,
  options: CheckForUpdatesOptions,
): Promise<UpdateCheck<T>> {
  const where = registryToAsk(
    { local: item.local, record: item.record, project: item.project === true },
    options.registry,
  );
  if ("refused" in where) return { item, problem: `not checked: ${where.refused}` };
  let latest: RegistryEntry;
  try {
    latest = await getRegistryServer(item.record.name, "latest", {
      registry: where.url,
      signal: options.signal,
      timeout: options.timeout,
      fetch: options.fetch,
    });
  } catch (error) {
    if (RegistryError.isInstance(error)) return { item, url: where.url, problem: error.message };
    throw error;
  }
  return {
    item,
    url: where.url,
    latest,
    outdated: isNewerVersion(latest.server.version, item.record.version),
    status: retiredStatus(latest),
  };
}

/** One entry of an outdated report ({@link outdatedRows}): what `mcp registry outdated --json` prints. */
export interface OutdatedRow {
  /** The entry's name in its file. */
  name: string;
  /** The registry's name of the server. */
  server: string;
  file: string;
  /** The registry asked (or that would be). */
  registry: string;
  current: string;
  latest: string | undefined;
  outdated: boolean | undefined;
  status: "deprecated" | "deleted" | undefined;
  /** Why it was not checked, escaped for a terminal (`printable`): text from a file or a registry. */
  problem: string | undefined;
}

/** {@link checkForUpdates}' answers as rows, one an entry (`registry`: the one the user chose, for an entry that names none). */
export function outdatedRows(
  checks: readonly UpdateCheck<InstalledEntry & { file: string }>[],
  registry: string,
): OutdatedRow[] {
  return checks.map(({ item, url, latest, outdated, status, problem }) => ({
    name: item.local,
    server: item.record.name,
    file: item.file,
    registry: url ?? item.record.url ?? registry,
    current: item.record.version,
    latest: latest?.server.version,
    outdated,
    status,
    problem: problem === undefined ? undefined : printable(problem),
  }));
}
