// `mcp hosts pool | unpool`: rewriting a host's config files so each stdio entry runs through the
// `mcp daemon stdio` shim, with a byte-for-byte backup to undo it.
import { createHash } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { userConfigDir, type Locations } from "./families.js";
import { hostFiles, load, parse, PoolError, spotsOf, type HostFile } from "./pool-host.js";
import { applyTextEdits, parseShimArgs, SHIM_COMMAND, type EntrySpot, type PoolFamily } from "./pool-text.js";
import type { ConfigScope } from "./types.js";

export { hostFiles, PoolError, POOL_FAMILIES, type HostFile } from "./pool-host.js";

/** Where `pool` keeps what it needs to undo itself (`~/.config/mcp-client/pooled/`). */
export function poolBackupDir(l: Pick<Locations, "home" | "platform" | "env">): string {
  return join(userConfigDir(l), "pooled");
}

interface BackupRecord {
  file: string;
  family: PoolFamily;
  /** SHA-256 of the file before and after `pool`. */
  original: string;
  pooled: string;
  /** The entries ({@link EntrySpot.key}) that had no `args` before pool. */
  argsAdded?: string[];
}

const sha = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("hex");

function backupPaths(dir: string, file: string): { record: string; bytes: string } {
  const id = `${sha(file).slice(0, 16)}-${basename(file).replace(/[^A-Za-z0-9._-]/g, "_")}`;
  return { record: join(dir, `${id}.json`), bytes: join(dir, `${id}.orig`) };
}

async function readRecord(path: string): Promise<BackupRecord | undefined> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as BackupRecord;
  } catch {
    return undefined;
  }
}

/**
 * Writes a file whole (a temporary file renamed over it), keeping its mode. With `was`: only if the
 * file still holds those bytes (a host that rewrites its file meanwhile — Claude Code does — is not
 * overwritten; the window left is the rename itself).
 */
async function replaceFile(file: string, bytes: Uint8Array | string, mode?: number, was?: Buffer): Promise<void> {
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, bytes, { mode: mode ?? 0o600 });
  try {
    if (mode !== undefined) await chmod(temp, mode);
    if (was && !(await readFile(file)).equals(was))
      throw new PoolError(
        "changed",
        file,
        "was changed by another program while it was being rewritten; nothing was changed: try again",
      );
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
}

/** What one file's pool or unpool did. */
export interface PoolOutcome {
  file: string;
  family: PoolFamily;
  scope: ConfigScope;
  /** `pooled`/`restored`/`unwrapped`: the file was rewritten; `unchanged`: nothing to do. */
  action: "pooled" | "restored" | "unwrapped" | "unchanged";
  /** The entries rewritten (or found already pooled, for `unchanged`). */
  entries: string[];
  /** Entries left alone and why (an unusual layout). */
  skipped: { name: string; reason: string }[];
  /** The backup `unpool` restores from. */
  backup?: string | undefined;
}

/** Options of {@link poolFile} and {@link unpoolFile}. */
export interface PoolOptions {
  /** Where backups live (default {@link poolBackupDir}). */
  backupDir: string;
  /** The program a pooled entry runs (default `mcp`, found on the host's PATH). */
  shim?: string | undefined;
  /** `unpool` only: when the file changed since `pool` wrote it (or there is no backup), unwrap each pooled entry in place, keeping the other edits. */
  keepEdits?: boolean | undefined;
  /** The home folder (to tell `~/.claude.json` apart). */
  home: string;
}

/** A parsed document with every shim entry back to its program (to check that a rewrite changed nothing else). */
function unshimmed(value: unknown): unknown {
  if (Array.isArray(value)) {
    const shim = value.every((v) => typeof v === "string") ? parseShimArgs(value.slice(1)) : undefined;
    return shim ? [shim.command, ...shim.args] : value.map(unshimmed);
  }
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = unshimmed(item);
  const holder = out as { command?: unknown; path?: unknown; args?: unknown };
  const shim = Array.isArray(holder.args) ? parseShimArgs(holder.args as string[]) : undefined;
  const program = typeof holder.path === "string" ? "path" : "command";
  if (shim) {
    out[program] = shim.command;
    out["args"] = shim.args;
  }
  if (Array.isArray(out["args"]) && out["args"].length === 0) delete out["args"];
  return out;
}

