// Where the gateway keeps users' upstream tokens and consent flows under way (consent.ts): the
// store's interface, and the default one, in this process's memory.

/** Where the gateway keeps users' upstream tokens and pending consents: values are opaque, encrypted strings. */
export interface ConsentStore {
  get(key: string): Promise<unknown>;
  /** Saves `value`, forgotten `ttlMs` later. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/** The most values of each kind a {@link MemoryConsentStore} keeps: users' tokens, and flows under way (the oldest written goes first). */
const MAX_MEMORY_VALUES = 10_000;

/**
 * A store in this process's memory, with expiry: 10,000 users' tokens at most, and apart from them
 * 10,000 flows under way (links, sign-ins, states) at most, the oldest written of its kind going
 * first; so that one caller starting many flows never pushes another user's tokens out.
 */
export class MemoryConsentStore implements ConsentStore {
  readonly #tokens = new Map<string, { value: string; until: number }>();
  readonly #flows = new Map<string, { value: string; until: number }>();
  #of(key: string): Map<string, { value: string; until: number }> {
    return key.startsWith("consent-token:") ? this.#tokens : this.#flows;
  }
  get(key: string): Promise<unknown> {
    const values = this.#of(key);
    const kept = values.get(key);
    if (kept && kept.until <= Date.now()) values.delete(key);
    return Promise.resolve(kept && kept.until > Date.now() ? kept.value : undefined);
  }
  set(key: string, value: string, ttlMs: number): Promise<void> {
    const values = this.#of(key);
    values.delete(key);
    if (values.size >= MAX_MEMORY_VALUES) values.delete(values.keys().next().value!);
    values.set(key, { value, until: Date.now() + ttlMs });
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.#of(key).delete(key);
    return Promise.resolve();
  }
}
