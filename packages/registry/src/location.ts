// Where the MCP registry is: the option, `MCP_REGISTRY_URL`, our config file's `registry`, or the official one; its URL checked.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { redactUrl } from "@mcp/jsonrpc/internal";
import { OWN_FILE, readConfigField, userConfigDir } from "@mcp/manager";
import { RegistryError } from "./errors.js";

/** The official MCP registry. */
export const DEFAULT_REGISTRY_URL = "https://registry.modelcontextprotocol.io";

/** Where the registry's URL came from: `option`, `MCP_REGISTRY_URL`, a config file's path, or `default`. */
export interface RegistryLocation {
  /** The base URL, without a trailing slash. */
  url: string;
  source: string;
}

/** Options of {@link resolveRegistry}. */
export interface RegistryLocationOptions {
  /** The registry's base URL; wins over everything else. */
  registry?: string | undefined;
  /** Environment to read `MCP_REGISTRY_URL` from (default `process.env`). */
  env?: Record<string, string | undefined> | undefined;
  /** Home directory for the user's own `mcp-client.json` (default `os.homedir()`). */
  home?: string | undefined;
  platform?: NodeJS.Platform | undefined;
  /**
   * Our own config files to read `registry` from, in order (relative ones from `cwd`). Default: the
   * user's `mcp-client.json` only. A project's file is not read by default: it came with a
   * repository, and where servers are installed from is the user's choice.
   */
  files?: string[] | undefined;
  /** Base for relative `files` (default `process.cwd()`). */
  cwd?: string | undefined;
}

/**
 * Checks and normalises a registry base URL: http or https, no user name or password (the read
 * API is unauthenticated; a credential in a URL would travel wherever it redirects), no query or
 * fragment. A path is kept (a subregistry may live under one). Throws `RegistryError`
 * (`invalid_url`) naming `from`.
 */
export function normalizeRegistryUrl(value: unknown, from = "the registry URL"): string {
  const shown = typeof value === "string" ? JSON.stringify(redactUrl(value)) : JSON.stringify(value);
  if (typeof value !== "string" || value.trim() === "")
    throw new RegistryError("invalid_url", `${from} must be an http(s) URL, got ${shown}`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new RegistryError("invalid_url", `${from} is not a URL: ${shown}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new RegistryError("invalid_url", `${from} must be an http(s) URL, got ${shown}`);
  if (url.username !== "" || url.password !== "")
    throw new RegistryError("invalid_url", `${from} must not carry a user name or password: ${shown}`);
  if (url.search !== "" || url.hash !== "")
    throw new RegistryError("invalid_url", `${from} must not have a query or fragment: ${shown}`);
  return url.href.replace(/\/+$/, "");
}

/**
 * The registry to ask: `options.registry`, else `MCP_REGISTRY_URL`, else the `registry` field of
 * our own config file (the user's `mcp-client.json`, or the `files` given), else the official one.
 * A malformed value is an error naming where it came from, never a silent fall-through.
 */
export async function resolveRegistry(options: RegistryLocationOptions = {}): Promise<RegistryLocation> {
  if (options.registry !== undefined)
    return { url: normalizeRegistryUrl(options.registry, "the registry option"), source: "option" };
  const env = options.env ?? process.env;
  const fromEnv = env["MCP_REGISTRY_URL"];
  if (fromEnv !== undefined && fromEnv !== "")
    return { url: normalizeRegistryUrl(fromEnv, "MCP_REGISTRY_URL"), source: "MCP_REGISTRY_URL" };
  const cwd = options.cwd ?? process.cwd();
  const files = options.files?.map((file) => resolve(cwd, file)) ?? [
    join(
      userConfigDir({ home: options.home ?? homedir(), env, platform: options.platform ?? process.platform }),
      OWN_FILE,
    ),
  ];
  for (const file of files) {
    // The manager owns its file's format (JSONC, errors naming the line and column): it reads the field.
    const registry = await readConfigField(file, "registry").catch((error: unknown) => {
      throw new RegistryError("invalid_url", (error as Error).message, { cause: error });
    });
    if (registry !== undefined) return { url: normalizeRegistryUrl(registry, `"registry" in ${file}`), source: file };
  }
  return { url: DEFAULT_REGISTRY_URL, source: "default" };
}
