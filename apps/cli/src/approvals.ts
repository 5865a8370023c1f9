import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline/promises";
import type { DiscoveredServer } from "@mcp/manager";
import { color, describeConfig, note, warn, tildify } from "./ui.js";

/**
 * Project-scope servers come with a repository the user may not trust. On a terminal we ask once
 * per project and remember the answer; `--yes` approves; with no terminal and no `--yes` they are
 * skipped, and we say how to approve them.
 */

interface Store {
  projects: Record<string, { approved: string[]; denied: string[] }>;
}

async function readStore(file: string): Promise<Store> {
  try {
    const value = JSON.parse(await readFile(file, "utf8")) as Partial<Store>;
    if (typeof value.projects === "object" && value.projects !== null) return value as Store;
  } catch {
    // none yet, or unreadable: ask again
  }
  return { projects: {} };
}

async function writeStore(file: string, store: Store): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(store, null, 2), { mode: 0o600 });
  await rename(temp, file);
}

/** Where answers are remembered. */
export function approvalsFile(configDir: string): string {
  return join(configDir, "approvals.json");
}

/** Records that these project servers are approved for this project (`mcp config approve`, `mcp config add`). */
export async function rememberApproval(file: string, project: string, names: string[]): Promise<void> {
  const store = await readStore(file);
  const remembered = store.projects[project] ?? { approved: [], denied: [] };
  for (const name of names) if (!remembered.approved.includes(name)) remembered.approved.push(name);
  remembered.denied = remembered.denied.filter((name) => !names.includes(name));
  store.projects[project] = remembered;
  await writeStore(file, store);
}

/** Returns the names of project servers that may start. */
export async function approveProjectServers(
  servers: DiscoveredServer[],
  options: { project: string; file: string; yes: boolean; interactive: boolean; home: string },
): Promise<Set<string>> {
  const approved = new Set<string>();
  const pending: DiscoveredServer[] = [];
  for (const server of servers) {
    if (server.approved === true) approved.add(server.name);
    else pending.push(server);
  }
  if (pending.length === 0) return approved;
  if (options.yes) {
    for (const server of pending) approved.add(server.name);
    return approved;
  }
  const store = await readStore(options.file);
  const remembered = store.projects[options.project] ?? { approved: [], denied: [] };
  const unknown = pending.filter((server) => !remembered.approved.includes(server.name) && !remembered.denied.includes(server.name));
  for (const server of pending) if (remembered.approved.includes(server.name)) approved.add(server.name);
  if (unknown.length === 0) return approved;

  const list = unknown.map((server) => `${server.name} (${tildify(server.source.file, options.home)})`).join(", ");
  if (!options.interactive) {
    warn(`Skipped ${unknown.length} project server${unknown.length === 1 ? "" : "s"} not yet approved: ${list}. Approve with: mcp config approve ${unknown.map((s) => s.name).join(" ")}   (or --yes for one run, or run mcp in a terminal to be asked)`);
    return approved;
  }
  const width = Math.max(...unknown.map((server) => server.name.length));
  const lines = unknown.map((server) => `  ${color.bold(server.name.padEnd(width))}  ${describeConfig(server.config)}  ${color.dim(`(${tildify(server.source.file, options.home)})`)}`);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  let answer: string;
  try {
    answer = await rl.question(`${color.bold("This project defines MCP servers")} that will run on this machine:\n${lines.join("\n")}\nStart them? ${color.dim("(remembered for this project)")} [y/N] `);
  } finally {
    rl.close();
  }
  const yes = /^y(es)?$/i.test(answer.trim());
  for (const server of unknown) (yes ? remembered.approved : remembered.denied).push(server.name);
  store.projects[options.project] = remembered;
  await writeStore(options.file, store);
  if (yes) for (const server of unknown) approved.add(server.name);
  else note(`Not starting them. To change your mind: mcp config approve ${unknown.map((s) => s.name).join(" ")}`);
  return approved;
}
