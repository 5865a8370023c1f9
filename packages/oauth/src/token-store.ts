import type { EcJwk } from "./dpop.js";

// What credentials are and where they live: the TokenStore interface and the in-memory store
// (any runtime). FileTokenStore (Node) is in storage.ts.

/** Tokens from a token endpoint, as kept between runs. */
export interface StoredTokens {
  accessToken: string;
  /** `Bearer`, or `DPoP` for a token bound to the credentials' `dpopKey`. */
  tokenType: string;
  refreshToken?: string | undefined;
  /** When the access token expires (ms since the epoch), if the server said. */
  expiresAt?: number | undefined;
  /** The scopes granted (or asked for, when the server did not say). */
  scope?: string | undefined;
}

/** A client registered (or pre-registered) with one authorization server. */
export interface StoredClient {
  clientId: string;
  clientSecret?: string | undefined;
  /** `client_secret_basic`, `client_secret_post`, `none` or `private_key_jwt`. */
  tokenEndpointAuthMethod: string;
  /** The redirect URI it was registered with. */
  redirectUri?: string | undefined;
}

/** What is kept per authorization server and MCP server. */
export interface StoredCredentials {
  issuer: string;
  resource: string;
  /** When these were saved (ms since the epoch). */
  savedAt?: number | undefined;
  client?: StoredClient | undefined;
  tokens?: StoredTokens | undefined;
  /**
   * The DPoP private key (a P-256 JWK) that `tokens` are bound to when their `tokenType` is
   * `DPoP`: without it they cannot be used. Keep the store private (FileTokenStore writes mode 600).
   */
  dpopKey?: EcJwk | undefined;
}

/**
 * Where credentials live. Keys are `issuer` + `resource`, so a server that moves to another
 * authorization server never gets the old one's credentials.
 */
export interface TokenStore {
  get(issuer: string, resource: string): Promise<StoredCredentials | undefined>;
  /** The credentials saved last for `resource`, whatever their issuer (used before discovery has run). */
  find(resource: string): Promise<StoredCredentials | undefined>;
  set(credentials: StoredCredentials): Promise<void>;
  delete(issuer: string, resource: string): Promise<void>;
  /**
   * Runs `fn` while holding a lock on these credentials that other processes sharing the store
   * respect (optional: a store used by one process needs none). The provider refreshes a token
   * under it, so two processes never spend the same refresh token.
   */
  lock?<T>(issuer: string, resource: string, fn: () => Promise<T>): Promise<T>;
  /**
   * A value that changes whenever these credentials are written, by any process (optional). The
   * provider compares it before each request and reads the credentials again when it changed, so
   * a token another process got is used at once.
   */
  stamp?(issuer: string, resource: string): Promise<number | undefined>;
}

/** Credentials in memory only, for the life of the process (the default). */
export class MemoryTokenStore implements TokenStore {
  readonly #entries = new Map<string, StoredCredentials>();

  get(issuer: string, resource: string): Promise<StoredCredentials | undefined> {
    const entry = this.#entries.get(keyOf(issuer, resource));
    return Promise.resolve(entry === undefined ? undefined : structuredClone(entry));
  }

  find(resource: string): Promise<StoredCredentials | undefined> {
    return Promise.resolve(latest([...this.#entries.values()].filter((c) => c.resource === resource)));
  }

  set(credentials: StoredCredentials): Promise<void> {
    this.#entries.set(
      keyOf(credentials.issuer, credentials.resource),
      structuredClone({ ...credentials, savedAt: Date.now() }),
    );
    return Promise.resolve();
  }

  delete(issuer: string, resource: string): Promise<void> {
    this.#entries.delete(keyOf(issuer, resource));
    return Promise.resolve();
  }

  /** Never prints what it holds. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `MemoryTokenStore { ${this.#entries.size} entries }`;
  }
}

export function keyOf(issuer: string, resource: string): string {
  return `${issuer}\n${resource}`;
}

export function latest(entries: StoredCredentials[]): StoredCredentials | undefined {
  const found = entries.sort((a, b) => (b.savedAt ?? 0) - (a.savedAt ?? 0))[0];
  return found === undefined ? undefined : structuredClone(found);
}
