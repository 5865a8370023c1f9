import { resolve } from "node:path";
import type { MCPServerConfig } from "@mcp/client";
import { printable } from "@mcp/manager";
import { checkForUpdates, installedIn, updateFromRegistry, type InstalledIn } from "@mcp/registry";
import { approvalsFile } from "./approvals.js";
import { notApprovedYet, ownFile } from "./config-commands.js";
import { asking, describeAdded, registryLocation } from "./registry-commands.js";
import type { Call } from "./command-spec.js";
import { configDir, type GlobalOptions } from "./session.js";
import { show } from "./listing.js";
import { CliError, color, EXIT, note, out, tildify, warn } from "./ui.js";

// `mcp registry outdated | update`: the entries of our own files that `mcp registry add` wrote
// (they carry a `registry` record: the server's name, version and registry), against the latest.

const NONE_INSTALLED = "No entry in your files came from the registry (mcp registry add <name> adds one).";

type Installed = InstalledIn<"project" | "user" | "file">;

/** Our own files' entries that came from the registry: the project's and the user's, or the `--config` files. */
function installed(globals: GlobalOptions, home: string): Promise<Installed[]> {
  return installedIn<Installed["scope"]>(
    globals.config?.length
      ? globals.config.map((file) => ({ file: resolve(file), scope: "file" }))
      : [
          { file: ownFile("project", home), scope: "project" },
          { file: ownFile("user", home), scope: "user" },
        ],
  );
}

/** Each entry marked `project` when its file is the project's: only the registry the user chose is asked about those. */
const projectMarked = (items: Installed[]): (Installed & { project: boolean })[] =>
  items.map((item) => ({ ...item, project: item.scope === "project" }));

export async function registryOutdated({ globals, options }: Call<{ registry?: string }>): Promise<number> {
  const home = process.env["HOME"] ?? "";
  const location = await registryLocation(globals, options.registry);
  const items = await installed(globals, home);
  const checks = await asking(globals, (o) => checkForUpdates(projectMarked(items), { ...o, registry: location.url }));
  const rows = checks.map(({ item, url, latest, outdated, status, problem }) => ({
    name: item.local,
    server: item.record.name,
    file: item.file,
    registry: url ?? item.record.url ?? location.url,
    current: item.record.version,
    latest: latest?.server.version,
    outdated,
    status,
    // Text from a file or a registry, escaped before it reaches the terminal or --json.
    problem: problem === undefined ? undefined : printable(problem),
  }));
  // The local name is never cut; the file gives way first (cut at its start), then the server's name.
  show(globals.json, rows, {
    empty: NONE_INSTALLED,
    table: [
      { title: "NAME", cut: "never", cell: (r) => printable(r.name) },
      { title: "SERVER", yields: 2, cell: (r) => printable(r.server) },
      { title: "CURRENT", cell: (r) => printable(r.current) },
      {
        title: "LATEST",
        cell: (r) => (r.latest === undefined ? "?" : `${printable(r.latest)}${r.status ? ` (${r.status})` : ""}`),
        paint: (cell, r) => (r.outdated ? color.green(cell) : r.status ? color.yellow(cell) : cell),
      },
      { title: "FILE", cut: "left", yields: 1, cell: (r) => tildify(r.file, home) },
    ],
    after: () => {
      for (const r of rows) if (r.problem) warn(`${printable(r.name)}: ${r.problem}`);
      const stale = rows.filter((r) => r.outdated).map((r) => r.name);
      note(
        stale.length > 0
          ? `${stale.length} can be updated: mcp registry update ${stale.join(" ")}`
          : "Everything is at its latest version.",
      );
    },
  });
  return rows.some((r) => r.problem) ? EXIT.failure : EXIT.ok;
}

export async function registryUpdate(
  { globals, options }: Call<{ registry?: string; force?: boolean }>,
  names: string[],
): Promise<number> {
  const home = process.env["HOME"] ?? "";
  const location = await registryLocation(globals, options.registry);
  const all = await installed(globals, home);
  for (const name of names)
    if (!all.some((item) => item.local === name))
      throw new CliError(`no entry named "${name}" came from the registry (see: mcp registry outdated)`, EXIT.usage);
  const chosen = names.length > 0 ? all.filter((item) => names.includes(item.local)) : all;
  if (chosen.length === 0) {
    note(NONE_INSTALLED);
    return EXIT.ok;
  }
  const approvals = approvalsFile(configDir(home));
  const outcomes = await asking(globals, (o) =>
    updateFromRegistry(projectMarked(chosen), {
      ...o,
      registry: location.url,
      force: options.force,
      cwd: process.cwd(),
      approvals,
    }),
  );
  for (const { item, action, url, version = "", status, problem = "", update, approved, notApproved } of outcomes) {
    const label = `"${printable(item.local)}" (${printable(item.record.name)})`;
    if (action === "failed") warn(`${label}: ${printable(problem)}`);
    else if (action === "current") {
      if (names.length > 0) out(`${label} is at the latest version, ${printable(item.record.version)}.`);
    } else if (action === "retired")
      warn(
        `${label}: its latest version, ${printable(version)}, is ${status} in ${url}; not updated (update anyway with --force)`,
      );
    else if (update) {
      out(
        [
          `Updated ${label} in ${tildify(item.file, home)}: ${printable(item.record.version)} → ${printable(version)}${status ? ` (${status})` : ""}`,
          ...describeAdded(update.made, update.entry as unknown as MCPServerConfig),
        ].join("\n"),
      );
      if (update.dropped.length)
        warn(
          `${label}: ${printable(version)} has no input named ${update.dropped.map((key) => printable(key)).join(", ")}; that value was dropped`,
        );
      if (notApproved !== undefined) notApprovedYet(item.local, notApproved);
      else if (approved === false)
        note(
          `"${item.local}" was not approved as it was, so it is not now: approve it with mcp config approve ${item.local}`,
        );
    }
  }
  return outcomes.some((o) => o.action === "failed" || o.action === "retired") ? EXIT.failure : EXIT.ok;
}
