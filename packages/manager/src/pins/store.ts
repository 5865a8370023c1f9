// Where pins are kept: `PinStore`, `FilePinStore` (pins.json beside the approvals) and `MemoryPinStore`.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { McpError } from "@mcp/jsonrpc";
import { userConfigDir } from "../config/families.js";
import type { PinnedDefinition } from "./hash.js";

/** One approved tool definition. */
export interface PinnedTool {
  /** {@link definitionHash} of `definition`. */
  hash: string;
  /** The approved text, kept so a later change can be shown as a diff. */
  definition: PinnedDefinition;
  /** ms since the epoch. */
  approvedAt: number;
}

/** The approved tool set of one server identity. */
export interface ServerPins {
  /** The server's name (the key also holds a fingerprint of its config). */
  server: string;
  /** {@link toolSetHash} of `tools`. */
  setHash: string;
  /** Every tool ever approved for this server, by its name (a removed tool's pin is kept). */
  tools: Record<string, PinnedTool>;
  /** ms since the epoch. */
  updatedAt: number;
}

/**
 * Where approved tool definitions are kept, per user, by server identity (`pinKey`). Implement
 * it over a shared store (`RedisPinStore` of `@mcp/store-redis`) so replicas and the CLI agree.
 * `get` throws when the store cannot be read: the manager then offers none of that server's tools
 * rather than trust them.
 */
export interface PinStore {
  get(key: string): Promise<ServerPins | undefined>;
  set(key: string, pins: ServerPins): Promise<void>;
}

/** The pin store could not be read or written (a corrupt `pins.json`, an unreachable store). */
export class PinStoreError extends McpError<"pin_store_error"> {
  static override readonly brand: string = "PinStoreError";

  constructor(message: string, options?: { cause?: unknown }) {
    super("pin_store_error", message, options);
  }
}

/** The user's config folder of this stack, where `pins.json` sits beside `approvals.json`. */
export function defaultPinDir(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  return userConfigDir({ env, platform, home });
}

/** A {@link PinStore} in memory (one process; tests and hosts that keep pins elsewhere). */
export class MemoryPinStore implements PinStore {
  readonly #pins = new Map<string, ServerPins>();

  get(key: string): Promise<ServerPins | undefined> {
    const pins = this.#pins.get(key);
    return Promise.resolve(pins && structuredClone(pins));
  }

  set(key: string, pins: ServerPins): Promise<void> {
    this.#pins.set(key, structuredClone(pins));
    return Promise.resolve();
  }
}

interface PinFile {
  version: 1;
  servers: Record<string, ServerPins>;
}

/**
 * A {@link PinStore} in one JSON file, `pins.json` (mode 0600). A missing file is an empty store;
 * a file that is not a pin file throws {@link PinStoreError} naming it (a broken store must not
 * read as "nothing pinned yet", which would pin whatever a server says next). Writes are atomic.
 */
export class FilePinStore implements PinStore {
  readonly file: string;
  #writing: Promise<void> = Promise.resolve();

  constructor(dir: string = defaultPinDir()) {
    this.file = join(dir, "pins.json");
  }

  async get(key: string): Promise<ServerPins | undefined> {
    return (await this.#read()).servers[key];
  }

  set(key: string, pins: ServerPins): Promise<void> {
    const run = this.#writing.then(async () => {
      const current = await this.#read();
      current.servers[key] = pins;
      await mkdir(dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        await writeFile(temp, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 });
        await rename(temp, this.file);
      } catch (error) {
        await rm(temp, { force: true });
        throw new PinStoreError(`cannot write the tool pins in ${this.file}: ${(error as Error).message}`, {
          cause: error,
        });
      }
    });
    this.#writing = run.catch(() => undefined);
    return run;
  }

  async #read(): Promise<PinFile> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, servers: {} };
      throw new PinStoreError(`cannot read the tool pins in ${this.file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    let value: Partial<PinFile>;
    try {
      value = JSON.parse(text) as Partial<PinFile>;
    } catch (error) {
      throw new PinStoreError(
        `the tool pins in ${this.file} are not valid JSON (${(error as Error).message}); fix or remove the file`,
        { cause: error },
      );
    }
    if (
      value.version !== 1 ||
      typeof value.servers !== "object" ||
      value.servers === null ||
      Array.isArray(value.servers)
    ) {
      throw new PinStoreError(`the tool pins in ${this.file} are not a version 1 pin file; fix or remove the file`);
    }
    return value as PinFile;
  }
}
