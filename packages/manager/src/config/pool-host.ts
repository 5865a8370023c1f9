// The host files pool works on: which exist here for a family, where each family keeps its entries in them, and one
// read and checked (UTF-8 text that parses, or a PoolError saying why not).
import { readFile, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { type Node } from "jsonc-parser";
import { fileSpecs, type Locations } from "./families.js";
import { parseJsonFile, parseTomlFile } from "./parse.js";
import { jsonSpots, type EntrySpot, type JsonLayout, type PoolFamily } from "./pool-text.js";
import { tomlSpots } from "./pool-toml.js";
import type { ConfigScope } from "./types.js";

/** Why pooling or unpooling one file stopped; the message says what to do. */
export class PoolError extends Error {
  constructor(
    /** `changed`: the file is not what `pool` wrote; `no-backup`: pooled entries but no backup; `layout`: a rewrite could not be checked; `unreadable`: not UTF-8 or not valid JSON/TOML. */
    readonly code: "changed" | "no-backup" | "layout" | "unreadable",
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = "PoolError";
  }
}

/** The host families `pool` knows, in the order `mcp hosts` lists them. */
export const POOL_FAMILIES: readonly PoolFamily[] = [
  "claude-code",
  "claude-desktop",
  "cursor",
  "vscode",
  "codex",
  "gemini",
  "opencode",
  "zed",
  "windsurf",
];

const at =
  (...path: string[]) =>
  (): (string | number)[][] => [path];
const stdioUnless =
  (...urlKeys: string[]) =>
  (entry: Node): boolean => {
    const type = entry.children?.find((p) => p.children?.[0]?.value === "type")?.children?.[1]?.value as unknown;
    return (
      !urlKeys.some((key) => entry.children?.some((p) => p.children?.[0]?.value === key)) &&
      (type === undefined || type === "stdio" || type === "local")
    );
  };
const mcpServers: JsonLayout = { containers: at("mcpServers"), isStdio: stdioUnless("url", "serverUrl", "httpUrl") };

/** Where each family keeps its entries in one of its files. */
function layoutOf(family: PoolFamily, file: string, home: string): JsonLayout | "toml" {
  switch (family) {
    case "codex":
      return "toml";
    case "vscode":
      return { ...mcpServers, containers: at("servers") };
    case "opencode":
      return { containers: at("mcp"), commandArray: true, isStdio: stdioUnless("url") };
    case "zed":
      return { containers: at("context_servers"), isStdio: stdioUnless("url") };
    case "claude-code":
      if (file !== join(home, ".claude.json")) return mcpServers;
      // `~/.claude.json`: the user's entries and every project's local ones.
      return {
        ...mcpServers,
        containers: (root) => [
          ["mcpServers"],
          ...(root.children?.find((p) => p.children?.[0]?.value === "projects")?.children?.[1]?.children ?? []).map(
            (p) => ["projects", p.children?.[0]?.value as string, "mcpServers"],
          ),
        ],
      };
    default:
      return mcpServers;
  }
}

/** One config file of a host family. */
export interface HostFile {
  family: PoolFamily;
  scope: ConfigScope;
  file: string;
  format: "json" | "jsonc" | "toml";
}

/** The files of a family (or of every family) that exist here, each once. */
export async function hostFiles(l: Locations, family?: PoolFamily): Promise<HostFile[]> {
  const seen = new Set<string>();
  const out: HostFile[] = [];
  for (const spec of fileSpecs(l, { document: undefined, approvals: {} })) {
    if (spec.family === "mcp-client" || (family !== undefined && spec.family !== family) || seen.has(spec.file))
      continue;
    seen.add(spec.file);
    if (
      await stat(spec.file).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      out.push({
        family: spec.family,
        scope: spec.scope === "local" ? "user" : spec.scope,
        file: spec.file,
        format: spec.format,
      });
  }
  return out;
}

export async function load(host: HostFile): Promise<{ real: string; bytes: Buffer; text: string; mode: number }> {
  const real = await realpath(host.file);
  const bytes = await readFile(real);
  const text = bytes.toString("utf8");
  if (!Buffer.from(text, "utf8").equals(bytes))
    throw new PoolError("unreadable", host.file, "is not UTF-8 text; left unchanged");
  return { real, bytes, text, mode: (await stat(real)).mode & 0o777 };
}

export function parse(host: HostFile, text: string): unknown {
  try {
    return host.format === "toml"
      ? parseTomlFile(host.file, text)
      : parseJsonFile(host.file, text, host.format === "json");
  } catch (error) {
    throw new PoolError(
      "unreadable",
      host.file,
      `${(error as Error).message.replace(`${host.file}: `, "")}; fix it, then try again`,
    );
  }
}

export function spotsOf(host: HostFile, text: string, home: string): EntrySpot[] {
  const layout = layoutOf(host.family, host.file, home);
  return layout === "toml" ? tomlSpots(text) : jsonSpots(text, layout);
}
