// The types of discovered configs: families, scopes, sources, filters, entries and their errors.
import type { MCPServerConfig } from "@mcp/client";

/** Where a configuration family keeps its servers. */
export type ConfigFamily =
  | "mcp-client"
  | "claude-code"
  | "claude-desktop"
  | "cursor"
  | "vscode"
  | "windsurf"
  | "codex"
  | "gemini"
  | "opencode"
  | "zed";

/**
 * How far an entry reaches: `local` (Claude Code's per-project entries in `~/.claude.json`),
 * `project` (a file in the project directory: untrusted input, it came with the repository),
 * `user` (a file in the user's home or profile; its stdio servers start in the home, never in the
 * project: see `config/spawn-dir.ts`).
 */
export type ConfigScope = "local" | "project" | "user";

/** Where one entry came from. */
export interface ConfigSource {
  family: ConfigFamily;
  scope: ConfigScope;
  /** Absolute path of the file. */
  file: string;
}

/** Which of a server's tools to offer. Names are the server's own tool names. */
export interface ToolFilter {
  /** Only these (when set). */
  include?: string[] | undefined;
  /** Never these. */
  exclude?: string[] | undefined;
}

/** One server as discovered: its normalised config, where it came from, and what the host file said about it. */
/** An entry as its file writes it: before `${VAR}` expansion and `envFile` merging. */
export interface WrittenEntry {
  /** The entry's fields as the file has them (`${VAR}` and the like unexpanded). */
  config: Record<string, unknown>;
  /** The `envFile` it names (Cursor, VS Code), as written. */
  envFile?: string | undefined;
}

export interface DiscoveredServer {
  name: string;
  config: MCPServerConfig;
  /**
   * The entry as its file writes it, before expansion: what a person asked to approve it should
   * read (`Authorization: Bearer ${GITHUB_TOKEN}` says which of their variables it takes; the
   * expanded `config` would only show, or hide, the value).
   */
  written?: WrittenEntry | undefined;
  source: ConfigSource;
  /** False when the host file disables it (`enabled: false`, `disabled: true`, `disabledMcpjsonServers`, …). */
  enabled: boolean;
  /**
   * For project-scope entries: whether the host already approved it (Claude Code's
   * `enabledMcpjsonServers` / `enableAllProjectMcpServers`). `undefined` when the host says nothing.
   */
  approved?: boolean | undefined;
  tools?: ToolFilter | undefined;
  /** Per-call timeout the host asks for (Codex `tool_timeout_sec`), in ms. */
  toolTimeoutMs?: number | undefined;
}

/** A problem with one file or one entry. Never fatal to the other files or entries. */
export interface ConfigError {
  file: string;
  /** The server the problem belongs to; absent for a problem with the whole file. */
  server?: string | undefined;
  /** 1-based line (and column) of a syntax error. */
  line?: number | undefined;
  column?: number | undefined;
  message: string;
}

/** What {@link loadAllMCPConfigs} returns. */
export interface LoadResult {
  /** The winning, valid, enabled entry of each name. */
  configs: Record<string, MCPServerConfig>;
  /** The file of each entry in `configs`. */
  sources: Record<string, string>;
  /** Every winning entry (disabled ones too), with scope, family and tool filters. */
  servers: Record<string, DiscoveredServer>;
  /** Valid entries that lost to an entry of the same name with higher precedence. */
  shadowed: DiscoveredServer[];
  errors: ConfigError[];
}

/** A `${input:id}` definition from a VS Code file (`inputs: [{ id, type, description, password }]`). */
export interface InputDefinition {
  id: string;
  type?: string | undefined;
  description?: string | undefined;
  password?: boolean | undefined;
  [key: string]: unknown;
}

/** Options of {@link loadAllMCPConfigs}. */
export interface LoadOptions {
  /** Home directory (default `os.homedir()`): where the user's files are, and where the stdio servers of those files start (see the README). Tests point it at a temporary one. */
  home?: string | undefined;
  /** Environment for `${VAR}` expansion (default `process.env`). */
  env?: Record<string, string | undefined> | undefined;
  /** OS whose file locations to read (default `process.platform`). */
  platform?: NodeJS.Platform | undefined;
  /** Families to read (default: all). */
  families?: ConfigFamily[] | undefined;
  /** Scopes to read (default: all). */
  scopes?: ConfigScope[] | undefined;
  /** `false` ignores every file in the project directory (a cloned repository is untrusted). Default true. */
  enableProjectConfig?: boolean | undefined;
  /** Values for VS Code's `${input:id}`: a map, or a callback (which may prompt the user). */
  inputs?:
    | Record<string, string>
    | ((
        input: InputDefinition,
        context: { server: string; file: string },
      ) => string | undefined | Promise<string | undefined>)
    | undefined;
  /** Extra files in our own format, read with the highest precedence, in order (e.g. a `--config` flag). */
  extraFiles?: string[] | undefined;
}
