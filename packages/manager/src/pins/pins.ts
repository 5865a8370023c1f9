// `ToolPins`: each server's tools checked against their pins on every live list; changed or new tools held until approved.
import { toError } from "@mcp/jsonrpc";
import type { MCPServerConfig, Tool } from "@mcp/client";
import { toolCacheKey } from "../cache.js";
import { diffDefinitions } from "./diff.js";
import { ToolHeldError } from "./errors.js";
import { definitionHash, definitionOf, toolSetHash, type PinnedDefinition } from "./hash.js";
import type { ServerStatus } from "../types.js";
import { FilePinStore, PinStoreError, type PinnedTool, type PinStore, type ServerPins } from "./store.js";
import type { HeldTool, PinOptions } from "./types.js";

/**
 * The identity tool pins are kept under: the server's name and a fingerprint of its config
 * (`toolCacheKey` without capabilities: command, arguments, URL; secrets left out). Another command
 * under the same name is another server, pinned afresh. The client's capabilities are not part of
 * it, so every host on one config (the CLI, a gateway) shares one server's pins: a tool a server
 * lists only to a client that can sample is, to a host that can, a new tool to approve.
 */
export function pinKey(name: string, config: MCPServerConfig): string {
  return toolCacheKey(name, config);
}

/** Checks a stored entry's shape: a store is outside input too. */
function checked(key: string, pins: ServerPins | undefined): ServerPins | undefined {
  if (pins === undefined) return undefined;
  const tools = (pins as Partial<ServerPins>).tools;
  if (
    typeof tools !== "object" ||
    tools === null ||
    Object.values(tools).some((tool) => typeof tool?.hash !== "string" || typeof tool.definition !== "object")
  ) {
    throw new PinStoreError(`the tool pins of "${key}" are malformed; fix or remove them`);
  }
  return pins;
}

/** What the manager needs from its host to put approved tools in front of models. */
export interface PinHost {
  /** Offers these tools of the server (its listed tools less those held). */
  offer(server: string, tools: Tool[]): void;
  onError(server: string, error: Error): void;
}

/** The manager's {@link PinHost}: a connected server's offered tools are replaced and the tool list rebuilt. */
export function pinHost(
  servers: ReadonlyMap<string, { tools: Tool[]; status: ServerStatus }>,
  toolsChanged: () => void,
  onError: ((server: string, error: Error) => void) | undefined,
): PinHost {
  return {
    offer: (name, tools) => {
      const server = servers.get(name);
      if (!server || server.status.state !== "connected") return;
      server.tools = tools;
      server.status.toolCount = tools.length;
      toolsChanged();
    },
    onError: (name, error) => onError?.(name, error),
  };
}

/**
 * Tool pinning ("what a model is told"): the first live tool list of a server is pinned (trust on
 * first use); later lists are compared tool by tool. An unchanged tool is offered, a changed or
 * new one is held (not offered, calls fail with {@link ToolHeldError}) until {@link approve}, a
 * removed one disappears. A cached list never pins anything: only tools matching their pins are
 * offered from it. Reached as `manager.pins`.
 */
export class ToolPins {
  /** False when the manager was made with `pins: false`: every tool is offered. */
  readonly enabled: boolean;
  readonly #store: PinStore | undefined;
  readonly #decide: PinOptions["decide"];
  readonly #host: PinHost;
  /** Per server: its identity and its last live list (what `approve` offers again). */
  readonly #listed = new Map<string, { key: string; tools: Tool[] }>();
  readonly #held = new Map<string, Map<string, HeldTool>>();
  readonly #listeners = new Set<(held: HeldTool[]) => void>();
  /** Per server: the check or approval under way (one at a time). */
  readonly #queue = new Map<string, Promise<unknown>>();

  constructor(options: PinOptions | false | undefined, host: PinHost) {
    this.enabled = options !== false;
    this.#store = options === false ? undefined : (options?.store ?? new FilePinStore());
    this.#decide = options === false ? undefined : options?.decide;
    this.#host = host;
  }

