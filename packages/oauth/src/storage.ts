import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { OAuthError } from "./errors.js";

/** Tokens from a token endpoint, as kept between runs. */
export interface StoredTokens {
  accessToken: string;
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
    this.#entries.set(keyOf(credentials.issuer, credentials.resource), structuredClone({ ...credentials, savedAt: Date.now() }));
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

function keyOf(issuer: string, resource: string): string {
  return `${issuer}\n${resource}`;
}

function latest(entries: StoredCredentials[]): StoredCredentials | undefined {
  const found = entries.sort((a, b) => (b.savedAt ?? 0) - (a.savedAt ?? 0))[0];
  return found === undefined ? undefined : structuredClone(found);
}

/**
 * One JSON file per issuer + server in `dir` (created with mode 700). Each is written atomically
 * (a temporary file, then a rename) with mode 600. A file that does not parse counts as absent.
 */
export class FileTokenStore implements TokenStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  #path(issuer: string, resource: string): string {
    return join(this.dir, `${createHash("sha256").update(keyOf(issuer, resource)).digest("hex").slice(0, 32)}.json`);
  }

  async get(issuer: string, resource: string): Promise<StoredCredentials | undefined> {
    let text: string;
    try {
      text = await readFile(this.#path(issuer, resource), "utf8");
    } catch {
      return undefined;
    }
    try {
      const value = JSON.parse(text) as StoredCredentials;
      return value.issuer === issuer && value.resource === resource ? value : undefined;
    } catch {
      return undefined;
    }
  }

  async find(resource: string): Promise<StoredCredentials | undefined> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((name) => name.endsWith(".json"));
    } catch {
      return undefined;
    }
    const found: StoredCredentials[] = [];
    for (const name of names) {
      try {
        const value = JSON.parse(await readFile(join(this.dir, name), "utf8")) as StoredCredentials;
        if (value.resource === resource && typeof value.issuer === "string") found.push(value);
      } catch {
        // A file that does not parse counts as absent.
      }
    }
    return latest(found);
  }

  async set(credentials: StoredCredentials): Promise<void> {
    credentials = { ...credentials, savedAt: Date.now() };
    const path = this.#path(credentials.issuer, credentials.resource);
    const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFile(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, path);
    } catch (cause) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw new OAuthError("storage", `Could not save credentials in ${this.dir}: ${(cause as Error).message}`, { cause });
    }
  }

  async delete(issuer: string, resource: string): Promise<void> {
    await rm(this.#path(issuer, resource), { force: true });
  }
}
