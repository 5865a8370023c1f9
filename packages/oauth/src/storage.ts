// `FileTokenStore` (Node): one file per server, written with cross-process locks.
import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { OAuthError } from "./errors.js";
import { keyOf, latest, type StoredCredentials, type TokenStore } from "./token-store.js";

/** Options of {@link FileTokenStore}. */
export interface FileTokenStoreOptions {
  /** A lock older than this is taken to be left by a process that died, and is broken. Default 30 s. */
  staleLockMs?: number | undefined;
  /** How long to wait for another process's lock before failing. Default 60 s. */
  lockTimeoutMs?: number | undefined;
}

/**
 * One JSON file per issuer + server in `dir` (created with mode 700). Each is written atomically
 * (a temporary file, then a rename) with mode 600. A file that does not parse counts as absent.
 * Processes sharing the folder share tokens: a refresh runs under a lock file (`<file>.lock`,
 * created exclusively; one whose process is gone, or older than `staleLockMs`, is broken), and
 * each process reads a file again once its modification time changed.
 */
export class FileTokenStore implements TokenStore {
  readonly dir: string;
  readonly #staleLockMs: number;
  readonly #lockTimeoutMs: number;

  constructor(dir: string, options: FileTokenStoreOptions = {}) {
    this.dir = dir;
    this.#staleLockMs = options.staleLockMs ?? 30_000;
    this.#lockTimeoutMs = options.lockTimeoutMs ?? 60_000;
  }

  async stamp(issuer: string, resource: string): Promise<number | undefined> {
    try {
      return (await stat(this.#path(issuer, resource))).mtimeMs;
    } catch {
      return undefined;
    }
  }

  async lock<T>(issuer: string, resource: string, fn: () => Promise<T>): Promise<T> {
    const path = `${this.#path(issuer, resource)}.lock`;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const deadline = Date.now() + this.#lockTimeoutMs;
    for (;;) {
      try {
        const handle = await open(path, "wx", 0o600);
        await handle.writeFile(`${process.pid}\n`);
        await handle.close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST")
          throw new OAuthError("storage", `Could not lock credentials in ${this.dir}: ${(error as Error).message}`, {
            cause: error,
          });
      }
      if (await this.#isStale(path)) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new OAuthError(
          "storage",
          `Another process has held the lock ${path} for over ${this.#lockTimeoutMs}ms; remove it if no other MCP client is running`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
    }
    try {
      return await fn();
    } finally {
      await rm(path, { force: true });
    }
  }

  /** True for a lock whose process is gone (on this machine) or that is older than `staleLockMs`. */
  async #isStale(path: string): Promise<boolean> {
    try {
      const [info, text] = await Promise.all([stat(path), readFile(path, "utf8")]);
      if (Date.now() - info.mtimeMs > this.#staleLockMs) return true;
      const pid = Number.parseInt(text, 10);
      if (!Number.isInteger(pid) || pid <= 0) return Date.now() - info.mtimeMs > 1000; // still being written, or garbage
      try {
        process.kill(pid, 0);
        return false;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === "ESRCH";
      }
    } catch {
      return false; // gone already: the next try takes it
    }
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
      throw new OAuthError("storage", `Could not save credentials in ${this.dir}: ${(cause as Error).message}`, {
        cause,
      });
    }
  }

  async delete(issuer: string, resource: string): Promise<void> {
    await rm(this.#path(issuer, resource), { force: true });
  }
}
