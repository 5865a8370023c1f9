// Where each host family keeps its config files, per platform, and which adapter reads each one.
import { join } from "node:path";
import type { claudeApprovals } from "./readers.js";
import {
  readClaudeDesktop,
  readClaudeLocal,
  readClaudeProject,
  readClaudeUser,
  readCodex,
  readCursor,
  readGemini,
  readOpencode,
  readOwn,
  readVsCode,
  readWindsurf,
  readZed,
  type AdapterOutput,
} from "./readers.js";
import type { ConfigFamily, ConfigScope } from "./types.js";

/** One file a family may have. */
export interface FileSpec {
  family: ConfigFamily;
  scope: ConfigScope;
  file: string;
  format: "json" | "jsonc" | "toml";
  read: (document: unknown) => AdapterOutput;
}

/** Paths a family's files live at. */
export interface Locations {
  home: string;
  cwd: string;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
}

// ─── where the files are ──────────────────────────────────────────────────────

function appData(l: Pick<Locations, "home" | "env">): string {
  return l.env["APPDATA"] ?? join(l.home, "AppData", "Roaming");
}

function xdgConfig(l: Pick<Locations, "home" | "env">): string {
  return l.env["XDG_CONFIG_HOME"] || join(l.home, ".config");
}

/** The OS's folder for application settings (where Claude Desktop and VS Code keep theirs). */
function appSettings(l: Locations): string {
  if (l.platform === "darwin") return join(l.home, "Library", "Application Support");
  if (l.platform === "win32") return appData(l);
  return xdgConfig(l);
}

/** The file name of our own config. */
export const OWN_FILE = "mcp-client.json";

/** Our own user folder: `~/.config/mcp-client` (`$XDG_CONFIG_HOME`; `%APPDATA%\\mcp-client` on Windows). */
export function userConfigDir(l: Pick<Locations, "home" | "platform" | "env">): string {
  return join(l.platform === "win32" ? appData(l) : xdgConfig(l), "mcp-client");
}

/** Our own user file: `mcp-client.json` in {@link userConfigDir}. */
export function ownUserFile(l: Locations): string {
  return join(userConfigDir(l), OWN_FILE);
}

/** `~/.claude.json` (Claude Code keeps it at the top of the home directory). */
export function claudeJson(l: Locations): string {
  return join(l.home, ".claude.json");
}

/**
 * Every file of every family, in precedence order (first wins): project files first (Claude
 * Code's local entries sit just after our own project file), then user files.
 */
export function fileSpecs(
  l: Locations,
  claude: { document: unknown; approvals: ReturnType<typeof claudeApprovals> },
): FileSpec[] {
  const p = (file: string): string => join(l.cwd, file);
  const codexHome = l.env["CODEX_HOME"] || join(l.home, ".codex");
  const zedUser =
    l.platform === "win32" ? join(appData(l), "Zed", "settings.json") : join(xdgConfig(l), "zed", "settings.json");
  const opencodeUser = join(xdgConfig(l), "opencode");
  const vscodeUser = (edition: string): string => join(appSettings(l), edition, "User", "mcp.json");
  return [
    { family: "mcp-client", scope: "project", file: p(OWN_FILE), format: "jsonc", read: readOwn },
    {
      family: "claude-code",
      scope: "local",
      file: claudeJson(l),
      format: "json",
      read: (doc) => readClaudeLocal(doc, l.cwd),
    },
    {
      family: "claude-code",
      scope: "project",
      file: p(".mcp.json"),
      format: "json",
      read: (doc) => readClaudeProject(doc, claude.approvals),
    },
    { family: "mcp-client", scope: "project", file: p("mcp.json"), format: "jsonc", read: readOwn },
    { family: "cursor", scope: "project", file: p(join(".cursor", "mcp.json")), format: "jsonc", read: readCursor },
    { family: "vscode", scope: "project", file: p(join(".vscode", "mcp.json")), format: "jsonc", read: readVsCode },
    {
      family: "gemini",
      scope: "project",
      file: p(join(".gemini", "settings.json")),
      format: "jsonc",
      read: readGemini,
    },
    { family: "opencode", scope: "project", file: p("opencode.json"), format: "jsonc", read: readOpencode },
    { family: "opencode", scope: "project", file: p("opencode.jsonc"), format: "jsonc", read: readOpencode },
    { family: "zed", scope: "project", file: p(join(".zed", "settings.json")), format: "jsonc", read: readZed },
    { family: "mcp-client", scope: "user", file: ownUserFile(l), format: "jsonc", read: readOwn },
    { family: "claude-code", scope: "user", file: claudeJson(l), format: "json", read: readClaudeUser },
    {
      family: "claude-desktop",
      scope: "user",
      file: join(appSettings(l), "Claude", "claude_desktop_config.json"),
      format: "json",
      read: readClaudeDesktop,
    },
    { family: "cursor", scope: "user", file: join(l.home, ".cursor", "mcp.json"), format: "jsonc", read: readCursor },
    { family: "vscode", scope: "user", file: vscodeUser("Code"), format: "jsonc", read: readVsCode },
    { family: "vscode", scope: "user", file: vscodeUser("Code - Insiders"), format: "jsonc", read: readVsCode },
    {
      family: "windsurf",
      scope: "user",
      file: join(l.home, ".codeium", "windsurf", "mcp_config.json"),
      format: "jsonc",
      read: readWindsurf,
    },
    { family: "codex", scope: "user", file: join(codexHome, "config.toml"), format: "toml", read: readCodex },
    {
      family: "gemini",
      scope: "user",
      file: join(l.home, ".gemini", "settings.json"),
      format: "jsonc",
      read: readGemini,
    },
    {
      family: "opencode",
      scope: "user",
      file: join(opencodeUser, "opencode.json"),
      format: "jsonc",
      read: readOpencode,
    },
    {
      family: "opencode",
      scope: "user",
      file: join(opencodeUser, "opencode.jsonc"),
      format: "jsonc",
      read: readOpencode,
    },
    { family: "zed", scope: "user", file: zedUser, format: "jsonc", read: readZed },
  ];
}
