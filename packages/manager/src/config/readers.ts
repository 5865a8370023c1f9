// Each host family's adapter: how the entries of its config file (Claude Code, Claude Desktop,
// Cursor, VS Code, Windsurf, Codex, Gemini, opencode, Zed, ours) map onto one normalised entry.
// An adapter only reshapes; expansion, validation and precedence are shared.
import type { InputDefinition, ToolFilter } from "./types.js";

/** An entry as an adapter read it: our config shape (not yet expanded or validated) and the host's extras. */
export interface Candidate {
  name: string;
  config: Record<string, unknown>;
  enabled: boolean;
  approved?: boolean | undefined;
  tools?: ToolFilter | undefined;
  toolTimeoutMs?: number | undefined;
  /** A dotenv file to merge under `env` (Cursor, VS Code), relative to the workspace. */
  envFile?: string | undefined;
  /** A problem the adapter already found (e.g. `ws` is not supported). */
  problem?: string | undefined;
}

/** What an adapter reads from one parsed file. */
export interface AdapterOutput {
  candidates: Candidate[];
  /** VS Code's `inputs`. */
  inputs?: InputDefinition[] | undefined;
}

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
}

function entries(value: unknown): [string, Obj][] {
  if (!isObject(value)) return [];
  return Object.entries(value).map(([name, raw]) => [name, isObject(raw) ? raw : { __notAnObject: raw }]);
}

/** Copies the fields our config shares with most hosts. */
function common(raw: Obj): Obj {
  const out: Obj = {};
  for (const key of [
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "headers",
    "timeout",
    "oauth",
    "headersHelper",
    "headersHelperTtlMs",
    "proxy",
    "ca",
  ])
    if (raw[key] !== undefined) out[key] = raw[key];
  return out;
}

const notAnObject = (raw: Obj): string | undefined =>
  "__notAnObject" in raw ? "the entry must be an object" : undefined;

/** `type` as Claude Code and Cursor write it; `ws` is refused, `streamable-http` is `http`. */
function typeOf(raw: Obj, fallbackForUrl: "http" | "sse"): { type?: string; problem?: string } {
  const type = raw["type"];
  if (type === undefined)
    return raw["url"] !== undefined && raw["command"] === undefined ? { type: fallbackForUrl } : {};
  if (type === "streamable-http" || type === "streamableHttp") return { type: "http" };
  if (type === "ws" || type === "websocket")
    return { problem: `server type "${type}" is not supported (use "http" or "sse")` };
  return typeof type === "string" ? { type } : { problem: `unknown server type ${JSON.stringify(type)}` };
}

/** The `mcpServers` shape of Claude Code, Claude Desktop, Cursor and our own file. */
function mcpServersShape(
  servers: unknown,
  extra: (name: string, raw: Obj) => Partial<Candidate> = () => ({}),
  extraKeys: readonly string[] = [],
): Candidate[] {
  return entries(servers).map(([name, raw]) => {
    const { type, problem } = typeOf(raw, "http");
    const config = common(raw);
    for (const key of extraKeys) if (raw[key] !== undefined) config[key] = raw[key];
    if (type !== undefined) config["type"] = type;
    const more = extra(name, raw);
    return {
      name,
      config,
      enabled: raw["disabled"] !== true && raw["enabled"] !== false,
      problem: notAnObject(raw) ?? problem,
      ...more,
    };
  });
}

function toolFilter(include: unknown, exclude: unknown): ToolFilter | undefined {
  const filter: ToolFilter = {};
  const only = stringList(include);
  const never = stringList(exclude);
  if (only) filter.include = only;
  if (never) filter.exclude = never;
  return only || never ? filter : undefined;
}

// ─── the families ─────────────────────────────────────────────────────────────

/** Our own file: `{ "servers": { name: { …MCPServerConfig, enabled?, includeTools?, excludeTools? } } }`. */
export function readOwn(document: unknown): AdapterOutput {
  const doc = isObject(document) ? document : {};
  return {
    candidates: mcpServersShape(
      doc["servers"] ?? doc["mcpServers"],
      (_name, raw) => ({ tools: toolFilter(raw["includeTools"], raw["excludeTools"]) }),
      ["inheritEnv", "stderr", "maxLineBytes", "maxMessageBytes", "fallbackToSse"],
    ),
  };
}

