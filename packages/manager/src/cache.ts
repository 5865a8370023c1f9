// The tool cache: where tool lists are remembered between runs (by default one file per entry, bounded in bytes and entries; or any `ToolCache`), keyed by a server's config and the client's capabilities.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { CacheHints, ClientCapabilities, MCPServerConfig, ProtocolEra, Tool } from "@mcp/client";
import { redactConfig } from "@mcp/jsonrpc/internal";

/** One server's tool list as remembered. */
export interface CachedTools {
  tools: Tool[];
  /** ms since the epoch. */
  savedAt: number;
  /** ms since the epoch; past it the entry is not used (the manager's `cacheTtlMs`). */
  expiresAt: number;
  /**
   * ms since the epoch until which the server said the list is fresh (2026-07-28 `ttlMs`; absent
   * when it said nothing). Past it the list is stale: still a fair guess at what the server offers,
   * and the manager checks it against the live list before any call.
   */
  freshUntil?: number | undefined;
  /**
   * The server's 2026-07-28 `cacheScope`: `"private"` means the list was for this authorization
   * context only. The file cache is per user; a cache shared between users must not hand a private
   * entry to another.
   */
  cacheScope?: "public" | "private" | undefined;
  /**
   * The protocol era the server spoke (`"2025"` or `"2026-07-28"`). A stdio server remembered as a
   * 2025-era one is opened with `initialize` at once: a server that ignores `server/discover`
   * would otherwise cost the probe's bound on every start. If it refuses `initialize` naming
   * 2026-07-28, the client asks it properly at once.
   */
  era?: ProtocolEra | undefined;
}

/**
 * A live tool list as the cache keeps it, for `ttlMs`: a 2026-07-28 server's `ttlMs` says how
 * long the list is fresh (`freshUntil`; `0`: stale at once) and its `cacheScope` who may reuse it.
 */
export function cacheEntry(tools: Tool[], hints: CacheHints | undefined, era: ProtocolEra, ttlMs: number): CachedTools {
  const now = Date.now();
  const entry: CachedTools = { tools, savedAt: now, expiresAt: now + ttlMs, era };
  if (hints?.ttlMs !== undefined) entry.freshUntil = now + hints.ttlMs;
  if (hints?.cacheScope !== undefined) entry.cacheScope = hints.cacheScope;
  return entry;
}

/**
 * Where tool lists are remembered between runs, so a slow server's tools are offered at once.
 * Implement it over a shared store to give a fleet one cache.
 */
