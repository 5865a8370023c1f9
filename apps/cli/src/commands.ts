import { getPrompt, ping, readResource, RequestTimeoutError, setLoggingLevel, type LoggingLevel, type MCPServerConfig, type Prompt } from "@mcp/client";
import type { PromptRow, ResourceRow, ServerRow, ToolRow } from "@mcp/inspector";
import type { MCPTool, ServerStatus } from "@mcp/manager";
import cliProgress from "cli-progress";
import Table from "cli-table3";
import { renderPrompt, renderResource, renderToolResult } from "./render.js";
import { parseArguments, signature, validateArguments } from "./schema.js";
import { openSession, settle, sourceOf, type GlobalOptions, type Session } from "./session.js";
import { CliError, color, EXIT, firstLine, note, out, printJson, tildify, warn } from "./ui.js";
import { closest } from "./words.js";

/** A table that wraps nothing and draws light borders, or plain columns when not on a terminal. */
function table(head: string[]): Table.Table {
  const tty = process.stdout.isTTY === true;
  return new Table({
    head: head.map((h) => color.bold(h)),
    style: { head: [], border: [], compact: !tty },
    chars: tty ? {} : { top: "", "top-mid": "", "top-left": "", "top-right": "", bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "", left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "  " },
  });
}

const label = (tool: Pick<MCPTool, "serverName" | "toolName">): string => `${tool.serverName}.${tool.toolName}`;

/** `mcp__server__tool`, `server.tool`, `server tool`, or a tool name only one server has. */
export function resolveTool(tools: MCPTool[], words: string[]): { tool: MCPTool; rest: string[] } {
  const [first, second] = words;
  if (!first) throw new CliError("name a tool: mcp call <tool> [args] (see: mcp tools)", EXIT.usage);
  const exact = tools.find((t) => t.name === first || label(t) === first);
  if (exact) return { tool: exact, rest: words.slice(1) };
  if (second !== undefined) {
    const pair = tools.find((t) => t.serverName === first && t.toolName === second);
    if (pair) return { tool: pair, rest: words.slice(2) };
  }
  const bare = tools.filter((t) => t.toolName === first);
  if (bare.length === 1) return { tool: bare[0]!, rest: words.slice(1) };
  if (bare.length > 1) throw new CliError(`tool "${first}" is offered by several servers: ${bare.map(label).join(", ")}; name one as server.tool`, EXIT.usage);
  const near = closest(first, [...new Set([...tools.map(label), ...tools.map((t) => t.toolName)])]);
  throw new CliError(`unknown tool "${first}"${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(", ")}?` : ""} (see: mcp tools)`, EXIT.usage);
}

/** Ctrl-C: the first aborts (the server is told with notifications/cancelled); a second one exits at once. */
function interruptible(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(EXIT.cancelled);
    controller.abort(new CliError("cancelled", EXIT.cancelled));
  };
  process.on("SIGINT", onSigint);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", onSigint) };
}

function progressReporter(name: string): { update: (p: { progress: number; total?: number | undefined; message?: string | undefined }) => void; stop: () => void } {
  if (!process.stderr.isTTY) {
    return {
      update: ({ progress, total, message }) => process.stderr.write(`progress ${progress}${total === undefined ? "" : `/${total}`}${message ? ` ${message}` : ""}\n`),
      stop: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${name} ${color.cyan("{bar}")} {value}/{total} {message}`, hideCursor: true, clearOnComplete: false, barsize: 30 },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: ({ progress, total, message }) => {
      const payload = { message: message ?? "" };
      if (!started) {
        bar.start(total ?? Math.max(progress, 1), progress, payload);
        started = true;
      } else {
        if (total !== undefined) bar.setTotal(total);
        bar.update(progress, payload);
      }
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}

/** A tool that is missing may belong to a server that failed: say which, and why. */
function withFailedServers(session: Session, error: unknown): unknown {
  const failed = session.manager.getStatuses().filter((s) => s.state === "failed");
  if (!(error instanceof CliError) || failed.length === 0) return error;
  const lines = failed.map((s) => {
    const config = session.configs[s.name];
    const command = config && "command" in config ? ` (command: ${[config.command, ...(config.args ?? [])].join(" ")})` : "";
    const tail = s.stderrTail ? `\n    stderr: ${s.stderrTail.trimEnd().split("\n").slice(-5).join("\n            ")}` : "";
    return `  server "${s.name}" failed to start${command}: ${firstLine(s.lastError, 300)}${tail}`;
  });
  return new CliError(`${error.message}\n${lines.join("\n")}`, error.exitCode);
}

function timeoutHint(error: unknown, what: string): never {
  if (RequestTimeoutError.isInstance(error)) throw new CliError(`${what} timed out after ${error.timeout}ms (raise the limit with --timeout <ms>)`);
  throw error;
}

