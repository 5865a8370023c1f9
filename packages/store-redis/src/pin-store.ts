// The manager's tool pins on Redis: every replica of a gateway, and the CLI an admin approves with,
// read and write one store, so a tool approved once is served by all of them.

import { PinStoreError, type PinStore, type ServerPins } from "@mcp/manager";
import { RedisConnection, type RedisStoreOptions } from "./connection.js";

function isServerPins(value: unknown): value is ServerPins {
  if (typeof value !== "object" || value === null) return false;
  const pins = value as Partial<ServerPins>;
  return (
    typeof pins.server === "string" &&
    typeof pins.tools === "object" &&
    pins.tools !== null &&
    Object.values(pins.tools).every((tool) => typeof tool?.hash === "string" && typeof tool.definition === "object")
  );
}

/**
 * {@link PinStore} on Redis, one key per server identity (`<prefix>pins:<pinKey>`), kept until
 * deleted. What is under a key is checked: anything but pins throws `PinStoreError` rather than
 * read as "nothing pinned yet", which would pin whatever a server says next. A Redis that cannot be
 * reached throws too (`RedisStoreError`): the manager then offers none of the server's tools at
 * connect, and keeps the last approved set on a refresh.
 */
export class RedisPinStore implements PinStore {
  readonly #db: RedisConnection;

  constructor(options: RedisStoreOptions) {
    this.#db = new RedisConnection(options);
  }

  #key(key: string): string {
    return `${this.#db.prefix}pins:${key}`;
  }

  async get(key: string): Promise<ServerPins | undefined> {
    const text = await this.#db.run("pin store get", (r) => r.get(this.#key(key)));
    if (text === null) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (!isServerPins(value))
      throw new PinStoreError(`the tool pins under Redis key "${this.#key(key)}" are not pins; fix or delete the key`);
    return value;
  }

  async set(key: string, pins: ServerPins): Promise<void> {
    await this.#db.run("pin store set", (r) => r.set(this.#key(key), JSON.stringify(pins)));
  }

  /** Closes the connection if the store opened it. */
  close(): Promise<void> {
    return this.#db.close();
  }
}