  /** The held tools (of one server, or all), each with its diff. */
  held(server?: string): HeldTool[] {
    const servers =
      server === undefined ? [...this.#held.values()] : [this.#held.get(server) ?? new Map<string, HeldTool>()];
    return servers.flatMap((tools) => [...tools.values()]);
  }

  /** Called with the tools newly held (once per tool and definition). Returns the unsubscribe function. */
  onHeld(listener: (held: HeldTool[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Approves the held tools of a server (all, or those named): their definitions become its pins
   * and they are offered at once. Resolves with the tools approved.
   */
  approve(server: string, tools?: string[]): Promise<HeldTool[]> {
    return this.#serial(server, async () => {
      const listed = this.#listed.get(server);
      const held = this.#held.get(server);
      if (!listed || !held || !this.#store) return [];
      const chosen = [...held.values()].filter((tool) => tools === undefined || tools.includes(tool.tool));
      if (chosen.length === 0) return [];
      await this.#pin(listed.key, server, chosen);
      for (const tool of chosen) held.delete(tool.tool);
      this.#host.offer(server, this.#offered(server, listed.tools));
      return chosen;
    });
  }

  /**
   * Compares the held tools with the store again (another process, the CLI, may have approved
   * them): those now matching their pins are offered.
   */
  async recheck(server?: string): Promise<void> {
    const servers = server === undefined ? [...this.#listed.keys()] : [server];
    await Promise.all(
      servers.map(async (name) => {
        const listed = this.#listed.get(name);
        if (!listed || (this.#held.get(name)?.size ?? 0) === 0) return;
        try {
          this.#host.offer(name, await this.check(name, listed.key, listed.tools));
        } catch (error) {
          this.#host.onError(name, toError(error));
        }
      }),
    );
  }

  /**
   * A live tool list: pins it when the server has no pins (trust on first use), else holds what
   * differs (unless `decide` approves). Resolves with the tools to offer. Throws when the store
   * cannot be read: a refresh then keeps the last approved set.
   */
  check(server: string, key: string, tools: Tool[]): Promise<Tool[]> {
    if (!this.#store) return Promise.resolve(tools);
    const store = this.#store;
    return this.#serial(server, async () => {
      const pins = checked(key, await store.get(key));
      const before = this.#held.get(server);
      const held = new Map<string, HeldTool>();
      if (pins === undefined) {
        await this.#pin(
          key,
          server,
          tools.map((tool) => ({
            tool: tool.name,
            definition: definitionOf(tool),
            newHash: definitionHash(definitionOf(tool)),
          })),
        );
      } else {
        for (const tool of tools) {
          const pinned = pins.tools[tool.name];
          const definition = definitionOf(tool);
          const newHash = definitionHash(definition);
          if (newHash !== pinned?.hash)
            held.set(tool.name, this.#hold(server, definition, newHash, pinned, before?.get(tool.name)));
        }
        if (held.size > 0 && (await this.#decide?.({ server, key, tools: [...held.values()] })) === "approve") {
          await this.#pin(key, server, [...held.values()]);
          held.clear();
        }
      }
      this.#listed.set(server, { key, tools });
      this.#held.set(server, held);
      const fresh = [...held.values()].filter((tool) => before?.get(tool.tool)?.newHash !== tool.newHash);
      if (fresh.length > 0) this.#emit(fresh);
      return this.#offered(server, tools);
    });
  }

  /** A cached list: only tools matching their pins (none pinned: all, to be checked once live). */
  async filterCached(key: string, tools: Tool[]): Promise<Tool[] | undefined> {
    if (!this.#store) return tools;
    try {
      const pins = checked(key, await this.#store.get(key));
      return pins === undefined
        ? tools
        : tools.filter((tool) => pins.tools[tool.name]?.hash === definitionHash(definitionOf(tool)));
    } catch {
      return undefined;
    }
  }

  /** The error a call to a held tool fails with, or undefined when it is not held. */
  heldError(server: string, tool: string): ToolHeldError | undefined {
    const held = this.#held.get(server)?.get(tool);
    return held && new ToolHeldError(server, tool, held.change, held.oldHash, held.newHash);
  }

  /** A server's listed tools less those held. */
  #offered(server: string, tools: Tool[]): Tool[] {
    const held = this.#held.get(server);
    return held && held.size > 0 ? tools.filter((tool) => !held.has(tool.name)) : tools;
  }

  #hold(
    server: string,
    definition: PinnedDefinition,
    newHash: string,
    pinned: PinnedTool | undefined,
    before: HeldTool | undefined,
  ): HeldTool {
    const since = before?.newHash === newHash ? before.since : Date.now();
    const old = pinned?.definition;
    return {
      server,
      tool: definition.name,
      change: old ? "changed" : "added",
      old,
      oldHash: pinned?.hash,
      definition,
      newHash,
      diff: diffDefinitions(old, definition),
      since,
    };
  }

  /** Writes these definitions as the server's pins (beside those it has). */
  async #pin(key: string, server: string, tools: Pick<HeldTool, "tool" | "definition" | "newHash">[]): Promise<void> {
    const store = this.#store;
    if (!store) return;
    const pins = checked(key, await store.get(key)) ?? { server, setHash: "", tools: {}, updatedAt: 0 };
    const now = Date.now();
    for (const tool of tools)
      pins.tools[tool.tool] = { hash: tool.newHash, definition: tool.definition, approvedAt: now };
    await store.set(key, { ...pins, server, setHash: toolSetHash(pins.tools), updatedAt: now });
  }

  #serial<T>(server: string, run: () => Promise<T>): Promise<T> {
    const next = (this.#queue.get(server) ?? Promise.resolve()).then(run, run);
    const settled = next.catch(() => undefined);
    this.#queue.set(server, settled);
    void settled.then(() => this.#queue.get(server) === settled && this.#queue.delete(server));
    return next;
  }

  #emit(held: HeldTool[]): void {
    for (const listener of this.#listeners) {
      try {
        listener(held);
      } catch (error) {
        this.#host.onError(held[0]?.server ?? "", toError(error));
      }
    }
  }
}