// ─── commands ─────────────────────────────────────────────────────────────────

type Row = ServerRow;

/** A server that failed for want of a token (OAuth, or a plain 401): `mcp auth <name>` is the fix. */
function needsAuth(s: ServerStatus): boolean {
  return s.state === "failed" && (s.lastErrorCode === "oauth_error" || s.lastErrorStatus === 401);
}

/** The rows of `mcp servers --json -v` (and of the inspector's server list). */
export function serverRows(session: Session): Row[] {
  const statuses = session.manager.getStatuses();
  const result: Row[] = statuses.map((s: ServerStatus) => ({
    name: s.name,
    transport: s.transport,
    source: sourceOf(session, s.name),
    status: needsAuth(s) ? "needs authentication" : s.state,
    tools: s.state === "connected" || s.toolsFromCache ? s.toolCount : undefined,
    connectMs: s.connectMs,
    lastError: needsAuth(s) ? `run: mcp auth ${s.name} (${s.lastError ?? ""})` : s.lastError,
    stderrTail: s.stderrTail,
  }));
  for (const name of session.skipped) result.push({ name, transport: session.servers[name]?.config.type ?? "stdio", source: sourceOf(session, name), status: "not approved", tools: undefined, connectMs: undefined, lastError: "project server not approved (run in a terminal, or pass --yes)" });
  for (const error of session.configErrors) result.push({ name: error.server ?? "(file)", transport: "", source: error.file, status: "invalid", tools: undefined, connectMs: undefined, lastError: error.message });
  return result;
}

const STATUS_COLOR: Record<string, (s: string) => string> = { connected: color.green, failed: color.red, invalid: color.red, reconnecting: color.yellow, connecting: color.yellow, disabled: color.dim, "not approved": color.yellow, "needs authentication": color.yellow };

