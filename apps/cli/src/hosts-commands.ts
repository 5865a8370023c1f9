// `mcp hosts`, `mcp hosts pool <host>`, `mcp hosts unpool <host>`: the manager rewrites the files;
// this parses the arguments and prints what happened.
import { homedir } from "node:os";
import { hostStatus, poolBackupDir, poolHost, POOL_FAMILIES, poolState, type PoolFamily } from "@mcp/manager";
import { shortPath, tildify } from "@mcp/manager";
import type { GlobalOptions } from "./session.js";
import { show } from "./listing.js";
import { CliError, color, EXIT, note, warn } from "./ui.js";

function family(host: string | undefined): PoolFamily | undefined {
  if (host === undefined) return undefined;
  if ((POOL_FAMILIES as readonly string[]).includes(host)) return host as PoolFamily;
  throw new CliError(`unknown host "${host}"; one of: ${POOL_FAMILIES.join(", ")}`, EXIT.usage);
}

function where(): { home: string; cwd: string; platform: NodeJS.Platform; env: Record<string, string | undefined> } {
  return { home: process.env["HOME"] ?? homedir(), cwd: process.cwd(), platform: process.platform, env: process.env };
}

function scopeOf(scope: string | undefined): "user" | "project" | undefined {
  if (scope === undefined || scope === "user" || scope === "project") return scope;
  throw new CliError(`--scope must be "user" or "project", got "${scope}"`, EXIT.usage);
}

function paintState(cell: string): string {
  if (cell === "pooled") return color.green(cell);
  if (cell === "unreadable") return color.red(cell);
  return cell.includes(" of ") ? color.yellow(cell) : cell;
}

/** `mcp hosts [list] [host]`; a file's STATE is @mcp/manager's poolState. */
export async function hostsList(globals: GlobalOptions, host: string | undefined): Promise<number> {
  const l = where();
  const rows = await hostStatus(l, poolBackupDir(l), family(host));
  show(globals.json, rows, {
    empty: host
      ? `no ${host} config file found for this folder or user`
      : "no host config file found for this folder or user",
    table: [
      { title: "HOST", cut: "never", cell: (r) => r.family },
      { title: "SCOPE", cell: (r) => r.scope },
      { title: "FILE", cut: "left", yields: 2, min: 12, cell: (r) => shortPath(r.file, l.cwd, l.home) },
      { title: "STATE", cell: poolState, paint: paintState },
      { title: "STDIO SERVERS", yields: 1, cell: (r) => r.stdio.join(", ") },
    ],
    after: () => {
      for (const r of rows) if (r.problem) warn(r.problem);
    },
  });
  return EXIT.ok;
}

/** `mcp hosts pool | unpool <host>`: every file of the host (of one scope), each file's outcome said. */
async function poolCommand(
  host: string,
  globals: GlobalOptions,
  options: { scope?: string; shim?: string | undefined; keepEdits?: boolean | undefined; undo?: boolean },
): Promise<number> {
  const l = where();
  const f = family(host)!;
  const only = scopeOf(options.scope);
  const undo = options.undo;
  const result = await poolHost(l, f, { ...options, backupDir: poolBackupDir(l), home: l.home, scope: only });
  if (result.files.length === 0 && result.errors.length === 0)
    throw new CliError(`no ${host} config file found${only ? ` in ${only} scope` : ""} for this folder or user`);
  show(globals.json, result.files, {
    json: () => result,
    line: (o) => {
      const file = shortPath(o.file, l.cwd, l.home);
      if (o.action === "pooled")
        return `${file}: pooled ${o.entries.join(", ")} ${color.dim(`(backup ${tildify(o.backup, l.home)})`)}`;
      if (o.action === "restored") return `${file}: restored as it was before pool`;
      if (o.action === "unwrapped") return `${file}: unwrapped ${o.entries.join(", ")} in place`;
      return `${file}: ${undo ? "not pooled" : o.entries.length ? `already pooled (${o.entries.join(", ")})` : "no stdio servers to pool"}`;
    },
    after: (outcomes) => {
      for (const f of result.errors) warn(f.message);
      if (!undo && outcomes.some((o) => o.action === "pooled"))
        note("New sessions of the host run these servers through the pool; restart running ones to join it.");
    },
  });
  return result.errors.length ? EXIT.failure : EXIT.ok;
}

/** `mcp hosts pool <host>`. */
export async function hostsPool(
  globals: GlobalOptions,
  host: string,
  options: { scope?: string; shim?: string },
): Promise<number> {
  // The light shim (bash, no Node process per session) where it works; `mcp` otherwise, or as --shim says.
  const shim = options.shim ?? (await (await import("@mcp/daemon")).lightShimHere());
  return poolCommand(host, globals, { ...options, shim });
}

/** `mcp hosts unpool <host>`. */
export async function hostsUnpool(
  globals: GlobalOptions,
  host: string,
  options: { scope?: string; keepEdits?: boolean },
): Promise<number> {
  return poolCommand(host, globals, { ...options, undo: true });
}
