import { MessageTooLargeError } from "@mcp/jsonrpc";
import { bodyChunks, readBoundedText } from "@mcp/jsonrpc/internal";
import { createHttpFetch } from "@mcp/transport-http";
import { RegistryError } from "./errors.js";
import { resolveRegistry, type RegistryLocationOptions } from "./location.js";
import { OFFICIAL_META, type RegistryEntry, type RegistryStatus } from "./types.js";

/**
 * The registry's read API (v0.1): `GET /v0.1/servers?search=&limit=&cursor=&version=` and
 * `GET /v0.1/servers/{name}/versions/{version|latest}`. Read-only and unauthenticated; any
 * registry that implements the same OpenAPI document (a company's subregistry) works.
 */

/** Options of every registry request. */
export interface RegistryRequestOptions extends RegistryLocationOptions {
  /** Aborts the request; it rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Milliseconds for each request, headers and body together (default 30000). */
  timeout?: number | undefined;
  /** The largest response body read, in bytes (default 16 MiB). */
  maxBytes?: number | undefined;
  /** The `fetch` to use (default: the transport's network path, so `HTTPS_PROXY` / `NO_PROXY` and `NODE_EXTRA_CA_CERTS` apply). */
  fetch?: typeof fetch | undefined;
}

/** Options of {@link searchRegistry}. */
export interface RegistrySearchOptions extends RegistryRequestOptions {
  /** Servers asked for per page (the `limit` parameter; default 100, the official registry's most). */
  pageSize?: number | undefined;
  /** Only this version of each server (default `"latest"`); `false` lists every version. */
  version?: string | false | undefined;
}

const DEFAULT_TIMEOUT = 30_000;

/** The network path the transport's own requests take: `HTTPS_PROXY` / `NO_PROXY`, `NODE_EXTRA_CA_CERTS`. Made on first use, shared. */
let networkFetch: typeof fetch | undefined;
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The registry's lifecycle status of an entry (`_meta["io.modelcontextprotocol.registry/official"].status`), when it gives one. */
export function registryStatus(entry: RegistryEntry): RegistryStatus | undefined {
  const meta = entry._meta?.[OFFICIAL_META];
  const status = isObject(meta) ? meta["status"] : undefined;
  return status === "active" || status === "deprecated" || status === "deleted" ? status : undefined;
}

/** `deprecated` or `deleted` when the registry says so (an entry to warn about); `undefined` otherwise. */
export function retiredStatus(entry: RegistryEntry): "deprecated" | "deleted" | undefined {
  const status = registryStatus(entry);
  return status === "deprecated" || status === "deleted" ? status : undefined;
}

/** Printable text from a server: control characters out, length bounded (this package's messages, not its entry). */
export function snippet(text: string, max = 200): string {
  const clean = text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ")
    .replace(/ {2,}/g, " ")
    .trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** The reason an error body gives: `{ error }`, `{ detail }` / `{ title }` (RFC 9457), or its text. */
function reasonIn(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body)) {
      for (const key of ["error", "detail", "title", "message"])
        if (typeof body[key] === "string" && body[key] !== "") return snippet(body[key]);
    }
  } catch {
    // not JSON: the text itself
  }
  return snippet(text);
}

interface Answer {
  status: number;
  text: string;
}

/** One GET, bounded in time and size; the caller's abort rejects with the caller's reason. */
async function get(base: string, path: string, options: RegistryRequestOptions): Promise<Answer> {
  const url = `${base}${path}`;
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  const caller = options.signal;
  if (caller?.aborted) throw caller.reason;
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(caller!.reason);
  caller?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(
    () =>
      controller.abort(
        new RegistryError("timeout", `the registry ${base} did not answer ${path} within ${timeout} ms`, {
          registry: base,
        }),
      ),
    timeout,
  );
  try {
    let response: Response;
    try {
      response = await (options.fetch ?? (networkFetch ??= createHttpFetch({ serverName: "the MCP registry" })))(url, {
        headers: { accept: "application/json" },
        signal: controller.signal,
      });
    } catch (error) {
      if (controller.signal.aborted) throw controller.signal.reason;
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
      // fetch's own "fetch failed" says nothing: its cause does. A proxy's refusal says it all itself.
      const why =
        (error as Error).message !== "fetch failed"
          ? (error as Error).message
          : typeof cause?.code === "string"
            ? cause.code
            : typeof cause?.message === "string"
              ? cause.message
              : "fetch failed";
      throw new RegistryError("network", `the registry ${base} could not be reached (${why})`, {
        registry: base,
        cause: error,
      });
    }
    try {
      const text = await readBoundedText(bodyChunks(response.body), options.maxBytes ?? DEFAULT_MAX_BYTES, {
        source: `the registry's answer to ${path}`,
        option: "maxBytes",
      });
      return { status: response.status, text };
    } catch (error) {
      if (controller.signal.aborted) throw controller.signal.reason;
      if (error instanceof MessageTooLargeError)
        throw new RegistryError("too_large", `the registry ${base}: ${error.message}`, {
          registry: base,
          cause: error,
        });
      throw new RegistryError(
        "network",
        `the registry ${base} broke off its answer to ${path} (${(error as Error).message})`,
        { registry: base, cause: error },
      );
    }
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener("abort", onAbort);
  }
}

/** A 2xx answer's JSON; any other status, or a body that is not JSON, is a `RegistryError`. */
function json(base: string, path: string, answer: Answer): unknown {
  if (answer.status < 200 || answer.status > 299) {
    const why = reasonIn(answer.text);
    throw new RegistryError(
      "http",
      `the registry ${base} answered HTTP ${answer.status} to ${path}${why ? `: ${why}` : ""}`,
      { registry: base, status: answer.status },
    );
  }
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    throw new RegistryError(
      "invalid_response",
      `the registry ${base} answered ${path} with something that is not JSON: ${snippet(answer.text, 80)}`,
      { registry: base },
    );
  }
}