/** Codex stdio entries the text scanner does not see (an inline table, dotted keys): named, left alone. */
function unseen(host: HostFile, document: unknown, spots: EntrySpot[]): { name: string; reason: string }[] {
  if (host.format !== "toml") return [];
  const servers =
    (document as { mcp_servers?: Record<string, { command?: unknown; url?: unknown }> }).mcp_servers ?? {};
  return Object.entries(servers)
    .filter(
      ([name, entry]) =>
        typeof entry === "object" &&
        typeof entry.command === "string" &&
        entry.url === undefined &&
        !spots.some((s) => s.name === name),
    )
    .map(([name]) => ({
      name,
      reason:
        'pool rewrites only entries written as a [mcp_servers.<name>] table with command = "…" on its own line; edit this one by hand',
    }));
}

/** Rewrites `text` with `edits` and checks the result: it parses, and only the entries' programs changed. */
function rewrite(
  host: HostFile,
  text: string,
  spots: EntrySpot[],
  edit: (spot: EntrySpot) => ReturnType<EntrySpot["wrap"]>,
  home: string,
): string {
  const next = applyTextEdits(text, spots.flatMap(edit));
  const after = spotsOf(host, next, home);
  const before = spotsOf(host, text, home);
  const strip = (s: EntrySpot): unknown => {
    const shim = parseShimArgs(s.args);
    return shim ? [s.name, shim.command, shim.args] : [s.name, s.command, s.args];
  };
  let ok: boolean;
  try {
    ok =
      isDeepStrictEqual(after.map(strip), before.map(strip)) &&
      isDeepStrictEqual(unshimmed(parse(host, next)), unshimmed(parse(host, text)));
  } catch {
    ok = false;
  }
  if (!ok)
    throw new PoolError(
      "layout",
      host.file,
      "the rewrite could not be checked (an entry written in a way pool does not know); nothing was changed",
    );
  return next;
}

/** Runs each stdio entry of one file through the shim, after keeping a byte-for-byte backup. */
export async function poolFile(host: HostFile, options: PoolOptions): Promise<PoolOutcome> {
  const { real, bytes, text, mode } = await load(host);
  const document = parse(host, text);
  const spots = spotsOf(host, text, options.home);
  const todo = spots.filter((s) => !s.pooled && !s.problem);
  const skipped = [
    ...spots.filter((s) => s.problem).map((s) => ({ name: s.name, reason: s.problem! })),
    ...unseen(host, document, spots),
  ];
  const paths = backupPaths(options.backupDir, real);
  const base = { file: host.file, family: host.family, scope: host.scope, skipped, backup: paths.bytes };
  if (todo.length === 0)
    return { ...base, action: "unchanged", entries: spots.filter((s) => s.pooled).map((s) => s.name) };
  const record = await readRecord(paths.record);
  if (record && record.original !== sha(bytes) && spots.some((s) => s.pooled))
    throw new PoolError(
      "changed",
      host.file,
      `changed since \`mcp hosts pool\` wrote it and has new stdio entries (${todo.map((s) => s.name).join(", ")}); run \`mcp hosts unpool ${host.family} --keep-edits\` first, then pool again`,
    );
  const from = `${host.family}:${host.scope}`;
  const next = rewrite(host, text, todo, (s) => s.wrap(options.shim ?? SHIM_COMMAND, from), options.home);
  await mkdir(options.backupDir, { recursive: true, mode: 0o700 });
  await replaceFile(paths.bytes, bytes);
  await replaceFile(
    paths.record,
    JSON.stringify(
      {
        file: real,
        family: host.family,
        original: sha(bytes),
        pooled: sha(next),
        argsAdded: todo.filter((s) => s.argsAdded).map((s) => s.key),
      } satisfies BackupRecord,
      null,
      2,
    ),
  );
  await replaceFile(real, next, mode, bytes);
  return { ...base, action: "pooled", entries: todo.map((s) => s.name) };
}