export async function serversCommand(globals: GlobalOptions, options: { verbose?: boolean }): Promise<number> {
  const session = await openSession(globals);
  try {
    await settle(session);
    const all = serverRows(session);
    if (globals.json) {
      printJson(all.map((row) => (options.verbose ? row : { ...row, stderrTail: undefined })));
    } else {
      const t = table(["NAME", "TRANSPORT", "SOURCE", "STATUS", "TOOLS", "TIME", "LAST ERROR"]);
      for (const row of all) {
        t.push([row.name, row.transport, tildify(row.source, session.home), (STATUS_COLOR[row.status] ?? String)(row.status), row.tools ?? "", row.connectMs === undefined ? "" : `${row.connectMs} ms`, firstLine(row.lastError, 70)]);
      }
      out(t.toString());
      if (options.verbose) {
        for (const row of all) {
          if (row.lastError) out(`\n${color.bold(row.name)}: ${row.lastError}`);
          if (row.stderrTail) out(`${color.dim("stderr:")}\n${row.stderrTail.trimEnd()}`);
        }
      }
    }
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

/** The elements of `mcp tools --json` (and of the inspector's tool list). */
export function toolRows(tools: MCPTool[]): ToolRow[] {
  return tools.map((t) => ({ name: t.name, server: t.serverName, tool: t.toolName, title: t.title, description: t.description, inputSchema: t.inputSchema as ToolRow["inputSchema"], outputSchema: t.outputSchema, annotations: t.annotations }));
}

/** The elements of `mcp resources --json` for the given connected servers. */
export async function resourceRows(session: Session, names: string[]): Promise<ResourceRow[]> {
  const all: ResourceRow[] = [];
  for (const name of names) {
    for (const r of await session.manager.listResources(name)) all.push({ server: name, uri: r.uri, name: r.name, mimeType: r.mimeType, description: r.description, template: false });
    for (const t of await session.manager.listResourceTemplates(name)) all.push({ server: name, uri: t.uriTemplate, name: t.name, mimeType: t.mimeType, description: t.description, template: true });
  }
  return all;
}

/** The elements of `mcp prompts --json` for the given connected servers. */
export async function promptRows(session: Session, names: string[]): Promise<PromptRow[]> {
  const all: PromptRow[] = [];
  for (const name of names) for (const prompt of await session.manager.listPrompts(name)) all.push({ server: name, ...prompt });
  return all;
}

export async function toolsCommand(globals: GlobalOptions, server: string | undefined): Promise<number> {
  const session = await openSession(server ? { ...globals, server: [server] } : globals);
  try {
    const tools = session.manager.getTools();
    if (globals.json) {
      printJson(toolRows(tools));
      return EXIT.ok;
    }
    let current: string | undefined;
    for (const tool of tools) {
      if (tool.serverName !== current) {
        current = tool.serverName;
        out(`${color.bold(current)}${tool.deferred ? color.dim(" (from cache; server still starting)") : ""}`);
      }
      out(`  ${signature(tool.toolName, tool.inputSchema)}${tool.description ? color.dim(`  ${firstLine(tool.description, 70)}`) : ""}`);
    }
    for (const status of session.manager.getStatuses()) if (status.state === "failed") warn(`${status.name}: ${firstLine(status.lastError, 200)}`);
    if (tools.length === 0) note("No tools. See: mcp servers");
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function callCommand(globals: GlobalOptions, words: string[], options: { outDir?: string }): Promise<number> {
  const session = await openSession(globals);
  const { signal, dispose } = interruptible();
  try {
    let resolved;
    try {
      resolved = resolveTool(session.manager.getTools(), words);
    } catch (error) {
      throw withFailedServers(session, error);
    }
    const { tool, rest } = resolved;
    const args = parseArguments(rest, tool.inputSchema, session.cwd);
    validateArguments(label(tool), args, tool.inputSchema);
    const progress = progressReporter(label(tool));
    let result;
    try {
      result = await tool.call(args, { signal, onProgress: progress.update, resetTimeoutOnProgress: true, ...(globals.timeout === undefined ? {} : { timeout: globals.timeout }) });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      timeoutHint(error, `calling ${label(tool)}`);
    } finally {
      progress.stop();
    }
    if (globals.json) printJson(result);
    else renderToolResult(result, options.outDir ?? session.cwd, tool.toolName);
    if (result.isError === true) {
      if (!globals.json) warn(`${label(tool)} reported an error (isError)`);
      return EXIT.failure;
    }
    return EXIT.ok;
  } finally {
    dispose();
    await session.close();
  }
}

async function connected(session: Session, only: string | undefined): Promise<string[]> {
  await settle(session);
  return session.manager
    .getStatuses()
    .filter((s) => s.state === "connected" && (only === undefined || s.name === only))
    .map((s) => s.name);
}

export async function resourcesCommand(globals: GlobalOptions, server: string | undefined): Promise<number> {
  const session = await openSession(server ? { ...globals, server: [server] } : globals);
  try {
    const all = await resourceRows(session, await connected(session, server));
    if (globals.json) printJson(all);
    else {
      const t = table(["SERVER", "URI", "NAME", "TYPE"]);
      for (const r of all) t.push([r.server, r.template ? `${r.uri} ${color.dim("(template)")}` : r.uri, r.name, r.mimeType ?? ""]);
      out(t.toString());
    }
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function readCommand(globals: GlobalOptions, uri: string, options: { outDir?: string }): Promise<number> {
  const session = await openSession(globals);
  try {
    const names = await connected(session, undefined);
    const owners: string[] = [];
    for (const name of names) {
      const resources = await session.manager.listResources(name).catch(() => []);
      if (resources.some((r) => r.uri === uri)) owners.push(name);
    }
    let lastError: unknown;
    for (const name of [...owners, ...names.filter((n) => !owners.includes(n))]) {
      const connection = session.manager.getConnection(name);
      if (!connection?.capabilities.resources) continue;
      try {
        const result = await readResource(connection, uri, globals.timeout === undefined ? {} : { timeout: globals.timeout });
        if (globals.json) printJson({ server: name, ...result });
        else renderResource(result, options.outDir ?? session.cwd, "resource");
        return EXIT.ok;
      } catch (error) {
        lastError = error;
      }
    }
    throw new CliError(`no server could read ${uri}${lastError ? `: ${(lastError as Error).message}` : " (no connected server offers resources)"}`);
  } finally {
    await session.close();
  }
}

function promptSignature(prompt: { name: string; arguments?: { name: string; required?: boolean | undefined }[] | undefined }): string {
  return `${prompt.name}(${(prompt.arguments ?? []).map((a) => `${a.name}${a.required ? "" : "?"}`).join(", ")})`;
}

export async function promptsCommand(globals: GlobalOptions, server: string | undefined): Promise<number> {
  const session = await openSession(server ? { ...globals, server: [server] } : globals);
  try {
    const all = await promptRows(session, await connected(session, server));
    if (globals.json) printJson(all);
    else {
      let current: string | undefined;
      for (const prompt of all) {
        if (prompt.server !== current) out(color.bold((current = prompt.server)));
        out(`  ${promptSignature(prompt)}${prompt.description ? color.dim(`  ${firstLine(prompt.description, 70)}`) : ""}`);
      }
    }
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function promptCommand(globals: GlobalOptions, words: string[], options: { outDir?: string }): Promise<number> {
  const session = await openSession(globals);
  try {
    const all: { server: string; prompt: Prompt }[] = [];
    for (const name of await connected(session, undefined)) for (const prompt of await session.manager.listPrompts(name)) all.push({ server: name, prompt });
    const [first = "", ...rest] = words;
    const dot = all.find(({ server, prompt }) => `${server}.${prompt.name}` === first);
    const bare = all.filter(({ prompt }) => prompt.name === first);
    const found = dot ?? (bare.length === 1 ? bare[0] : undefined);
    if (!found) {
      if (bare.length > 1) throw new CliError(`prompt "${first}" is offered by several servers: ${bare.map((b) => `${b.server}.${first}`).join(", ")}`, EXIT.usage);
      const near = closest(first, all.map(({ server, prompt }) => `${server}.${prompt.name}`));
      throw new CliError(`unknown prompt "${first}"${near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(", ")}?` : ""} (see: mcp prompts)`, EXIT.usage);
    }
    const args = Object.fromEntries(Object.entries(parseArguments(rest, undefined, session.cwd)).map(([k, v]) => [k, String(v)]));
    const missing = (found.prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
    if (missing.length) throw new CliError(`prompt ${found.server}.${found.prompt.name} needs ${missing.map((m) => `${m}=…`).join(" ")}`, EXIT.usage);
    const connection = session.manager.getConnection(found.server)!;
    const result = await getPrompt(connection, found.prompt.name, args).catch((error: unknown) => timeoutHint(error, `getting prompt ${found.prompt.name}`));
    if (globals.json) printJson(result);
    else renderPrompt(result, options.outDir ?? session.cwd, found.prompt.name);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

/** The config of one HTTP server, for `auth` / `logout`. */
function httpConfigOf(session: Session, name: string): MCPServerConfig {
  const config = session.configs[name];
  if (!config) throw new CliError(`no server named "${name}" (see: mcp servers)`, EXIT.usage);
  if (!("url" in config)) throw new CliError(`"${name}" is a stdio server; OAuth applies to HTTP servers (a stdio server gets its credentials from its env)`, EXIT.usage);
  return config;
}

export async function authCommand(globals: GlobalOptions, name: string, options: { open?: boolean }): Promise<number> {
  const session = await openSession({ ...globals, server: [name] }, { connect: false, allowEmbedded: false });
  try {
    const config = httpConfigOf(session, name);
    await session.manager.authorizeServer(name, config, {
      open: options.open,
      onUrl: (url) => note(`To authorize "${name}", open: ${url}`),
    });
    out(`Authorized "${name}"; its tokens are saved for the next runs.`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function logoutCommand(globals: GlobalOptions, name: string): Promise<number> {
  const session = await openSession({ ...globals, server: [name] }, { connect: false, allowEmbedded: false });
  try {
    await session.manager.logoutServer(name, httpConfigOf(session, name));
    out(`Forgot the tokens of "${name}".`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function pingCommand(globals: GlobalOptions, server: string | undefined): Promise<number> {
  const session = await openSession(server ? { ...globals, server: [server] } : globals);
  try {
    await settle(session);
    const results: { server: string; ms?: number; error?: string }[] = [];
    for (const status of session.manager.getStatuses()) {
      const connection = session.manager.getConnection(status.name);
      if (!connection) {
        results.push({ server: status.name, error: status.lastError ?? status.state });
        continue;
      }
      const started = performance.now();
      try {
        await ping(connection, { timeout: globals.timeout ?? 10_000 });
        results.push({ server: status.name, ms: Math.round((performance.now() - started) * 10) / 10 });
      } catch (error) {
        results.push({ server: status.name, error: (error as Error).message });
      }
    }
    if (globals.json) printJson(results);
    else for (const r of results) out(r.error ? `${r.server}  ${color.red(firstLine(r.error, 100))}` : `${r.server}  ${color.green(`${r.ms} ms`)}`);
    return results.some((r) => r.error) ? EXIT.failure : EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function watchCommand(globals: GlobalOptions, server: string | undefined, options: { level?: string }): Promise<number> {
  const stamp = (): string => new Date().toISOString().slice(11, 23);
  const print = (name: string, method: string, params: unknown): void => {
    if (globals.json) out(JSON.stringify({ time: new Date().toISOString(), server: name, method, params }));
    else out(`${color.dim(stamp())} ${color.bold(name)} ${color.cyan(method)} ${JSON.stringify(params ?? {})}`);
  };
  const session = await openSession(server ? { ...globals, server: [server] } : globals, { connect: false, onNotification: print });
  session.manager.onStatusChange((s) => note(`${stamp()} ${s.name} ${s.state}${s.lastError ? `: ${firstLine(s.lastError, 100)}` : ""}`));
  const { signal, dispose } = interruptible();
  try {
    await session.manager.connectServers(session.configs, session.servers);
    for (const name of await connected(session, server)) {
      const connection = session.manager.getConnection(name)!;
      if (connection.capabilities.logging) await setLoggingLevel(connection, (options.level ?? "info") as LoggingLevel).catch(() => undefined);
    }
    note(`Watching ${Object.keys(session.configs).join(", ")}; Ctrl-C to stop.`);
    await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    return EXIT.ok;
  } finally {
    dispose();
    await session.close();
  }
}
