// The commands that talk to servers: `tools`, `call`, `prompts`, `resources` and the rest.
import { existsSync } from "node:fs";
import { getPrompt, type CallToolResult } from "@mcp/client";
import { promptArguments } from "@mcp/adapters/arguments";
import { openRecording, RecordingError } from "@mcp/replay";
import {
  connectedServers,
  findPrompt,
  promptRows,
  readResourceFrom,
  resourceRows,
  serverNamesOf,
  toolRows,
  toolsNamed,
  unreadable,
} from "@mcp/manager";
import { callParamsFor, callThroughDaemon } from "@mcp/daemon/client";
import { daemonSocket } from "./daemon/command.js";
import { failureHint, interruptible, progressReporter, taskReporter } from "./live.js";
import { renderPrompt, renderResource, renderToolResult } from "./render.js";
import { serverFromUrl } from "./call-url.js";
import { failureOf, label, mustStart, prepareCall, splitTarget, startNamed, unknownTool } from "./resolve.js";
import { heldOf, heldText } from "./pins-view.js";
import { parseArguments } from "./schema.js";
import { openSession, serverNames, settle, withSession, type GlobalOptions, type Session } from "./session.js";
import { toolDocs, toolLine } from "./tool-docs.js";
import { show } from "./listing.js";
import { CliError, color, EXIT, firstLine, note, out, printJson, usageError, warn } from "./ui.js";

// ─── commands ─────────────────────────────────────────────────────────────────

// `servers` lives in server-list.ts; exported here with the other commands.
export { serversCommand } from "./server-list.js";
export { mustStart };

/**
 * `tools [server] [tool]`: one line per tool; one tool's whole docs (`tools server.tool`, `tools
 * server tool`); every tool's with `--verbose`.
 */
export async function toolsCommand(
  globals: GlobalOptions,
  server: string | undefined,
  tool: string | undefined,
  options: { verbose?: boolean } = {},
): Promise<number> {
  let target = server;
  let name = tool;
  // `server.tool` (or `mcp__server__tool`) when no server has that name.
  if (server !== undefined && tool === undefined) {
    const names = await serverNames(globals);
    if (!names.includes(server)) {
      const split = splitTarget([server], names);
      if (split.server !== undefined) [target, name] = [split.server, split.name];
    }
  }
  return withSession(only(globals, target), {}, async (session) => {
    mustStart(session, target);
    // Live lists only: each one fetched also rewrites that server's cache entry.
    await settle(session);
    const named = target === undefined ? undefined : session.manager.getConnectionStatus(target);
    if (named?.state === "failed") throw new CliError(failureOf(session, named));
    const tools = session.manager.getTools();
    if (name !== undefined) {
      const [found] = toolsNamed(tools, name, target);
      const names = tools.map((t) => t.toolName);
      if (!found) unknownTool(session, name, tools, target, names);
      if (globals.json) printJson(toolRows([found])[0]);
      else out(toolDocs(found));
      return EXIT.ok;
    }
    if (globals.json) {
      printJson(toolRows(tools));
      return EXIT.ok;
    }
    let current: string | undefined;
    for (const t of tools) {
      if (t.serverName !== current) {
        if (options.verbose && current !== undefined) out("");
        current = t.serverName;
        out(`${color.bold(current)}${t.deferred ? color.dim(" (from cache; server still starting)") : ""}`);
      }
      out(options.verbose ? `\n${toolDocs(t, "  ")}` : toolLine(t));
    }
    const held = heldOf(session, target);
    if (held.length > 0)
      out(
        `${tools.length > 0 ? "\n" : ""}${color.bold("held")} ${color.dim("(changed since approved, or new: not offered to models nor callable; see mcp pins)")}\n${held.map((h) => heldText(h)).join("\n")}`,
      );
    else if (tools.length === 0) note("No tools. See: mcp servers");
    return reportFailures(session);
  });
}

/** How `mcp call` prints a result (`--output`, whose choices commander checks; `--json` is `json`). */
type Output = "text" | "markdown" | "json" | "raw";

