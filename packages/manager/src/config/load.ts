// `loadAllMCPConfigs`: every host's config files found, read, expanded and validated into one list of servers.
import { homedir } from "node:os";
import { isAbsolute, resolve, sep } from "node:path";
import { parseEnv } from "node:util";
import type { MCPServerConfig } from "@mcp/client";
import { expandDeep, inputsIn, MissingInputError, UnsetVariableError, type ExpandContext } from "./expand.js";
import { claudeJson, fileSpecs, type FileSpec } from "./families.js";
import { claudeApprovals, readOwn, type Candidate } from "./readers.js";
import { ConfigSyntaxError, parseJsonFile, parseTomlFile, readIfExists } from "./parse.js";
import { envFileBase, pathOf, placeUserServer } from "./spawn-dir.js";
import type { ConfigError, DiscoveredServer, InputDefinition, LoadOptions, LoadResult } from "./types.js";
import { serverConfigProblems } from "@mcp/client";
import { markDiscovered } from "../approvals/tag.js";

/** The fields that take `${…}` expansion. */
const EXPANDED = ["command", "args", "env", "url", "headers", "cwd", "proxy", "ca"] as const;

/**
 * Reads every MCP server config the user already has — Claude Code, Claude Desktop, Cursor,
 * VS Code, Windsurf, Codex, Gemini CLI, opencode, Zed and our own file — and returns one
 * normalised entry per name, in a documented precedence (see the README). A broken file or entry
 * is an error naming the file (and line, or server); it never stops the others.
 */
export async function loadAllMCPConfigs(cwd: string, options: LoadOptions = {}): Promise<LoadResult> {
  const env = options.env ?? process.env;
  const locations = {
    home: options.home ?? homedir(),
    cwd: resolve(cwd),
    platform: options.platform ?? process.platform,
    env,
  };
  const errors: ConfigError[] = [];
  const texts = new Map<string, Promise<string | undefined>>();
  const read = (file: string): Promise<string | undefined> => {
    let text = texts.get(file);
    if (!text) texts.set(file, (text = readIfExists(file)));
    return text;
  };
  const reported = new Set<string>();
  const fail = (error: ConfigError): void => {
    const key = `${error.file}\0${error.server ?? ""}\0${error.message}`;
    if (!reported.has(key)) {
      reported.add(key);
      errors.push(error);
    }
  };
  const parsed = async (spec: Pick<FileSpec, "file" | "format">): Promise<unknown> => {
    try {
      const text = await read(spec.file);
      if (text === undefined) return undefined;
      return spec.format === "toml"
        ? parseTomlFile(spec.file, text)
        : parseJsonFile(spec.file, text, spec.format === "json");
    } catch (error) {
      const syntax =
        error instanceof ConfigSyntaxError ? error : new ConfigSyntaxError(spec.file, (error as Error).message);
      fail({ file: syntax.file, line: syntax.line, column: syntax.column, message: syntax.message });
      return undefined;
    }
  };

  const claudeDocument = await parsed({ file: claudeJson(locations), format: "json" });
  let specs: FileSpec[] = [
    ...(options.extraFiles ?? []).map((file): FileSpec => ({
      family: "mcp-client",
      scope: "user",
      file: resolve(locations.cwd, file),
      format: "jsonc",
      read: readOwn,
    })),
    ...fileSpecs(locations, { document: claudeDocument, approvals: claudeApprovals(claudeDocument, locations.cwd) }),
  ];
  const extra = new Set((options.extraFiles ?? []).map((file) => resolve(locations.cwd, file)));
  if (options.families) specs = specs.filter((spec) => extra.has(spec.file) || options.families!.includes(spec.family));
  if (options.scopes) specs = specs.filter((spec) => extra.has(spec.file) || options.scopes!.includes(spec.scope));
  if (options.enableProjectConfig === false) specs = specs.filter((spec) => spec.scope !== "project");

  const servers: Record<string, DiscoveredServer> = {};
  const shadowed: DiscoveredServer[] = [];
  for (const spec of specs) {
    const document = await parsed(spec);
    if (document === undefined) continue;
    let output;
    try {
      output = spec.read(document);
    } catch (error) {
      fail({
        file: spec.file,
        message: `${spec.file}: could not be read as a ${spec.family} config: ${(error as Error).message}`,
      });
      continue;
    }
    for (const candidate of output.candidates) {
      const server = await normalise(candidate, spec, output.inputs, locations, options, fail);
      if (!server) continue;
      if (servers[server.name]) shadowed.push(server);
      else servers[server.name] = server;
    }
  }

  const configs: Record<string, MCPServerConfig> = {};
  const sources: Record<string, string> = {};
  for (const [name, server] of Object.entries(servers)) {
    if (!server.enabled) continue;
    configs[name] = server.config;
    sources[name] = server.source.file;
  }
  return { configs, sources, servers, shadowed, errors };
}

