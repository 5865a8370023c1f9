// Where the gateway keeps users' upstream tokens and consent flows under way (consent.ts): the
// store's interface, the default one (in this process's memory), and how a flow is saved so that
// one caller's flows never push out another's: each caller's flows are a group of at most
// MAX_FLOWS_PER_CALLER (past it, that caller's own oldest goes), and a full store refuses a new
// flow rather than drop someone else's.

/** Where the gateway keeps users' upstream tokens and pending consents: values are opaque, encrypted strings. */
export interface ConsentStore {
  get(key: string): Promise<unknown>;
  /** Saves `value`, forgotten `ttlMs` later. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Saves `value` as `set` does, as a member of `group` (a caller's flows), which holds at most
   * `cap` values: past it the group's oldest members are deleted. Resolves to their keys.
   * Optional (`@mcp/store-redis`'s key-value store has it, across replicas); without it, flows are
   * saved with `set` and bounded only by their expiry.
   */
  setCapped?(key: string, value: string, ttlMs: number, group: string, cap: number): Promise<string[]>;
}

/** The most consent flows under way (links, sign-ins, states) one caller may have: past it, its own oldest goes. */
export const MAX_FLOWS_PER_CALLER = 8;

/** Saves a flow of `caller`'s: in its group when the store caps groups. */
export async function saveFlow(
  store: ConsentStore,
  key: string,
  value: string,
  ttlMs: number,
  caller: string,
): Promise<void> {
  if (store.setCapped) await store.setCapped(key, value, ttlMs, `flows:${caller}`, MAX_FLOWS_PER_CALLER);
  else await store.set(key, value, ttlMs);
}

/** Options of {@link MemoryConsentStore}. */
export interface MemoryConsentStoreOptions {
  /** The most users' tokens kept (the oldest written goes first). Default 10 000. */
  maxTokens?: number | undefined;
  /** The most flows under way (links, sign-ins, states) of all callers; a new one past it is refused. Default 10 000. */
  maxFlows?: number | undefined;
}

interface Kept {
  value: string;
  until: number;
  group?: string | undefined;
}

/**
 * A store in this process's memory, with expiry: users' tokens (10 000 at most, the oldest written
 * going first), and apart from them flows under way, at most {@link MAX_FLOWS_PER_CALLER} per
 * caller (its own oldest going first) and 10 000 in all (a new flow past that is refused, with an
 * error saying to try later: one caller's flows never push out another's, nor anyone's tokens).
 */
export class MemoryConsentStore implements ConsentStore {
  readonly #tokens = new Map<string, Kept>();
  readonly #flows = new Map<string, Kept>();
  readonly #groups = new Map<string, Set<string>>();
  readonly #maxTokens: number;
  readonly #maxFlows: number;

  constructor(options: MemoryConsentStoreOptions = {}) {
    this.#maxTokens = options.maxTokens ?? 10_000;
    this.#maxFlows = options.maxFlows ?? 10_000;
  }

  #of(key: string): Map<string, Kept> {
    return key.startsWith("consent-token:") ? this.#tokens : this.#flows;
  }

  get(key: string): Promise<unknown> {
    const values = this.#of(key);
    const kept = values.get(key);
    if (kept && kept.until <= Date.now()) this.#forget(values, key);
    return Promise.resolve(kept && kept.until > Date.now() ? kept.value : undefined);
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    const values = this.#of(key);
    try {
      this.#forget(values, key);
      if (values === this.#tokens) {
        if (values.size >= this.#maxTokens) values.delete(values.keys().next().value!);
      } else this.#room();
    } catch (error) {
      return Promise.reject(error);
    }
    values.set(key, { value, until: Date.now() + ttlMs });
    return Promise.resolve();
  }

  async setCapped(key: string, value: string, ttlMs: number, group: string, cap: number): Promise<string[]> {
    if (this.#of(key) === this.#tokens) return this.set(key, value, ttlMs).then(() => []);
    this.#forget(this.#flows, key);
    const members = this.#groups.get(group) ?? this.#groups.set(group, new Set()).get(group)!;
    const evicted: string[] = [];
    for (const member of members) {
      if (members.size < Math.max(1, cap)) break;
      this.#forget(this.#flows, member);
      members.delete(member);
      evicted.push(member);
    }
    this.#room();
    this.#flows.set(key, { value, until: Date.now() + ttlMs, group });
    members.add(key);
    return evicted;
  }

  delete(key: string): Promise<void> {
    this.#forget(this.#of(key), key);
    return Promise.resolve();
  }

  /** Throws when the flows are full once the expired ones are gone: a new flow never pushes out another. */
  #room(): void {
    if (this.#flows.size < this.#maxFlows) return;
    const now = Date.now();
    for (const [key, kept] of this.#flows) if (kept.until <= now) this.#forget(this.#flows, key);
    if (this.#flows.size >= this.#maxFlows)
      throw new Error(
        `the gateway has ${this.#maxFlows} authorizations under way, its most: try again in a few minutes`,
      );
  }

  #forget(values: Map<string, Kept>, key: string): void {
    const kept = values.get(key);
    if (!kept) return;
    values.delete(key);
    if (kept.group === undefined) return;
    const members = this.#groups.get(kept.group);
    members?.delete(key);
    if (members?.size === 0) this.#groups.delete(kept.group);
  }
}
