// `mcp config`: list, add, approve, remove and doctor, on the user's own config file.
import { join, resolve } from "node:path";
import { serverConfigProblems } from "@mcp/client";
import {
  approveProjectServers,
  addOwnServer,
  configEntries,
  defaultApprovalsFile,
  describeServer,
  diagnoseServers,
  loadAllMCPConfigs,
  NotProjectServerError,
  OWN_FILE,
  ownEntry,
  printable,
  OwnServerExistsError,
  removeOwnServer,
  shortPath,
  tildify,
  type DiscoveredServer,
  type LoadResult,
} from "@mcp/manager";
import { detailLines } from "./approval-view.js";
import { confirmServers } from "./approvals.js";
import { openSession, settle, configDir, type GlobalOptions } from "./session.js";
import { CliError, color, EXIT, firstLine, HINT, note, out, printJson, warn } from "./ui.js";
import { show } from "./listing.js";

/** Our own file of a scope: `./mcp-client.json` (project) or the user's. */
export function ownFile(scope: string, home: string): string {
  if (scope === "project") return resolve(process.cwd(), OWN_FILE);
  if (scope === "user") return join(configDir(home), OWN_FILE);
  throw new CliError(`--scope must be "project" or "user", got "${scope}"`, EXIT.usage);
}

type Pairs<V> = Record<string, V> | undefined;

/** A repeatable flag's `NAME=VALUE`s: a name given twice keeps its last value, or with `lists` makes a list (a repeated argument). */
export function pairs(values: string[] | undefined, flag: string): Pairs<string>;
export function pairs(values: string[] | undefined, flag: string, lists: true): Pairs<string | string[]>;
export function pairs(values: string[] | undefined, flag: string, lists = false): Pairs<string | string[]> {
  if (!values?.length) return undefined;
  const found = new Map<string, string | string[]>();
  for (const pair of values) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new CliError(`${flag} takes NAME=VALUE, got ${JSON.stringify(pair)}`, EXIT.usage);
    const [name, value] = [pair.slice(0, eq), pair.slice(eq + 1)];
    const known = lists ? found.get(name) : undefined;
    found.set(name, known === undefined ? value : [known, value].flat());
  }
  return Object.fromEntries(found);
}

/**
 * The config files `config list` and `config approve` are about (the `--config` files alone, when
 * given), loaded. A server given on the command line (`--stdio`, `--http`, `--sse`) would be
 * ignored by them, so it is refused rather than listed beside.
 */
async function configFiles(globals: GlobalOptions, command: string): Promise<LoadResult> {
  const flag = globals.stdio ? "--stdio" : globals.http ? "--http" : globals.sse ? "--sse" : undefined;
  if (flag)
    throw new CliError(
      `${command} is about your config files, and ${flag} gives a server for one command only: leave ${flag} out (or try: mcp ${flag} … servers)`,
      EXIT.usage,
    );
  return loadAllMCPConfigs(process.cwd(), globals.config?.length ? { extraFiles: globals.config, families: [] } : {});
}

export async function configList(globals: GlobalOptions): Promise<number> {
  const result = await configFiles(globals, "config list");
  const home = process.env["HOME"] ?? "";
  const entries = configEntries(result, home);
  show(globals.json, entries, {
    empty: `No MCP configs found. Add one with: mcp config add <name> --stdio "<command>"   (writes ./${OWN_FILE})`,
    table: [
      { title: "NAME", cut: "never", cell: (e) => e.name },
      { title: "HOST", yields: 2, drops: 2, cell: (e) => `${e.family}${e.scope ? `/${e.scope}` : ""}` },
      { title: "FILE", cut: "left", yields: 3, min: 12, cell: (e) => shortPath(e.file, process.cwd(), home) },
      {
        title: "STATE",
        cell: (e) => e.state,
        paint: (cell) => (cell.startsWith("active") ? color.green(cell) : color.yellow(cell)),
      },
      { title: "WHAT RUNS", yields: 1, min: 12, drops: 1, cell: (e) => firstLine(e.detail, 200) },
    ],
  });
  return EXIT.ok;
}

