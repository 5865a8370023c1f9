import { resolve } from "node:path";
import type { MCPServerConfig } from "@mcp/client";
import { loadAllMCPConfigs, printable } from "@mcp/manager";
import {
  checkForUpdates,
  installedIn,
  RegistryError,
  updateInstalled,
  type InstalledIn,
  type RegistryLocation,
  type UpdateCheck,
} from "@mcp/registry";
import { approvalsFile, isApproved } from "./approvals.js";
import { approveOwn, ownFile } from "./config-commands.js";
import { asking, describeAdded, registryLocation } from "./registry-commands.js";
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

/** Every entry checked against its registry's latest (@mcp/registry's checkForUpdates); Ctrl-C stops the asking. */
async function checkAll(
  items: Installed[],
  location: RegistryLocation,
  globals: GlobalOptions,
): Promise<UpdateCheck<Installed>[]> {
  const checks = await asking(globals, (o) =>
    checkForUpdates(
      items.map((item) => ({ ...item, project: item.scope === "project" })),
      { ...o, registry: location.url },
    ),
  );
  // Text from a file or a registry, escaped before it reaches the terminal or --json.
  return checks.map((check) => (check.problem ? { ...check, problem: printable(check.problem) } : check));
}

export async function registryOutdated(globals: GlobalOptions, options: { registry?: string }): Promise<number> {
  const home = process.env["HOME"] ?? "";
  const location = await registryLocation(globals, options.registry);
  const items = await installed(globals, home);
  const checks = await checkAll(items, location, globals);
  const rows = checks.map(({ item, url, latest, outdated, status, problem }) => ({
    name: item.local,
    server: item.record.name,
    file: item.file,
    registry: url ?? item.record.url ?? location.url,
    current: item.record.version,
    latest: latest?.server.version,
    outdated,
    status,
    problem,
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
  names: string[],
  globals: GlobalOptions,
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
  let failed = false;
  const approvals = approvalsFile(configDir(home));
  const loaded = await loadAllMCPConfigs(process.cwd());
  for (const { item, url, latest, outdated, status, problem } of await checkAll(chosen, location, globals)) {
    const label = `"${printable(item.local)}" (${printable(item.record.name)})`;
    if (!latest || problem) {
      warn(`${label}: ${problem ?? "not checked"}`);
      failed = true;
      continue;
    }
    const version = latest.server.version;
    if (!outdated) {
      if (names.length > 0) out(`${label} is at the latest version, ${printable(item.record.version)}.`);
      continue;
    }
    if (status && !options.force) {
      warn(
        `${label}: its latest version, ${printable(version)}, is ${status} in ${url}; not updated (update anyway with --force)`,
      );
      failed = true;
      continue;
    }
    // A project entry approved as it was stays approved as it is now: the update is the user's own.
    const before = loaded.servers[item.local];
    const wasApproved =
      item.scope === "project" &&
      before?.source.file === item.file &&
      (await isApproved(approvals, process.cwd(), before));
    // The user's own fields and values stay; values for inputs the new version no longer has are dropped, and said so.
    const update = await updateInstalled(item, latest).catch((error: unknown) => {
      if (!RegistryError.isInstance(error)) throw error;
      warn(`${label}: ${printable(error.message)}`);
    });
    if (!update) {
      failed = true;
      continue;
    }
    const { made, entry, dropped } = update;
    out(
      [
        `Updated ${label} in ${tildify(item.file, home)}: ${printable(item.record.version)} → ${printable(version)}${status ? ` (${status})` : ""}`,
        ...describeAdded(made, entry as unknown as MCPServerConfig),
      ].join("\n"),
    );
    if (dropped.length)
      warn(
        `${label}: ${printable(version)} has no input named ${dropped.map((key) => printable(key)).join(", ")}; that value was dropped`,
      );
    if (wasApproved) await approveOwn(item.file, "project", item.local, home);
    else if (item.scope === "project")
      note(
        `"${item.local}" was not approved as it was, so it is not now: approve it with mcp config approve ${item.local}`,
      );
  }
  return failed ? EXIT.failure : EXIT.ok;
}
