import type { MCPServerConfig } from "@mcp/client";
import { defaultApprovalsFile, printable, tildify } from "@mcp/manager";
import { checkForUpdates, outdatedRows, ownInstalled, updateFromRegistry, type OwnInstalled } from "@mcp/registry";
import { notApprovedYet } from "./config-commands.js";
import { asking, describeAdded, registryLocation } from "./registry-commands.js";
import type { GlobalOptions } from "./session.js";
import { show } from "./listing.js";
import { CliError, color, EXIT, note, out, warn } from "./ui.js";

// `mcp registry outdated | update`: the entries of our own files that `mcp registry add` wrote
// (they carry a `registry` record: the server's name, version and registry), against the latest.

const NONE_INSTALLED = "No entry in your files came from the registry (mcp registry add <name> adds one).";

/** Our own files' entries that came from the registry (@mcp/registry's ownInstalled): the project's and the user's, or the `--config` files. */
const installed = (globals: GlobalOptions, home: string): Promise<OwnInstalled[]> =>
  ownInstalled({ cwd: process.cwd(), home, files: globals.config });

export async function registryOutdated(globals: GlobalOptions, options: { registry?: string }): Promise<number> {
  const home = process.env["HOME"] ?? "";
  const location = await registryLocation(globals, options.registry);
  const items = await installed(globals, home);
  const checks = await asking(globals, (o) => checkForUpdates(items, { ...o, registry: location.url }));
  const rows = outdatedRows(checks, location.url);
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
  globals: GlobalOptions,
  names: string[],
  options: { registry?: string; force?: boolean },
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
  const approvals = defaultApprovalsFile({ home });
  const outcomes = await asking(globals, (o) =>
    updateFromRegistry(chosen, { ...o, registry: location.url, force: options.force, cwd: process.cwd(), approvals }),
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