export async function configAdd(globals: GlobalOptions, name: string): Promise<number> {
  // `--stdio`/`--http`/`--sse` are also global flags; commander may have given them to the program.
  const options = globals as GlobalOptions & { env?: string[]; header?: string[]; scope?: string; replace?: boolean };
  const home = process.env["HOME"] ?? "";
  const given = [options.stdio, options.http, options.sse].filter(Boolean).length;
  if (given !== 1)
    throw new CliError('give exactly one of --stdio "<command line>", --http <url>, --sse <url>', EXIT.usage);
  // --env for a stdio server, --header for an HTTP one (the other is not read).
  const config = options.stdio
    ? ownEntry({ stdio: options.stdio, env: pairs(options.env, "--env") })
    : ownEntry({ http: options.http, sse: options.sse, headers: pairs(options.header, "--header") });
  const problems = serverConfigProblems(config);
  if (problems.length) throw new CliError(`not added: ${problems.map((p) => p.message).join("; ")}`, EXIT.usage);
  const scope = options.scope ?? "project";
  const file = ownFile(scope, home);
  const approve = scope === "project" ? ownApproval(home) : undefined;
  const added = await addOwnServer(file, name, config, { replace: options.replace, approve }).catch(
    (error: unknown) => {
      if (!(error instanceof OwnServerExistsError)) throw error;
      const what = error.runs === undefined ? "" : `: ${firstLine(error.runs, 80)}`;
      throw new CliError(
        `not added: ${tildify(file, home)} already has "${name}"${what}. To replace it: the same command with --replace`,
        EXIT.usage,
      );
    },
  );
  out(`${added.replaced ? "Replaced" : "Added"} "${name}" ${added.replaced ? "in" : "to"} ${tildify(file, home)}`);
  // A token written into the file is in every copy of it (a project's is often committed).
  for (const { kind, key } of added.secrets) {
    const [what, flag] = kind === "header" ? [`header "${key}"`, "--header"] : [`variable "${key}"`, "--env"];
    warn(
      `warning: the ${what} holds what looks like a secret, now written in ${tildify(file, home)}. To keep it out of the file, add it again with --replace and ${flag} '${key}=${key === "Authorization" ? "Bearer " : ""}\${TOKEN}' (single quotes: the file gets \${TOKEN}, read from your environment at each run)`,
    );
  }
  if (added.notApproved !== undefined) notApprovedYet(name, added.notApproved, "; once");
  return EXIT.ok;
}

/** Where a project entry the user wrote is approved as it loads (@mcp/manager's approveOwnServer). */
export const ownApproval = (home: string) => ({ cwd: process.cwd(), approvals: defaultApprovalsFile({ home }) });

/** That an entry the user wrote is not approved, why, and the command that approves it once it loads. */
export function notApprovedYet(name: string, why: string, then = ". Once"): void {
  note(`"${name}" is not approved yet: ${why}${then} it loads: mcp config approve ${name}`);
}

/** Approves project servers for this project (all of them when none is named), as answering the prompt with "y" does. */
export async function configApprove(globals: GlobalOptions, names: string[]): Promise<number> {
  const home = process.env["HOME"] ?? "";
  // What is approved is shown first, as the prompt shows it, and it is exactly what is approved: the
  // configs shown, not the files read again (a later change to any of it asks again).
  const asked = process.stdin.isTTY === true && process.stderr.isTTY === true && globals.yes !== true;
  const confirm = (chosen: readonly DiscoveredServer[]) =>
    confirmServers(
      home,
      chosen.map((server) => ({ server })),
      `${color.bold("Approve for this project")} what these servers will run`,
      "Approve them? [y/N] ",
    );
  const approvals = defaultApprovalsFile({ home });
  const loaded = await configFiles(globals, "config approve");
  const chosen = await approveProjectServers(loaded, names, {
    project: process.cwd(),
    approvals,
    confirm: asked ? confirm : undefined,
  }).catch((error: unknown) => {
    if (!(error instanceof NotProjectServerError)) throw error;
    const { serverName: name, file } = error;
    throw new CliError(
      file
        ? `"${name}" is not a project server (${tildify(file, home)}): it needs no approval`
        : `no project server named "${name}" (see: mcp config list)`,
      EXIT.usage,
    );
  });
  if (chosen?.length === 0) note("This project defines no MCP servers.");
  if (chosen === undefined) note("Nothing approved.");
  for (const server of chosen ?? [])
    out(
      asked
        ? `Approved "${printable(server.name)}" for this project.`
        : [
            `Approved "${printable(server.name)}" for this project: ${describeServer(server).runs}`,
            ...detailLines(server, "    "),
          ].join("\n"),
    );
  return chosen === undefined ? EXIT.failure : EXIT.ok;
}

export async function configRemove(_: GlobalOptions, name: string, options: { scope?: string }): Promise<number> {
  const home = process.env["HOME"] ?? "";
  const scopes = options.scope ? [options.scope] : ["project", "user"];
  const removed = await removeOwnServer(
    scopes.map((scope) => ownFile(scope, home)),
    name,
  );
  if (removed !== undefined) {
    out(`Removed "${name}" from ${tildify(removed, home)}`);
    return EXIT.ok;
  }
  const found = (await loadAllMCPConfigs(process.cwd())).servers[name];
  throw new CliError(
    found
      ? `"${name}" is defined in ${tildify(found.source.file, home)} (${found.source.family}); remove it there`
      : `no server named "${name}" in ${OWN_FILE}`,
    EXIT.usage,
  );
}

/** Why each failing server fails (@mcp/manager's diagnoseServers), with the CLI's way out (ui.ts's HINT.doctor). */
export async function configDoctor(globals: GlobalOptions): Promise<number> {
  const session = await openSession(globals);
  try {
    await settle(session);
    const findings = diagnoseServers(session, session.manager.getStatuses(), {
      ...session,
      tokenGiven: HINT.tokenGiven,
    }).map((f) => ({ server: f.server, ok: f.ok, finding: f.finding + (HINT.doctor[f.kind]?.(f) ?? "") + f.stderr }));
    if (globals.json) printJson(findings);
    else
      for (const f of findings)
        out(`${f.ok ? color.green("✓") : color.red("✗")} ${color.bold(f.server)}: ${f.finding}`);
    return findings.every((f) => f.ok) ? EXIT.ok : EXIT.failure;
  } finally {
    await session.close();
  }
}