export async function callCommand(
  given: GlobalOptions,
  tool: string,
  args: string[],
  options: { outDir?: string; saveImages?: string; maxResultChars?: string; record?: string; output?: string },
): Promise<number> {
  // `mcp call <url> <tool> …`: the server at that URL, as --http <url> gives it.
  const { globals, words } = serverFromUrl(given, [tool, ...args]);
  const output = (options.output ?? (globals.json ? "json" : "text")) as Output;
  if (globals.json && output !== "json")
    throw new CliError(`--json and --output ${output} say two things: give one`, EXIT.usage);
  if (options.saveImages !== undefined && options.outDir !== undefined && options.saveImages !== options.outDir)
    throw new CliError("--save-images and --out-dir name the same folder: give one", EXIT.usage);
  const outDir = options.outDir ?? options.saveImages;
  const maxResultChars = options.maxResultChars === undefined ? undefined : Number(options.maxResultChars);
  if (maxResultChars !== undefined && !(Number.isInteger(maxResultChars) && maxResultChars > 0))
    throw new CliError(`--max-result-chars takes a whole number above 0, not "${options.maxResultChars}"`, EXIT.usage);
  // --record: the connection is this process's own (never the daemon's), and records itself.
  const recording = options.record === undefined ? undefined : recordTo(options.record);
  const { signal, dispose } = interruptible();
  const session = await openSession(globals, {
    connect: false,
    ...(recording ? { manager: { connect: { record: recording.record } } } : {}),
  }).catch(async (error: unknown) => {
    dispose();
    await recording?.close();
    throw error;
  });
  try {
    // A server given by URL is this process's own too: the daemon would keep it.
    const viaDaemon =
      recording || globals.ephemeral ? undefined : await callViaDaemon(session, globals, words, maxResultChars, signal);
    if (viaDaemon) return finishCall(output, viaDaemon, outDir ?? session.cwd);
    const { tool, args } = await prepareCall(session, words, signal);
    const progress = progressReporter(label(tool));
    let result;
    try {
      // A tool that runs as a task says each status; Ctrl-C cancels the task on the server too.
      result = await tool.call(args, {
        signal,
        onProgress: progress.update,
        onTaskStatus: taskReporter(),
        resetTimeoutOnProgress: true,
        ...(globals.timeout === undefined ? {} : { timeout: globals.timeout }),
        ...(maxResultChars === undefined ? {} : { maxResultChars }),
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      failureHint(error, `calling ${label(tool)}`);
    } finally {
      progress.stop();
    }
    return finishCall(output, { label: label(tool), toolName: tool.toolName, value: result }, outDir ?? session.cwd);
  } finally {
    dispose();
    await session.close();
    await recording?.close();
  }
}

/** Opens `--record <file>` (@mcp/replay's openRecording): a file that cannot be created is a usage error; a write that fails is warned once. */
function recordTo(file: string): ReturnType<typeof openRecording> {
  try {
    return openRecording(file, {
      onError: (error) => warn(`--record ${file}: ${error.message}; the recording is incomplete`),
    });
  } catch (error) {
    if (error instanceof RecordingError) throw new CliError(`--record ${error.message}`, EXIT.usage);
    throw error;
  }
}

/** A tool call's outcome, wherever it ran. */
interface CalledTool {
  label: string;
  toolName: string;
  value: CallToolResult;
}

/**
 * `mcp call` through the daemon, when one runs (@mcp/daemon/client's callThroughDaemon; never with
 * `MCP_NO_DAEMON=1`): the servers as this session found them, as this shell runs them. Undefined
 * when none ran it, saying why when a daemon was there: the call then runs here.
 */
async function callViaDaemon(
  session: Session,
  globals: GlobalOptions,
  words: string[],
  maxResultChars: number | undefined,
  signal: AbortSignal,
): Promise<CalledTool | undefined> {
  const socket = daemonSocket();
  if (process.env["MCP_NO_DAEMON"] === "1" || (process.platform !== "win32" && !existsSync(socket))) return undefined;
  const instead = (why: string): undefined => void note(`mcp daemon: ${why}; starting the server here instead`);
  // Tool lists and OAuth tokens in Redis: the daemon keeps none of its own there.
  if (session.shared)
    return instead(
      "not used while MCP_REDIS_URL is set (the daemon keeps tool lists and OAuth tokens only in your folders, not in Redis)",
    );
  let progress: ReturnType<typeof progressReporter> | undefined;
  const params = callParamsFor(session, { words, timeout: globals.timeout, maxResultChars });
  const outcome = await callThroughDaemon(socket, params, {
    signal,
    onProgress: (p) => (progress ??= progressReporter(words[0] ?? "tool")).update(p),
  }).finally(() => progress?.stop());
  if (outcome.ran) return outcome.answer as CalledTool;
  return instead(
    outcome.why === "outdated"
      ? "the running daemon is from an earlier mcp and cannot run a call as this shell would (stop it with: mcp daemon stop)"
      : outcome.message,
  );
}

/** Prints a call's result as `output` says; exit 1 when the tool reported an error. */
function finishCall(output: Output, called: CalledTool, outDir: string): number {
  if (output === "json") printJson(called.value);
  else renderToolResult(called.value, output, outDir, called.toolName);
  if (called.value.isError === true) {
    if (output !== "json") warn(`${called.label} reported an error (isError)`);
    return EXIT.failure;
  }
  return EXIT.ok;
}

/** Says why each server that failed failed (with its command or URL, and a hint); exit 1 if any did. */
export function reportFailures(session: Session): number {
  const failed = session.manager.getStatuses().filter((status) => status.state === "failed");
  for (const status of failed) warn(failureOf(session, status));
  return failed.length > 0 ? EXIT.failure : EXIT.ok;
}

/** The connected servers' names (`only` alone, when named), once every server still connecting is done (@mcp/manager's connectedServers). */
export const connected = (session: Session, only: string | undefined): Promise<string[]> =>
  connectedServers(session.manager, session, only);

/** The options with `--server` narrowed to `server`, when one is named. */
export function only(globals: GlobalOptions, server: string | undefined): GlobalOptions {
  return server ? { ...globals, server: [server] } : globals;
}

/**
 * A command over the named server or every one: the session narrowed to it (failing with why it
 * cannot start), `run` given the connected servers' names; then why each failed server failed, exit 1 if any did.
 */
export function overServers(
  globals: GlobalOptions,
  server: string | undefined,
  run: (session: Session, names: string[]) => Promise<void>,
  options: Parameters<typeof withSession>[1] = {},
): Promise<number> {
  return withSession(only(globals, server), options, async (session) => {
    mustStart(session, server);
    await run(session, await connected(session, server));
    return reportFailures(session);
  });
}

export async function resourcesCommand(globals: GlobalOptions, server: string | undefined): Promise<number> {
  return overServers(globals, server, async (session, names) => {
    // The type gives way first, then the name, then the URI (cut at its start); a server's name never.
    show(globals.json, await resourceRows(session.manager, names), {
      table: [
        { title: "SERVER", cut: "never", cell: (r) => r.server },
        { title: "URI", cut: "left", yields: 3, cell: (r) => (r.template ? `${r.uri} (template)` : r.uri) },
        { title: "NAME", yields: 2, cell: (r) => r.name },
        { title: "TYPE", yields: 1, cell: (r) => r.mimeType ?? "" },
      ],
    });
  });
}

/** `read <uri>` asks every server (those whose list has the URI first); `read <server> <uri>` starts only that one. */
export async function readCommand(
  globals: GlobalOptions,
  first: string,
  second: string | undefined,
  options: { outDir?: string },
): Promise<number> {
  const [server, uri] = second === undefined ? [undefined, first] : [first, second];
  return withSession(only(globals, server), { connect: false }, async (session) => {
    const names = await startNamed(session, server);
    const read = await readResourceFrom(session.manager, uri, names, { timeout: globals.timeout }).catch((error) => {
      throw new CliError(unreadable(uri, server, error));
    });
    if (!read) throw new CliError(unreadable(uri, server));
    if (globals.json) printJson({ server: read.server, ...read.result });
    else renderResource(read.result, options.outDir ?? session.cwd, "resource");
    return EXIT.ok;
  });
}

function promptSignature(prompt: {
  name: string;
  arguments?: { name: string; required?: boolean | undefined }[] | undefined;
}): string {
  return `${prompt.name}(${(prompt.arguments ?? []).map((a) => `${a.name}${a.required ? "" : "?"}`).join(", ")})`;
}

export async function promptsCommand(globals: GlobalOptions, server: string | undefined): Promise<number> {
  let current: string | undefined;
  return overServers(globals, server, async (session, names) =>
    show(globals.json, await promptRows(session.manager, names), {
      line: (prompt) =>
        `${prompt.server === current ? "" : `${color.bold((current = prompt.server))}\n`}  ${promptSignature(prompt)}${prompt.description ? color.dim(`  ${firstLine(prompt.description, 70)}`) : ""}`,
    }),
  );
}

/** `prompt server.name` (or `server name`) starts only that server; a bare name asks every server. */
export async function promptCommand(
  globals: GlobalOptions,
  name: string,
  words: string[],
  options: { outDir?: string },
): Promise<number> {
  return withSession(globals, { connect: false }, async (session) => {
    const { server, name: first, rest } = splitTarget([name, ...words], serverNamesOf(session));
    const found = await findPrompt(session.manager, first, await startNamed(session, server), server).catch(usageError);
    const { args, missing } = promptArguments(found.prompt, parseArguments(rest, undefined, session.cwd));
    if (missing.length)
      throw new CliError(
        `prompt ${found.server}.${found.prompt.name} needs ${missing.map((m) => `${m}=…`).join(" ")}`,
        EXIT.usage,
      );
    const connection = session.manager.getConnection(found.server)!;
    const result = await getPrompt(connection, found.prompt.name, args).catch((error: unknown) =>
      failureHint(error, `getting prompt ${found.prompt.name}`),
    );
    if (globals.json) printJson(result);
    else renderPrompt(result, options.outDir ?? session.cwd, found.prompt.name);
    return EXIT.ok;
  });
}