/** Claude Code: `~/.claude.json` (`mcpServers`: user; `projects[cwd].mcpServers`: local) and `.mcp.json` (project). */
export function readClaudeUser(document: unknown): AdapterOutput {
  return { candidates: mcpServersShape(isObject(document) ? document["mcpServers"] : undefined) };
}

export function readClaudeLocal(document: unknown, cwd: string): AdapterOutput {
  const project = isObject(document) && isObject(document["projects"]) ? document["projects"][cwd] : undefined;
  return { candidates: mcpServersShape(isObject(project) ? project["mcpServers"] : undefined) };
}

/** `.mcp.json`, with the approvals Claude Code keeps for the project in `~/.claude.json`. */
export function readClaudeProject(
  document: unknown,
  approvals: { enabled?: string[]; disabled?: string[]; all?: boolean },
): AdapterOutput {
  return {
    candidates: mcpServersShape(isObject(document) ? document["mcpServers"] : undefined).map((candidate) => {
      const disabled = approvals.disabled?.includes(candidate.name) === true;
      const approved = disabled
        ? false
        : approvals.all === true || approvals.enabled?.includes(candidate.name) === true
          ? true
          : undefined;
      return { ...candidate, enabled: candidate.enabled && !disabled, approved };
    }),
  };
}

/** The project-approval fields of `~/.claude.json` for one project. */
export function claudeApprovals(
  document: unknown,
  cwd: string,
): { enabled?: string[]; disabled?: string[]; all?: boolean } {
  const project = isObject(document) && isObject(document["projects"]) ? document["projects"][cwd] : undefined;
  if (!isObject(project)) return {};
  const out: { enabled?: string[]; disabled?: string[]; all?: boolean } = {};
  const enabled = stringList(project["enabledMcpjsonServers"]);
  const disabled = stringList(project["disabledMcpjsonServers"]);
  if (enabled) out.enabled = enabled;
  if (disabled) out.disabled = disabled;
  if (project["enableAllProjectMcpServers"] === true) out.all = true;
  return out;
}

/** Claude Desktop's `claude_desktop_config.json`: `mcpServers`, stdio. */
export function readClaudeDesktop(document: unknown): AdapterOutput {
  return { candidates: mcpServersShape(isObject(document) ? document["mcpServers"] : undefined) };
}

/** Cursor's `mcp.json`: `mcpServers` with `envFile`; a `url` is Streamable HTTP (with fallback to SSE). */
export function readCursor(document: unknown): AdapterOutput {
  return {
    candidates: mcpServersShape(isObject(document) ? document["mcpServers"] : undefined, (_name, raw) =>
      typeof raw["envFile"] === "string" ? { envFile: raw["envFile"] } : {},
    ),
  };
}

/** VS Code's `mcp.json`: top-level `servers` and `inputs`; JSONC. */
export function readVsCode(document: unknown): AdapterOutput {
  const doc = isObject(document) ? document : {};
  const inputs = Array.isArray(doc["inputs"])
    ? (doc["inputs"] as unknown[]).filter(
        (input): input is InputDefinition => isObject(input) && typeof input["id"] === "string",
      )
    : undefined;
  return {
    inputs,
    candidates: mcpServersShape(doc["servers"], (_name, raw) =>
      typeof raw["envFile"] === "string" ? { envFile: raw["envFile"] } : {},
    ),
  };
}

/** Windsurf's `mcp_config.json`: `mcpServers`; remote servers use `serverUrl`. */
export function readWindsurf(document: unknown): AdapterOutput {
  const servers = isObject(document) ? document["mcpServers"] : undefined;
  return {
    candidates: entries(servers).map(([name, raw]) => {
      const config = common(raw);
      const url = raw["serverUrl"] ?? raw["url"];
      if (url !== undefined) {
        config["url"] = url;
        config["type"] = raw["type"] === "sse" ? "sse" : "http";
      }
      return {
        name,
        config,
        enabled: raw["disabled"] !== true,
        tools: toolFilter(undefined, raw["disabledTools"]),
        problem: notAnObject(raw),
      };
    }),
  };
}