/** One candidate to a valid entry: inputs resolved, variables expanded, envFile merged, validated. */
async function normalise(
  candidate: Candidate,
  spec: FileSpec,
  inputs: InputDefinition[] | undefined,
  locations: { home: string; cwd: string; platform: NodeJS.Platform; env: Record<string, string | undefined> },
  options: LoadOptions,
  fail: (error: ConfigError) => void,
): Promise<DiscoveredServer | undefined> {
  const where = `MCP server "${candidate.name}" in ${spec.file}`;
  const problem = (message: string): undefined => {
    fail({ file: spec.file, server: candidate.name, message: `${where}: ${message}` });
    return undefined;
  };
  if (candidate.problem) return problem(candidate.problem);

  const context: ExpandContext = {
    env: locations.env,
    home: locations.home,
    workspace: locations.cwd,
    separator: sep,
    inputs: new Map(),
  };
  const expandable: Record<string, unknown> = {};
  for (const key of EXPANDED) if (candidate.config[key] !== undefined) expandable[key] = candidate.config[key];
  for (const id of inputsIn(expandable)) {
    const definition = inputs?.find((input) => input.id === id) ?? { id };
    const given = options.inputs;
    const value =
      typeof given === "function" ? await given(definition, { server: candidate.name, file: spec.file }) : given?.[id];
    if (value !== undefined) context.inputs.set(id, value);
  }
  let expanded: Record<string, unknown>;
  try {
    expanded = expandDeep(expandable, context);
  } catch (error) {
    if (error instanceof UnsetVariableError || error instanceof MissingInputError) return problem(error.message);
    throw error;
  }
  let config: Record<string, unknown> = { ...candidate.config, ...expanded };

  if (candidate.envFile !== undefined) {
    let path: string;
    try {
      path = expandDeep(candidate.envFile, context);
    } catch (error) {
      return problem((error as Error).message);
    }
    const file = isAbsolute(path)
      ? path
      : resolve(envFileBase({ scope: spec.scope, file: spec.file, cwd: locations.cwd }), path);
    const text = await readIfExists(file).catch(() => undefined);
    if (text === undefined) return problem(`"envFile" ${file} does not exist`);
    const fromFile = parseEnv(text) as Record<string, string>;
    config["env"] = { ...fromFile, ...(config["env"] ?? {}) };
  }
  const placed = placeUserServer(config, {
    scope: spec.scope,
    file: spec.file,
    home: locations.home,
    project: locations.cwd,
    path: pathOf(locations.env, locations.platform),
    platform: locations.platform,
  });
  if ("problem" in placed) return problem(placed.problem);
  config = placed.config;

  const problems = serverConfigProblems(config);
  if (problems.length > 0) return problem(problems.map((p) => p.message).join("; "));
  const written = {
    config: structuredClone(candidate.config),
    ...(candidate.envFile === undefined ? {} : { envFile: candidate.envFile }),
  };
  const server: DiscoveredServer = {
    name: candidate.name,
    config: config as unknown as MCPServerConfig,
    written,
    source: { family: spec.family, scope: spec.scope, file: spec.file },
    enabled: candidate.enabled,
  };
  if (candidate.approved !== undefined) server.approved = candidate.approved;
  if (candidate.tools) server.tools = candidate.tools;
  if (candidate.toolTimeoutMs !== undefined) server.toolTimeoutMs = candidate.toolTimeoutMs;
  markDiscovered(server);
  return server;
}
