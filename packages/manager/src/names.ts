// Model-safe tool names: a server's prefix, the name a tool is offered under, and collisions between them.
import { createHash } from "node:crypto";

/** What model APIs accept as a tool name. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;

function sanitize(part: string): string {
  const clean = part.replace(/[^a-zA-Z0-9_-]/g, "_");
  return clean === "" ? "_" : clean;
}

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

/**
 * The start of every model-facing name of a server's tools, `mcp__<server>__` (the server name
 * sanitised as in {@link toolNameFor}): how a host tells which server a name belongs to before
 * that server is running. A name cut to 64 characters may end inside it.
 */
export function toolNamePrefix(server: string): string {
  return `mcp__${sanitize(server)}__`;
}

/**
 * The model-facing name of a server's tool: `mcp__<server>__<tool>`, with every character
 * outside `[a-zA-Z0-9_-]` made `_`, and — when that is longer than 64 — cut and ended with a
 * short stable hash of the original pair, so two long names never meet by truncation.
 */
export function toolNameFor(server: string, tool: string): string {
  const full = `${toolNamePrefix(server)}${sanitize(tool)}`;
  if (full.length <= MAX) return full;
  const hash = shortHash(`${server}\u0000${tool}`);
  return `${full.slice(0, MAX - hash.length - 1)}_${hash}`;
}

/** A name two tools wanted; the first one keeps it. */
export interface NameCollision {
  name: string;
  kept: { server: string; tool: string };
  dropped: { server: string; tool: string };
}

/**
 * The reversible map from model-facing names to (server, tool). A name is given once: a second
 * pair that sanitises to the same name is refused and reported, never silently overwritten.
 */
export class ToolNameMap {
  readonly #byName = new Map<string, { server: string; tool: string }>();

  /** The pair a model-facing name stands for. */
  resolve(name: string): { server: string; tool: string } | undefined {
    return this.#byName.get(name);
  }

  /** Forgets every name of one server (before its new tool list is added). */
  removeServer(server: string): void {
    for (const [name, pair] of this.#byName) if (pair.server === server) this.#byName.delete(name);
  }

  /** Claims the name of (server, tool): the name, or the collision when another pair holds it. */
  add(server: string, tool: string): { name: string } | { collision: NameCollision } {
    const name = toolNameFor(server, tool);
    const holder = this.#byName.get(name);
    if (holder && (holder.server !== server || holder.tool !== tool))
      return { collision: { name, kept: holder, dropped: { server, tool } } };
    this.#byName.set(name, { server, tool });
    return { name };
  }
}