export interface ToolCache {
  get(key: string): Promise<CachedTools | undefined>;
  set(key: string, value: CachedTools): Promise<void>;
  delete(key: string): Promise<void>;
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .filter(
        (key) =>
          (value as Record<string, unknown>)[key] !== undefined &&
          typeof (value as Record<string, unknown>)[key] !== "function",
      )
      .map((key) => `${JSON.stringify(key)}:${stable((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * The cache key of a server: its name and a hash of what its tool list depends on — its config
 * (less its clocks: `timeout`, `closeGraceMs`, `killGraceMs`), with secrets (env values, credential headers, URL passwords) taken out first so no secret is
 * written, not even hashed, and the capabilities the client advertises (a server may offer
 * `trigger-sampling-request` only to a client that can sample). Pass the capabilities your
 * connections advertise (`capabilitiesFor` of `@mcp/client`); without them the key is that of a
 * client that advertises none.
 */
export function toolCacheKey(name: string, config: MCPServerConfig, capabilities: ClientCapabilities = {}): string {
  const {
    timeout: _t,
    closeGraceMs: _c,
    killGraceMs: _k,
    ...rest
  } = config as MCPServerConfig & { closeGraceMs?: unknown; killGraceMs?: unknown };
  // Clocks (the connect timeout, how long a close waits) do not change what a server offers.
  const hash = createHash("sha256").update(stable(redactConfig(rest as MCPServerConfig)));
  // Appended only when there are some, so a plain client's keys are those it always had.
  if (Object.keys(capabilities).length > 0) hash.update(`\ncapabilities:${stable(capabilities)}`);
  return `${name}:${hash.digest("hex").slice(0, 16)}`;
}

/** The user's cache folder for this stack (`$XDG_CACHE_HOME/mcp-client`, `~/Library/Caches/mcp-client`, `%LOCALAPPDATA%\\mcp-client\\Cache`). */
export function defaultCacheDir(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  if (platform === "darwin") return join(home, "Library", "Caches", "mcp-client");
  if (platform === "win32") return join(env["LOCALAPPDATA"] ?? join(home, "AppData", "Local"), "mcp-client", "Cache");
  return join(env["XDG_CACHE_HOME"] || join(home, ".cache"), "mcp-client");
}

/** Bounds of a {@link FileToolCache}. */
export interface FileToolCacheOptions {
  /** The most bytes its entries may take together; past it the least recently written go first (default 1 MiB). */
  maxBytes?: number | undefined;
  /** The most entries it keeps (default 200). */
  maxEntries?: number | undefined;
}

interface EntryFile {
  version: 2;
  key: string;
  entry: CachedTools;
}

/**
 * A {@link ToolCache} in a folder, one small JSON file per entry (`<dir>/tools/<hash of the key>.json`),
 * so a server's start reads its own entry and no other, and a write rewrites only that one. Writes
 * are atomic (a temporary file renamed over the old one). A missing, unreadable or corrupt entry
 * reads as none and is replaced by the next write. After each write the folder is kept within
 * `maxBytes` and `maxEntries`: expired entries go first, then the least recently written.
 */
export class FileToolCache implements ToolCache {
  /** The folder of the entries. */
  readonly folder: string;
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  readonly #legacy: string;
  #writing: Promise<void> = Promise.resolve();

  constructor(dir: string = defaultCacheDir(), options: FileToolCacheOptions = {}) {
    this.folder = join(dir, "tools");
    this.#legacy = join(dir, "tools.json");
    this.#maxBytes = options.maxBytes ?? 1024 * 1024;
    this.#maxEntries = options.maxEntries ?? 200;
  }

  /** The file that holds `key`'s entry. */
  fileFor(key: string): string {
    return join(this.folder, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`);
  }

  async get(key: string): Promise<CachedTools | undefined> {
    let stored: Partial<EntryFile>;
    try {
      stored = JSON.parse(await readFile(this.fileFor(key), "utf8")) as Partial<EntryFile>;
    } catch {
      return undefined; // missing or corrupt: none
    }
    const entry = stored.entry;
    if (stored.version !== 2 || stored.key !== key || typeof entry !== "object" || entry === null) return undefined;
    if (!Array.isArray(entry.tools) || typeof entry.expiresAt !== "number" || entry.expiresAt <= Date.now())
      return undefined;
    return entry;
  }

  set(key: string, value: CachedTools): Promise<void> {
    return this.#queue(async () => {
      await mkdir(this.folder, { recursive: true, mode: 0o700 });
      const file = this.fileFor(key);
      const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        await writeFile(temp, JSON.stringify({ version: 2, key, entry: value } satisfies EntryFile), { mode: 0o600 });
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      await this.#bound(file);
    });
  }

  delete(key: string): Promise<void> {
    return this.#queue(() => rm(this.fileFor(key), { force: true }));
  }

  /** One write at a time in this process (another process's writes touch other files, or the same one atomically). */
  #queue(task: () => Promise<void>): Promise<void> {
    const run = this.#writing.then(task);
    this.#writing = run.catch(() => undefined);
    return run;
  }

  /** Drops expired entries, then the least recently written, until the folder is within its bounds; `kept` (just written) stays. */
  async #bound(kept: string): Promise<void> {
    await rm(this.#legacy, { force: true }); // the one-file cache of earlier versions: never read, so not kept
    const entries: { file: string; size: number; mtimeMs: number }[] = [];
    for (const name of await readdir(this.folder)) {
      if (!name.endsWith(".json")) continue;
      const file = join(this.folder, name);
      const info = await stat(file).catch(() => undefined);
      if (info) entries.push({ file, size: info.size, mtimeMs: info.mtimeMs });
    }
    const over = (): boolean =>
      entries.length > this.#maxEntries || entries.reduce((sum, e) => sum + e.size, 0) > this.#maxBytes;
    if (!over()) return; // the usual case: a stat per entry, no entry read
    // Oldest first: expired ones go, then the least recently written, until within bounds.
    entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
    const now = Date.now();
    for (const entry of [...entries]) {
      if (entry.file !== kept && (await this.#expired(entry.file, now))) await this.#drop(entries, entry);
    }
    for (const entry of [...entries]) {
      if (!over()) break;
      if (entry.file !== kept) await this.#drop(entries, entry);
    }
  }

  async #drop(entries: { file: string }[], entry: { file: string }): Promise<void> {
    await rm(entry.file, { force: true });
    entries.splice(entries.indexOf(entry), 1);
  }

  /** Whether an entry's file is past its `expiresAt` (or cannot be read: nothing to keep). */
  async #expired(file: string, now: number): Promise<boolean> {
    try {
      const expiresAt = (JSON.parse(await readFile(file, "utf8")) as Partial<EntryFile>).entry?.expiresAt;
      return !(typeof expiresAt === "number" && expiresAt > now);
    } catch {
      return true;
    }
  }
}
