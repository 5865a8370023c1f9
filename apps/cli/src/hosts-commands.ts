// `mcp hosts`, `mcp hosts pool <host>`, `mcp hosts unpool <host>`: the manager rewrites the files;
// this parses the arguments and prints what happened.
import { homedir } from "node:os";
import {
  hostFiles,
  hostStatus,
  poolBackupDir,
  poolFile,
  PoolError,
  POOL_FAMILIES,
  unpoolFile,
  type HostFileStatus,
  type PoolFamily,
  type PoolOutcome,
} from "@mcp/manager";
import type { GlobalOptions } from "./session.js";
import { show } from "./listing.js";
import { CliError, color, EXIT, note, out, printJson, shortPath, tildify, warn } from "./ui.js";

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

/** A host file's STATE cell: whether its stdio servers run through the pool. */
function poolState(r: HostFileStatus): string {
  if (r.problem) return "unreadable";
  if (r.stdio.length === 0) return "no stdio servers";
  if (r.pooled.length === r.stdio.length) return "pooled";
  return r.pooled.length > 0 ? `${r.pooled.length} of ${r.stdio.length} pooled` : "not pooled";
}

function paintState(cell: string): string {
  if (cell === "pooled") return color.green(cell);
  if (cell === "unreadable") return color.red(cell);
  return cell.includes(" of ") ? color.yellow(cell) : cell;
}

/** `mcp hosts [list] [host]`. */
export async function hostsList(host: string | undefined, globals: GlobalOptions): Promise<number> {
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

function report(
  outcomes: PoolOutcome[],
  failures: { file: string; message: string }[],
  globals: GlobalOptions,
  verb: "pool" | "unpool",
): number {
  const l = where();
  if (globals.json) printJson({ files: outcomes, errors: failures });
  else {
    for (const o of outcomes) {
      const file = shortPath(o.file, l.cwd, l.home);
      if (o.action === "pooled")
        out(`${file}: pooled ${o.entries.join(", ")} ${color.dim(`(backup ${tildify(o.backup, l.home)})`)}`);
      else if (o.action === "restored") out(`${file}: restored as it was before pool`);
      else if (o.action === "unwrapped") out(`${file}: unwrapped ${o.entries.join(", ")} in place`);
      else
        out(
          `${file}: ${verb === "pool" ? (o.entries.length ? `already pooled (${o.entries.join(", ")})` : "no stdio servers to pool") : "not pooled"}`,
        );
      for (const s of o.skipped) warn(`${file}: "${s.name}" left as it is: ${s.reason}`);
    }
    for (const f of failures) warn(f.message);
    if (verb === "pool" && outcomes.some((o) => o.action === "pooled"))
      note("New sessions of the host run these servers through the pool; restart running ones to join it.");
  }
  return failures.length ? EXIT.failure : EXIT.ok;
}

async function each(
  host: string,
  scope: string | undefined,
  globals: GlobalOptions,
  verb: "pool" | "unpool",
  step: (file: Awaited<ReturnType<typeof hostFiles>>[number]) => Promise<PoolOutcome>,
): Promise<number> {
  const f = family(host)!;
  const only = scopeOf(scope);
  const files = (await hostFiles(where(), f)).filter((h) => only === undefined || h.scope === only);
  if (files.length === 0)
    throw new CliError(`no ${host} config file found${only ? ` in ${only} scope` : ""} for this folder or user`);
  const outcomes: PoolOutcome[] = [];
  const failures: { file: string; message: string }[] = [];
  for (const file of files) {
    try {
      outcomes.push(await step(file));
    } catch (error) {
      if (!(error instanceof PoolError)) throw error;
      failures.push({ file: error.file, message: error.message });
    }
  }
  return report(outcomes, failures, globals, verb);
}

/** `mcp hosts pool <host>`. */
export async function hostsPool(
  host: string,
  globals: GlobalOptions,
  options: { scope?: string; shim?: string },
): Promise<number> {
  const l = where();
  // The light shim (bash, no Node process per session) where it works; `mcp` otherwise, or as --shim says.
  const shim = options.shim ?? (await (await import("@mcp/daemon")).lightShimHere());
  return each(host, options.scope, globals, "pool", (file) =>
    poolFile(file, { backupDir: poolBackupDir(l), home: l.home, shim }),
  );
}

/** `mcp hosts unpool <host>`. */
export async function hostsUnpool(
  host: string,
  globals: GlobalOptions,
  options: { scope?: string; keepEdits?: boolean },
): Promise<number> {
  const l = where();
  return each(host, options.scope, globals, "unpool", (file) =>
    unpoolFile(file, { backupDir: poolBackupDir(l), home: l.home, keepEdits: options.keepEdits }),
  );
}
