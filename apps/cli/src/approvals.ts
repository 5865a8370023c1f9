import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline/promises";
import type { MCPServerConfig } from "@mcp/client";
import type { DiscoveredServer } from "@mcp/manager";
import { commandLine, printable, serverBlock } from "./approval-view.js";
import { changedParts, fingerprintOf, isFingerprint, type Fingerprint } from "./fingerprint.js";
import { color, note, shortPath, warn, tildify } from "./ui.js";

/**
 * Project-scope servers come with a repository the user may not trust. An approval covers what a
 * server will run (its fingerprint: command, args, cwd, env, URL, headers, helpers; see
 * fingerprint.ts), not its name: any change asks again. On a terminal we ask and remember the
 * answer per project; `--yes` approves for one run; with no terminal and no `--yes` they are
 * skipped, and we say why and how to approve them. Claude Code's own approvals
 * (`enabledMcpjsonServers`, `enableAllProjectMcpServers`) are by name, as they are there.
 */

/**
 * One project's answers. `approved` is the by-name list an older mcp kept: read, never trusted (a
 * name in it is asked about again), and left empty by us, so an older mcp reading this file asks
 * rather than starting a changed server. `denied` is by name: a declined server stays declined
 * until `mcp config approve` names it.
 */
interface ProjectRecord {
  approved: string[];
  denied: string[];
  fingerprints: Record<string, Fingerprint>;
}

/** The file: a salt for the hashes (so equal configs on two machines hash apart), then each project's answers. */
interface Store {
  version: 2;
  salt: string;
  projects: Record<string, ProjectRecord>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Reads the file; what is missing or malformed counts as never answered (so it is asked again). */
async function readStore(file: string): Promise<Store> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, "utf8"));
  } catch {
    // none yet, or unreadable: ask again
  }
  const root = isObject(doc) ? doc : {};
  const salt = typeof root["salt"] === "string" && root["salt"].length >= 16 ? root["salt"] : randomBytes(18).toString("base64url");
  const projects: Record<string, ProjectRecord> = {};
  for (const [dir, raw] of Object.entries(isObject(root["projects"]) ? root["projects"] : {})) {
    if (!isObject(raw)) continue;
    const fingerprints: Record<string, Fingerprint> = {};
    // Fingerprints made with another salt can never match: dropped.
    if (isObject(raw["fingerprints"]) && root["salt"] === salt) for (const [name, print] of Object.entries(raw["fingerprints"])) if (isFingerprint(print)) fingerprints[name] = print;
    projects[dir] = { approved: names(raw["approved"]), denied: names(raw["denied"]), fingerprints };
  }
  return { version: 2, salt, projects };
}

async function writeStore(file: string, store: Store): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(store, null, 2), { mode: 0o600 });
  await rename(temp, file);
}

function recordOf(store: Store, project: string): ProjectRecord {
  return (store.projects[project] ??= { approved: [], denied: [], fingerprints: {} });
}

function approve(store: Store, record: ProjectRecord, name: string, config: MCPServerConfig): void {
  record.fingerprints[name] = fingerprintOf(config, store.salt);
  record.approved = record.approved.filter((n) => n !== name);
  record.denied = record.denied.filter((n) => n !== name);
}

/** Where answers are remembered. */
export function approvalsFile(configDir: string): string {
  return join(configDir, "approvals.json");
}

/** Records that these project servers, as they are now, are approved for this project (`mcp config approve`, `mcp config add`). */
export async function rememberApproval(file: string, project: string, servers: { name: string; config: MCPServerConfig }[]): Promise<void> {
  const store = await readStore(file);
  const record = recordOf(store, project);
  for (const server of servers) approve(store, record, server.name, server.config);
  await writeStore(file, store);
}

/** Whether this project server, as it is now, is approved for this project (its fingerprint matches). */
export async function isApproved(file: string, project: string, server: { name: string; config: MCPServerConfig }): Promise<boolean> {
  const store = await readStore(file);
  const remembered = store.projects[project]?.fingerprints[server.name];
  return remembered !== undefined && changedParts(remembered, fingerprintOf(server.config, store.salt)).length === 0;
}

