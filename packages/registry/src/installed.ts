// Entries added from the registry: the record each keeps, finding them in a config file, which
// registry to ask about them, and the entry a newer version makes with the user's own settings kept.
import type { RegistryConfig, RegistryPackageKind } from "./config.js";
import type { RegistryValue } from "./inputs.js";
import { normalizeRegistryUrl } from "./location.js";
import { compareVersions } from "./versions.js";

/** What an entry added from the registry remembers (its `registry` field), so that it can be checked and updated. */
export interface RegistryRecord {
  /** The server's name in the registry (`io.github.user/weather`). */
  name: string;
  version: string;
  /** The registry it came from. */
  url?: string | undefined;
  package?: RegistryPackageKind | undefined;
  transport?: "http" | "sse" | undefined;
  /** The values given for its inputs (never a secret). */
  values?: Record<string, RegistryValue> | undefined;
}

const KINDS = ["npm", "pypi", "oci", "nuget", "remote"];

/** The record as written, when it has the shape {@link RegistryRecord}; anything else is not one (not ours to update). */
export function registryRecordOf(value: unknown): RegistryRecord | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  if (typeof r["name"] !== "string" || typeof r["version"] !== "string") return undefined;
  if (r["url"] !== undefined && typeof r["url"] !== "string") return undefined;
  if (r["package"] !== undefined && !KINDS.includes(r["package"] as string)) return undefined;
  if (r["transport"] !== undefined && r["transport"] !== "http" && r["transport"] !== "sse") return undefined;
  const values = r["values"];
  if (
    values !== undefined &&
    (typeof values !== "object" ||
      values === null ||
      !Object.values(values).every(
        (v) => typeof v === "string" || (Array.isArray(v) && v.every((s) => typeof s === "string")),
      ))
  )
    return undefined;
  return r as unknown as RegistryRecord;
}

/** One entry of a config file that came from the registry. */
export interface InstalledEntry {
  /** The entry's name in the file. */
  local: string;
  /** The entry as written. */
  entry: Record<string, unknown>;
  record: RegistryRecord;
}

/** The entries of a config file's `servers` object (as parsed, not expanded) that carry a registry record. */
export function installedEntries(servers: unknown): InstalledEntry[] {
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) return [];
  const found: InstalledEntry[] = [];
  for (const [local, entry] of Object.entries(servers as Record<string, unknown>)) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) continue;
    const record = registryRecordOf((entry as Record<string, unknown>)["registry"]);
    if (record) found.push({ local, entry: entry as Record<string, unknown>, record });
  }
  return found;
}

/**
 * The registry to ask about an entry. A project's file came with the repository: its entries are
 * asked about only at the registry the user chose (`userRegistry`: `--registry`, `MCP_REGISTRY_URL`,
 * the user's file, or the official one), never at one the file names. The user's own entries name
 * their own. `refused` says why not, and how to ask that registry anyway.
 */
export function registryToAsk(
  item: { local: string; record: RegistryRecord; project: boolean },
  userRegistry: string,
): { url: string } | { refused: string } {
  let url: string;
  try {
    url =
      item.record.url === undefined
        ? userRegistry
        : normalizeRegistryUrl(item.record.url, `the "registry" record of "${item.local}"`);
  } catch (error) {
    return { refused: (error as Error).message };
  }
  if (item.project && url !== userRegistry)
    return {
      refused: `it names the registry ${url}, not the one you use (${userRegistry}); to ask that one: --registry ${url}`,
    };
  return { url };
}

/** Whether `latest` is newer than `current` by semantic-versioning order; for versions that do not sort, whether they differ. */
export function isNewerVersion(latest: string, current: string): boolean {
  const order = compareVersions(latest, current);
  return order === undefined ? latest !== current : order > 0;
}

/** `name` or `name@version` as `mcp registry add` takes it (a registry name has one slash and no `@`); `latest` when no version. */
export function parseRegistrySpec(spec: string): { name: string; version: string } {
  const at = spec.lastIndexOf("@");
  return at > spec.indexOf("/") && at > 0
    ? { name: spec.slice(0, at), version: spec.slice(at + 1) || "latest" }
    : { name: spec, version: "latest" };
}

/** An entry's name from the server's: its last part, in the characters a tool name keeps (`io.github.user/Weather-MCP` → `weather-mcp`). */
export function localNameFor(server: string): string {
  return (
    (server.split("/").pop() ?? server)
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "server"
  );
}

/** The fields {@link configFromRegistry} writes; every other field of an entry (timeout, tool filters, …) is the user's. */
const GENERATED = ["command", "args", "env", "type", "url", "headers", "registry"];

/**
 * The entry a newer version makes (`made`, from `configFromRegistry` with the record's choices and
 * `ignoreUnknownValues`), keeping the user's own fields and the values they gave environment
 * variables and headers the new version still declares. The record moves to the new version; values
 * for inputs the new version no longer has are dropped from it (`dropped` names them).
 */
export function updatedEntry(
  old: Record<string, unknown>,
  made: RegistryConfig,
  record: RegistryRecord,
): { entry: Record<string, unknown>; record: RegistryRecord; dropped: string[] } {
  const dropped = made.unused ?? [];
  const values = Object.fromEntries(Object.entries(record.values ?? {}).filter(([key]) => !dropped.includes(key)));
  const { values: _given, ...rest } = record;
  const kept: RegistryRecord = {
    ...rest,
    ...(Object.keys(values).length > 0 ? { values } : {}),
    version: made.version,
    package: made.kind,
  };
  const keep = (was: unknown, now: Record<string, string> | undefined): Record<string, string> | undefined => {
    if (!now) return undefined;
    const before = typeof was === "object" && was !== null ? (was as Record<string, unknown>) : {};
    return Object.fromEntries(
      Object.entries(now).map(([name, value]) => [name, typeof before[name] === "string" ? before[name] : value]),
    );
  };
  const config = { ...(made.config as unknown as Record<string, unknown>) };
  const env = keep(old["env"], config["env"] as Record<string, string> | undefined);
  const headers = keep(old["headers"], config["headers"] as Record<string, string> | undefined);
  if (env) config["env"] = env;
  if (headers) config["headers"] = headers;
  const mine = Object.fromEntries(Object.entries(old).filter(([key]) => !GENERATED.includes(key)));
  return { entry: { ...config, ...mine, registry: kept }, record: kept, dropped };
}
