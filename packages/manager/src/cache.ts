// The tool cache: where tool lists are remembered between runs (files by default, any `ToolCache`), keyed by a server's config and the client's capabilities.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { CacheHints, ClientCapabilities, MCPServerConfig, ProtocolEra, Tool } from "@mcp/client";
import { redactConfig } from "@mcp/jsonrpc";

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
   * would otherwise cost the 2 s probe on every start. If it refuses `initialize` naming
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
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined && typeof (value as Record<string, unknown>)[key] !== "function")
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
  const { timeout: _t, closeGraceMs: _c, killGraceMs: _k, ...rest } = config as MCPServerConfig & { closeGraceMs?: unknown; killGraceMs?: unknown };
  // Clocks (the connect timeout, how long a close waits) do not change what a server offers.
  const hash = createHash("sha256").update(stable(redactConfig(rest as MCPServerConfig)));
  // Appended only when there are some, so a plain client's keys are those it always had.
  if (Object.keys(capabilities).length > 0) hash.update(`\ncapabilities:${stable(capabilities)}`);
  return `${name}:${hash.digest("hex").slice(0, 16)}`;
}

/** The user's cache folder for this stack (`$XDG_CACHE_HOME/mcp-client`, `~/Library/Caches/mcp-client`, `%LOCALAPPDATA%\\mcp-client\\Cache`). */
export function defaultCacheDir(env: Record<string, string | undefined> = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (platform === "darwin") return join(home, "Library", "Caches", "mcp-client");
  if (platform === "win32") return join(env["LOCALAPPDATA"] ?? join(home, "AppData", "Local"), "mcp-client", "Cache");
  return join(env["XDG_CACHE_HOME"] || join(home, ".cache"), "mcp-client");
}

interface CacheFile {
  version: 1;
  entries: Record<string, CachedTools>;
}

/**
 * A {@link ToolCache} in one JSON file. Writes are atomic (a temporary file renamed over the old
 * one); a missing, unreadable or corrupt file reads as empty and is replaced on the next write.
 */
export class FileToolCache implements ToolCache {
  readonly file: string;
  #writing: Promise<void> = Promise.resolve();

  constructor(dir: string = defaultCacheDir()) {
    this.file = join(dir, "tools.json");
  }

  async get(key: string): Promise<CachedTools | undefined> {
    const entry = (await this.#read()).entries[key];
    if (!entry || !Array.isArray(entry.tools) || typeof entry.expiresAt !== "number" || entry.expiresAt <= Date.now()) return undefined;
    return entry;
  }

  set(key: string, value: CachedTools): Promise<void> {
    return this.#update((entries) => {
      entries[key] = value;
    });
  }

  delete(key: string): Promise<void> {
    return this.#update((entries) => {
      delete entries[key];
    });
  }

  async #read(): Promise<CacheFile> {
    try {
      const value = JSON.parse(await readFile(this.file, "utf8")) as Partial<CacheFile>;
      if (value.version === 1 && typeof value.entries === "object" && value.entries !== null) return value as CacheFile;
    } catch {
      // Missing or corrupt: start over.
    }
    return { version: 1, entries: {} };
  }

  /** Read-modify-write, one at a time, dropping expired entries; atomic on disk. */
  #update(change: (entries: Record<string, CachedTools>) => void): Promise<void> {
    const run = this.#writing.then(async () => {
      const current = await this.#read();
      const now = Date.now();
      for (const [key, entry] of Object.entries(current.entries)) if (!(entry.expiresAt > now)) delete current.entries[key];
      change(current.entries);
      await mkdir(dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        await writeFile(temp, JSON.stringify(current), { mode: 0o600 });
        await rename(temp, this.file);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    });
    this.#writing = run.catch(() => undefined);
    return run;
  }
}