/** Undoes {@link poolFile}: the backup byte for byte when the file is as `pool` left it. */
export async function unpoolFile(host: HostFile, options: PoolOptions): Promise<PoolOutcome> {
  const { real, bytes, text, mode } = await load(host);
  const paths = backupPaths(options.backupDir, real);
  const record = await readRecord(paths.record);
  const spots = spotsOf(host, text, options.home).filter((s) => s.pooled);
  const base = { file: host.file, family: host.family, scope: host.scope, skipped: [] };
  const forget = async (): Promise<void> => {
    await rm(paths.record, { force: true });
    await rm(paths.bytes, { force: true });
  };
  let lost = false;
  if (record && sha(bytes) === record.pooled) {
    const original = await readFile(paths.bytes).catch(() => undefined);
    if (original && sha(original) === record.original) {
      await replaceFile(real, original, mode, bytes);
      await forget();
      return { ...base, action: "restored", entries: spots.map((s) => s.name), backup: paths.bytes };
    }
    lost = true;
  }
  if (record && sha(bytes) === record.original) {
    await forget();
    return { ...base, action: "unchanged", entries: [] };
  }
  if (spots.length === 0) return { ...base, action: "unchanged", entries: [] };
  if (!options.keepEdits) {
    const changed = record !== undefined && !lost;
    const what = changed
      ? "changed since `mcp hosts pool` wrote it, so its backup would undo your edits"
      : lost
        ? `has pooled entries but its backup ${paths.bytes} is missing or not the original`
        : "has pooled entries but no backup of it was kept";
    throw new PoolError(
      changed ? "changed" : "no-backup",
      host.file,
      `${what}; run \`mcp hosts unpool ${host.family} --keep-edits\` to unwrap each pooled entry in place (keeping everything else as it is now)${changed ? `, or compare with the backup ${paths.bytes}` : ""}`,
    );
  }
  parse(host, text);
  const next = rewrite(host, text, spots, (s) => s.unwrap(record?.argsAdded?.includes(s.key)), options.home);
  await replaceFile(real, next, mode, bytes);
  await forget();
  return { ...base, action: "unwrapped", entries: spots.map((s) => s.name) };
}

/** One file's state for `mcp hosts`. */
export interface HostFileStatus extends HostFile {
  /** The stdio entries and the pooled ones among them. */
  stdio: string[];
  pooled: string[];
  /** Whether a backup to restore byte for byte is kept. */
  backup: boolean;
  /** A file that cannot be read. */
  problem?: string | undefined;
}

/** Every host file found here, its stdio entries and which of them are pooled. */
export async function hostStatus(l: Locations, backupDir: string, family?: PoolFamily): Promise<HostFileStatus[]> {
  const out: HostFileStatus[] = [];
  for (const host of await hostFiles(l, family)) {
    try {
      const { real, text } = await load(host);
      parse(host, text);
      const spots = spotsOf(host, text, l.home);
      const backup = await stat(backupPaths(backupDir, real).record).then(
        () => true,
        () => false,
      );
      out.push({
        ...host,
        stdio: spots.map((s) => s.name),
        pooled: spots.filter((s) => s.pooled).map((s) => s.name),
        backup,
      });
    } catch (error) {
      out.push({ ...host, stdio: [], pooled: [], backup: false, problem: (error as Error).message });
    }
  }
  return out;
}

/**
 * A host file's state in words, as `mcp hosts` shows it: whether its stdio servers run through the
 * pool (`pooled`, `2 of 3 pooled`, `not pooled`), `no stdio servers`, or `unreadable`.
 */
export function poolState(status: HostFileStatus): string {
  if (status.problem) return "unreadable";
  if (status.stdio.length === 0) return "no stdio servers";
  if (status.pooled.length === status.stdio.length) return "pooled";
  return status.pooled.length > 0 ? `${status.pooled.length} of ${status.stdio.length} pooled` : "not pooled";
}

/** What {@link poolHost} did: each file's outcome, and each file that stopped (its {@link PoolError}'s message). */
export interface HostPoolResult {
  files: PoolOutcome[];
  errors: { file: string; message: string }[];
}

/**
 * Pools every file of a host family here (its user and project files, or one `scope`'s), or with
 * `undo` unpools them: each file on its own, one that stops (a {@link PoolError}) listed in `errors`
 * while the others go on. Both lists are empty when the family has no file here.
 */
export async function poolHost(
  l: Locations,
  family: PoolFamily,
  options: PoolOptions & { scope?: ConfigScope | undefined; undo?: boolean | undefined },
): Promise<HostPoolResult> {
  const result: HostPoolResult = { files: [], errors: [] };
  for (const file of await hostFiles(l, family)) {
    if (options.scope !== undefined && file.scope !== options.scope) continue;
    try {
      result.files.push(await (options.undo ? unpoolFile(file, options) : poolFile(file, options)));
    } catch (error) {
      if (!(error instanceof PoolError)) throw error;
      result.errors.push({ file: error.file, message: error.message });
    }
  }
  return result;
}