/** Checks the shape of one entry as far as we rely on it; a problem names where it is. */
function checkEntry(value: unknown, where: string, base: string): RegistryEntry {
  const bad = (what: string): never => {
    throw new RegistryError("invalid_response", `the registry ${base} sent a malformed entry: ${where}${what}`, {
      registry: base,
    });
  };
  if (!isObject(value)) return bad(" is not an object");
  const server = value["server"];
  if (!isObject(server)) return bad(".server is not an object");
  if (typeof server["name"] !== "string" || server["name"] === "") return bad(".server.name is not a string");
  if (typeof server["version"] !== "string" || server["version"] === "") return bad(".server.version is not a string");
  for (const list of ["packages", "remotes"])
    if (server[list] !== undefined && !Array.isArray(server[list])) bad(`.server.${list} is not an array`);
  if (value["_meta"] !== undefined && !isObject(value["_meta"])) bad("._meta is not an object");
  return value as unknown as RegistryEntry;
}

/**
 * Searches the registry (`search` is its substring match on names; empty lists every server) and
 * yields each entry — `server.json` and the registry's `_meta`, status included — page after
 * page, following `metadata.nextCursor` for as long as the caller reads: stop with `break` (or
 * the signal), and no further page is asked for. A cursor the registry sends twice is an error,
 * not a loop.
 *
 * ```ts
 * for await (const entry of searchRegistry("filesystem")) console.log(entry.server.name);
 * ```
 */
export async function* searchRegistry(
  text: string,
  options: RegistrySearchOptions = {},
): AsyncGenerator<RegistryEntry, void, undefined> {
  const { url: base } = await resolveRegistry(options);
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const query = new URLSearchParams();
    if (text !== "") query.set("search", text);
    query.set("limit", String(pageSize));
    if (options.version !== false) query.set("version", options.version ?? "latest");
    if (cursor !== undefined) query.set("cursor", cursor);
    const path = `/v0.1/servers?${query.toString()}`;
    const body = json(base, path, await get(base, path, options));
    if (!isObject(body) || !Array.isArray(body["servers"]))
      throw new RegistryError("invalid_response", `the registry ${base} answered ${path} without a "servers" list`, {
        registry: base,
      });
    const servers = body["servers"] as unknown[];
    const entries = servers.map((entry, index) => checkEntry(entry, `page ${page}, servers[${index}]`, base));
    const metadata = isObject(body["metadata"]) ? body["metadata"] : {};
    const next = metadata["nextCursor"] ?? metadata["next_cursor"];
    for (const entry of entries) yield entry;
    if (typeof next !== "string" || next === "") return;
    if (cursors.has(next))
      throw new RegistryError(
        "invalid_response",
        `the registry ${base} sent the cursor ${JSON.stringify(snippet(next, 60))} twice (page ${page}); stopped rather than loop`,
        { registry: base },
      );
    cursors.add(next);
    cursor = next;
  }
}

/**
 * The first `limit` servers whose name has `text` (every server when it is empty), one entry each:
 * {@link searchRegistry}'s pages read only as far as they are needed. A registry that ignores
 * `version=latest` lists every version of a server: its latest (`_meta`'s `isLatest`) stands for them all.
 *
 * ```ts
 * const servers = await searchServers("filesystem", { limit: 20 });
 * ```
 */
export async function searchServers(
  text: string,
  options: Omit<RegistrySearchOptions, "pageSize" | "version"> & { limit?: number | undefined } = {},
): Promise<RegistryEntry[]> {
  const limit = options.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  const found = new Map<string, RegistryEntry>();
  for await (const entry of searchRegistry(text, { ...options, pageSize: Math.min(limit, 100) })) {
    const name = entry.server.name;
    if (found.has(name)) {
      if (entry._meta?.[OFFICIAL_META]?.isLatest === true) found.set(name, entry);
      continue;
    }
    found.set(name, entry);
    if (found.size === limit) break;
  }
  return [...found.values()];
}

/**
 * One version of one server (`"latest"` by default), with the registry's `_meta`. A server or
 * version the registry does not have is a `RegistryError` with `reason: "not_found"` naming the
 * registry asked; an answer about another server than the one asked for is refused.
 */
export async function getRegistryServer(
  name: string,
  version = "latest",
  options: RegistryRequestOptions = {},
): Promise<RegistryEntry> {
  const { url: base } = await resolveRegistry(options);
  if (typeof name !== "string" || name === "")
    throw new RegistryError("not_found", "a server name is needed (e.g. io.github.user/weather)", { registry: base });
  const path = `/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;
  const answer = await get(base, path, options);
  if (answer.status === 404) {
    const what = version === "latest" ? `no server named "${name}"` : `no version ${version} of "${name}"`;
    throw new RegistryError("not_found", `the registry ${base} has ${what}`, { registry: base, status: 404 });
  }
  const entry = checkEntry(json(base, path, answer), "the answer", base);
  if (entry.server.name !== name)
    throw new RegistryError(
      "invalid_response",
      `the registry ${base} was asked for "${name}" and answered with "${snippet(entry.server.name, 80)}"`,
      { registry: base },
    );
  if (version !== "latest" && entry.server.version !== version)
    throw new RegistryError(
      "invalid_response",
      `the registry ${base} was asked for version ${version} of "${name}" and answered with ${snippet(entry.server.version, 40)}`,
      { registry: base },
    );
  return entry;
}