/** What {@link approveProjectServers} decided. */
export interface ApprovalOutcome {
  /** Names that may start. */
  approved: Set<string>;
  /** Why each other one does not, in words ("not approved yet", "changed since it was approved: command, env"). */
  skipped: Map<string, string>;
}

/** Asks a yes-or-no question on the terminal (stderr); true only for "y" or "yes". */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** Why a server is skipped when it was never approved. */
export const NEW = "not approved yet";
const BY_NAME = "approved by name by an earlier mcp; approvals now cover what runs";
const DECLINED = "declined for this project";

/**
 * The one short line a run without a terminal writes about the project servers it skipped: how
 * many, why when it is one, and the command that approves them (`mcp servers` lists each, and why).
 */
export function skippedLine(servers: { name: string; why: string; file: string }[], approveCommand: string): string {
  const only = servers.length === 1 ? servers[0]! : undefined;
  const changed = servers.filter(({ why }) => why !== NEW).length;
  const what = only ? `project server ${printable(only.name)} (${only.why}; ${printable(only.file)})` : `${servers.length} project servers not approved${changed > 0 ? ` (${changed} changed since approved)` : ""}`;
  // A long list of names would make the line long: then the command that approves them all.
  const command = approveCommand.length <= 60 ? approveCommand : "mcp config approve";
  return `Skipped ${what}. Approve: ${command}   (or --yes for one run${only ? "" : "; mcp servers lists them"})`;
}

/** Decides which project servers may start: asks on a terminal, else skips what is not approved as it is now. */
export async function approveProjectServers(
  servers: DiscoveredServer[],
  options: { project: string; file: string; yes: boolean; interactive: boolean; home: string },
): Promise<ApprovalOutcome> {
  const approved = new Set<string>();
  const skipped = new Map<string, string>();
  const pending: DiscoveredServer[] = [];
  for (const server of servers) {
    if (server.approved === true) approved.add(server.name);
    else pending.push(server);
  }
  if (pending.length === 0) return { approved, skipped };
  if (options.yes) {
    for (const server of pending) approved.add(server.name);
    return { approved, skipped };
  }
  const store = await readStore(options.file);
  const record = recordOf(store, options.project);
  const ask: { server: DiscoveredServer; why: string }[] = [];
  for (const server of pending) {
    const remembered = record.fingerprints[server.name];
    const changed = remembered ? changedParts(remembered, fingerprintOf(server.config, store.salt)) : undefined;
    if (changed?.length === 0) approved.add(server.name);
    else if (record.denied.includes(server.name)) skipped.set(server.name, DECLINED);
    else ask.push({ server, why: changed ? `changed since it was approved: ${changed.join(", ")}` : record.approved.includes(server.name) ? BY_NAME : NEW });
  }
  if (ask.length === 0) return { approved, skipped };

  // Names come from the repository too: quoted and escaped like everything else shown from it.
  const approveCommand = commandLine("mcp", ["config", "approve", ...ask.map(({ server }) => server.name)]);
  if (!options.interactive) {
    for (const { server, why } of ask) skipped.set(server.name, why);
    warn(skippedLine(ask.map(({ server, why }) => ({ name: server.name, why, file: shortPath(server.source.file, options.project, options.home) })), approveCommand));
    return { approved, skipped };
  }
  const blocks = ask.map(({ server, why }) => serverBlock(server.name, server, `(${printable(tildify(server.source.file, options.home))}${why === NEW ? "" : `; ${why}`})`));
  const yes = await confirm(`${color.bold("This project defines MCP servers")} that will run on this machine:\n${blocks.join("\n")}\nStart them? ${color.dim("(remembered for this project until they change)")} [y/N] `);
  // Read again: another mcp may have written the file while the question was open.
  const latest = await readStore(options.file);
  const now = recordOf(latest, options.project);
  for (const { server } of ask) {
    if (yes) {
      approve(latest, now, server.name, server.config);
      approved.add(server.name);
    } else {
      delete now.fingerprints[server.name];
      now.approved = now.approved.filter((n) => n !== server.name);
      if (!now.denied.includes(server.name)) now.denied.push(server.name);
      skipped.set(server.name, DECLINED);
    }
  }
  await writeStore(options.file, latest);
  if (!yes) note(`Not starting them. To change your mind: ${approveCommand}`);
  return { approved, skipped };
}