/** OpenAI Codex's `config.toml`: `[mcp_servers.<name>]`. */
export function readCodex(document: unknown): AdapterOutput {
  const servers = isObject(document) ? document["mcp_servers"] : undefined;
  return {
    candidates: entries(servers).map(([name, raw]) => {
      const config: Obj = {};
      for (const key of ["command", "args", "env", "cwd", "url"]) if (raw[key] !== undefined) config[key] = raw[key];
      if (raw["url"] !== undefined) config["type"] = "http";
      const headers: Obj = isObject(raw["http_headers"]) ? { ...raw["http_headers"] } : {};
      if (isObject(raw["env_http_headers"]))
        for (const [header, variable] of Object.entries(raw["env_http_headers"]))
          headers[header] = `\${${String(variable)}}`;
      if (typeof raw["bearer_token_env_var"] === "string")
        headers["Authorization"] = `Bearer \${${raw["bearer_token_env_var"]}}`;
      if (Object.keys(headers).length > 0) config["headers"] = headers;
      const startup =
        typeof raw["startup_timeout_sec"] === "number" ? raw["startup_timeout_sec"] * 1000 : raw["startup_timeout_ms"];
      if (startup !== undefined) config["timeout"] = startup;
      return {
        name,
        config,
        enabled: raw["enabled"] !== false,
        tools: toolFilter(raw["enabled_tools"], raw["disabled_tools"]),
        toolTimeoutMs: typeof raw["tool_timeout_sec"] === "number" ? raw["tool_timeout_sec"] * 1000 : undefined,
        problem: notAnObject(raw),
      };
    }),
  };
}

/** Gemini CLI's `settings.json`: `mcpServers`; `url` is HTTP+SSE, `httpUrl` Streamable HTTP. */
export function readGemini(document: unknown): AdapterOutput {
  const servers = isObject(document) ? document["mcpServers"] : undefined;
  return {
    candidates: entries(servers).map(([name, raw]) => {
      const config: Obj = {};
      for (const key of ["command", "args", "env", "cwd", "headers", "timeout"])
        if (raw[key] !== undefined) config[key] = raw[key];
      if (raw["httpUrl"] !== undefined) {
        config["url"] = raw["httpUrl"];
        config["type"] = "http";
      } else if (raw["url"] !== undefined) {
        config["url"] = raw["url"];
        config["type"] = "sse";
      }
      return {
        name,
        config,
        enabled: raw["disabled"] !== true,
        tools: toolFilter(raw["includeTools"], raw["excludeTools"]),
        problem: notAnObject(raw),
      };
    }),
  };
}

/** opencode's `opencode.json(c)`: `mcp.<name>` with `type: "local"` (`command: string[]`) or `"remote"`. */
export function readOpencode(document: unknown): AdapterOutput {
  const servers = isObject(document) ? document["mcp"] : undefined;
  return {
    candidates: entries(servers).map(([name, raw]) => {
      const config: Obj = {};
      let problem = notAnObject(raw);
      if (raw["type"] === "remote") {
        config["type"] = "http";
        if (raw["url"] !== undefined) config["url"] = raw["url"];
        if (raw["headers"] !== undefined) config["headers"] = raw["headers"];
      } else if (raw["type"] === "local" || raw["type"] === undefined) {
        const command = stringList(raw["command"]);
        if (command && command.length > 0) {
          config["command"] = command[0];
          config["args"] = command.slice(1);
        } else if (raw["command"] !== undefined)
          problem ??= '"command" must be an array of strings (the program, then its arguments)';
        if (raw["environment"] !== undefined) config["env"] = raw["environment"];
      } else {
        problem ??= `unknown server type ${JSON.stringify(raw["type"])}; opencode uses "local" or "remote"`;
      }
      if (raw["timeout"] !== undefined) config["timeout"] = raw["timeout"];
      return { name, config, enabled: raw["enabled"] !== false, problem };
    }),
  };
}

/** Zed's `settings.json`: `context_servers` (`command` as a string or as `{ path, args, env }`). JSONC. */
export function readZed(document: unknown): AdapterOutput {
  const servers = isObject(document) ? document["context_servers"] : undefined;
  return {
    candidates: entries(servers).map(([name, raw]) => {
      let config: Obj = common(raw);
      const command = raw["command"];
      if (isObject(command)) {
        config = {
          ...config,
          command: command["path"] ?? command["command"],
          args: command["args"],
          env: command["env"],
        };
        for (const key of Object.keys(config)) if (config[key] === undefined) delete config[key];
      }
      if (config["url"] !== undefined && config["type"] === undefined) config["type"] = "http";
      return { name, config, enabled: raw["enabled"] !== false, problem: notAnObject(raw) };
    }),
  };
}
