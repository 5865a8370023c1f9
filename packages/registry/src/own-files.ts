// Entries from the registry in our own files: added (with the record an update needs), found, and updated in place to a newer version.
import { join, resolve } from "node:path";
import { editOwnConfig, OWN_FILE, readOwnServers, userConfigDir } from "@mcp/manager";
import { configFromRegistry, type RegistryChoices, type RegistryConfig } from "./config.js";
import { installedEntries, updatedEntry, type InstalledEntry, type RegistryRecord } from "./installed.js";
import type { RegistryEntry } from "./types.js";

/** An entry added from the registry, with the file it is in and that file's scope (yours to name). */
export interface InstalledIn<Scope extends string = string> extends InstalledEntry {
  file: string;
  scope: Scope;
}

/**
 * The entries that came from the registry in our own files (`mcp-client.json`, as written, not
 * expanded), in the order of `files` and of each file. A missing or unreadable file has none.
 *
 * @example
 * const found = await installedIn([{ file: "./mcp-client.json", scope: "project" }]);
 */
export async function installedIn<Scope extends string>(
  files: { file: string; scope: Scope }[],
): Promise<InstalledIn<Scope>[]> {
  const found: InstalledIn<Scope>[] = [];
  for (const { file, scope } of files)
    for (const item of installedEntries(await readOwnServers(file))) found.push({ ...item, file, scope });
  return found;
}

/** What {@link updateInstalled} wrote. */
export interface InstalledUpdate {
  /** The config the new version makes (its variables, and `start` for a package that serves HTTP). */
  made: RegistryConfig;
  /** The entry written: `made.config` with the user's own fields and values kept, and the new record. */
  entry: Record<string, unknown>;
  record: RegistryRecord;
  /** Values for inputs the new version no longer has, dropped from the record. */
  dropped: string[];
}

/**
 * Updates an installed entry in its file to `latest` (the registry's entry for a newer version):
 * the config is made with the record's choices (package, transport, values; values the new version
 * has no input for are dropped), the user's own fields and values are kept ({@link updatedEntry}),
 * and the entry is rewritten in place ({@link editOwnConfig}: comments and formatting kept).
 *
 * @throws RegistryError when the new version cannot be made with the record's choices (nothing written).
 */
export async function updateInstalled(
  item: InstalledEntry & { file: string },
  latest: RegistryEntry,
): Promise<InstalledUpdate> {
  const made = configFromRegistry(latest, {
    package: item.record.package,
    transport: item.record.transport,
    values: item.record.values,
    name: item.local,
    ignoreUnknownValues: true,
  });
  const { entry, record, dropped } = updatedEntry(item.entry, made, item.record);
  await editOwnConfig(item.file, ["servers", item.local], entry);
  return { made, entry, record, dropped };
}

/** Where {@link addFromRegistry} writes, and the registry the entry came from. */
export interface AddFromRegistryOptions extends Omit<RegistryChoices, "ignoreUnknownValues"> {
  /** Our own config file to write the entry in. */
  file: string;
  /** The entry's name in the file. */
  name: string;
  /** The registry asked (kept in the entry's record, so `checkForUpdates` asks it again). */
  registry: string;
}

/**
 * Writes the entry a registry's server makes ({@link configFromRegistry} with `options`' choices)
 * into `file` under `options.name`, with the record an update needs (`registry`: the server's
 * name and version, the registry, the package, the transport and values chosen). Comments and
 * formatting of the file are kept ({@link editOwnConfig}); an entry of that name is replaced.
 *
 * @throws RegistryError when the server cannot be made into an entry with these choices (nothing written).
 */
export async function addFromRegistry(entry: RegistryEntry, options: AddFromRegistryOptions): Promise<RegistryConfig> {
  const { file, registry, ...choices } = options;
  const made = configFromRegistry(entry, choices);
  const record: RegistryRecord = {
    name: entry.server.name,
    version: made.version,
    url: registry,
    package: made.kind,
    ...(options.transport ? { transport: options.transport } : {}),
    ...(options.values ? { values: options.values } : {}),
  };
  await editOwnConfig(file, ["servers", options.name], { ...made.config, registry: record });
  return made;
}

/** Where {@link ownInstalled} looks: the project folder and the user's home (their config folder as `userConfigDir` finds it). */
export interface OwnInstalledOptions {
  cwd: string;
  home: string;
  env?: Record<string, string | undefined> | undefined;
  platform?: NodeJS.Platform | undefined;
  /** These files alone (scope `"file"`), in place of the project's and the user's. */
  files?: readonly string[] | undefined;
}

/** An entry from the registry in one of our own files, marked `project` when its file is the project's. */
export type OwnInstalled = InstalledIn<"project" | "user" | "file"> & { project: boolean };

/**
 * The entries that came from the registry in our own files: the project's `mcp-client.json`, then
 * the user's (or only `files`), each marked `project` when its file came with the project, so that
 * `checkForUpdates` and `updateFromRegistry` ask about it only at the registry the user chose.
 *
 * @example
 * const items = await ownInstalled({ cwd: process.cwd(), home: homedir() });
 */
export async function ownInstalled(options: OwnInstalledOptions): Promise<OwnInstalled[]> {
  const where = { home: options.home, env: options.env ?? process.env, platform: options.platform ?? process.platform };
  const files: { file: string; scope: OwnInstalled["scope"] }[] = options.files?.length
    ? options.files.map((file) => ({ file: resolve(options.cwd, file), scope: "file" }))
    : [
        { file: resolve(options.cwd, OWN_FILE), scope: "project" },
        { file: join(userConfigDir(where), OWN_FILE), scope: "user" },
      ];
  return (await installedIn(files)).map((item) => ({ ...item, project: item.scope === "project" }));
}
