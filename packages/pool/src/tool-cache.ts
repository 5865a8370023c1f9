// Start on first use: a shared server's `initialize` answer and whole tool list, remembered in the
// manager's tool cache from the live server, so a host's `initialize` and `tools/list` need no process.

import type { CachedTools, ToolCache } from "@mcp/manager/config";

/** How long a remembered opening is used (the manager's default `cacheTtlMs`): a day. */
export const OPENING_TTL_MS = 24 * 60 * 60_000;

/** What the pool keeps in a {@link ToolCache} entry besides the tools: the server's `initialize` result. */
export interface CachedOpening extends CachedTools {
  /** The server's own `initialize` result, as a host of that protocol version was answered. */
  openResult: Record<string, unknown>;
  /** Written from a live server's whole `tools/list` by this pool (never from a host's words). */
  confirmedLive: true;
}

/** The cache key of a shared 2025 upstream: its pool key (`<fingerprint>/2025/<protocol version>`), no secret in it. */
export const openingKey = (upstreamKey: string): string => `mcp-pool:${upstreamKey}`;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The remembered opening for `upstreamKey`, when it may answer a host: written from a live list,
 * not expired (`expiresAt`), and not past the freshness the server gave (`freshUntil`).
 */
export async function usableOpening(cache: ToolCache, upstreamKey: string): Promise<CachedOpening | undefined> {
  let entry: CachedTools | undefined;
  try {
    entry = await cache.get(openingKey(upstreamKey));
  } catch {
    return undefined; // an unreadable cache is no cache: the server starts as before
  }
  if (!isRecord(entry) || !Array.isArray(entry.tools)) return undefined;
  const { openResult, confirmedLive } = entry as unknown as Partial<CachedOpening>;
  const now = Date.now();
  if (confirmedLive !== true || !isRecord(openResult) || entry.expiresAt <= now) return undefined;
  if (entry.freshUntil !== undefined && entry.freshUntil <= now) return undefined;
  return entry as unknown as CachedOpening;
}

/** Per cache, the openings being written: at most one write under way per key and the newest entry waiting for it. */
const writing = new WeakMap<ToolCache, Map<string, { next: CachedOpening | undefined }>>();

/**
 * Remembers a live server's opening and whole tool list (errors of the cache are ignored: it is only
 * a cache). One write per key at a time: a list answered while one is written waits, replacing any
 * that waited before it (a host listing tools in a loop queues no write, nor its list, per answer).
 */
export function rememberOpening(
  cache: ToolCache,
  upstreamKey: string,
  openResult: Record<string, unknown>,
  listed: Record<string, unknown>,
): void {
  const now = Date.now();
  const entry: CachedOpening = {
    tools: listed["tools"] as CachedTools["tools"],
    savedAt: now,
    expiresAt: now + OPENING_TTL_MS,
    era: "2025",
    openResult,
    confirmedLive: true,
  };
  const key = openingKey(upstreamKey);
  let slots = writing.get(cache);
  if (slots === undefined) writing.set(cache, (slots = new Map<string, { next: CachedOpening | undefined }>()));
  const under = slots.get(key);
  if (under !== undefined) return void (under.next = entry);
  const slot = { next: entry as CachedOpening | undefined };
  slots.set(key, slot);
  void (async () => {
    for (let next = slot.next; next !== undefined; next = slot.next) {
      slot.next = undefined;
      await cache.set(key, next).catch(() => {});
    }
    slots.delete(key);
  })();
}

/** Forgets a remembered opening (the server said its tools changed). */
export function forgetOpening(cache: ToolCache, upstreamKey: string): void {
  // A list waiting to be written is older than this: it is not written after the delete.
  const under = writing.get(cache)?.get(openingKey(upstreamKey));
  if (under !== undefined) under.next = undefined;
  cache.delete(openingKey(upstreamKey)).catch(() => {});
}
