// The manager's memory of each server's tool list: the cache entry read once per server (its tools offered at once,
// less tools unlike their pins; its era spares the probe), and live lists written back, each write tracked until done.
import type { CacheHints, ProtocolEra, Tool } from "@mcp/client";
import { toError } from "@mcp/jsonrpc";
import { cacheEntry, type CachedTools, type ToolCache } from "./cache.js";
import { pinKey, type ToolPins } from "./pins/pins.js";
import { DAY } from "./server.js";
import type { ServerSupervisor } from "./supervisor.js";

/** The tool cache as the manager uses it; without a cache it remembers nothing. */
export class ToolMemory {
  readonly #cache: ToolCache | undefined;
  readonly #ttlMs: number;
  readonly #pins: ToolPins;
  readonly #onError: (server: string, error: Error) => void;
  /** Each server's cache entry, read once: its tools are offered, its era spares the probe. */
  readonly #entries = new WeakMap<ServerSupervisor, Promise<CachedTools | undefined>>();
  /** Cache writes under way; `settled` waits for them, so the next run finds them. */
  readonly #writes = new Set<Promise<unknown>>();

  constructor(
    cache: ToolCache | undefined,
    ttlMs: number | undefined,
    pins: ToolPins,
    onError: (server: string, error: Error) => void,
  ) {
    this.#cache = cache;
    this.#ttlMs = ttlMs ?? 7 * DAY;
    this.#pins = pins;
    this.#onError = onError;
  }

  /** The server's cached tool list, if there is a cache and a fresh-enough entry (an unreadable cache reads as none), less tools unlike their pins. */
  async tools(server: ServerSupervisor): Promise<Tool[] | undefined> {
    const tools = (await this.entry(server))?.tools;
    return tools && this.#pins.filterCached(pinKey(server.name, server.config), tools);
  }

  /** The server's cache entry, read once per server (an unreadable cache reads as none). */
  entry(server: ServerSupervisor): Promise<CachedTools | undefined> {
    let entry = this.#entries.get(server);
    if (!entry) {
      entry = this.#cache ? this.#cache.get(server.cacheKey).catch(() => undefined) : Promise.resolve(undefined);
      this.#entries.set(server, entry);
    }
    return entry;
  }

  /** Writes a live tool list to the cache for `cacheTtlMs` (see `cacheEntry`); a stale list is still offered, deferred, while its server starts (as the spec allows), and the live list decides before a call. */
  remember(server: ServerSupervisor, tools: Tool[], hints: CacheHints | undefined, era: ProtocolEra): void {
    if (!this.#cache) return;
    const write = this.#cache
      .set(server.cacheKey, cacheEntry(tools, hints, era, this.#ttlMs))
      .catch((error: unknown) => this.#onError(server.name, toError(error)))
      .finally(() => this.#writes.delete(write));
    this.#writes.add(write);
  }

  /** Resolves once every write under way has finished. */
  async settled(): Promise<void> {
    await Promise.all([...this.#writes]);
  }
}
