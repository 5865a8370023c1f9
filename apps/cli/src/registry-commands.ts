import type { MCPServerConfig } from "@mcp/client";
import { printable, readOwnServers, tildify } from "@mcp/manager";
import {
  describeRegistryConfig,
  installFromRegistry,
  localNameFor,
  parseRegistrySpec,
  registryKinds,
  resolveRegistry,
  RegistryError,
  retiredStatus,
  searchServers,
  type RegistryConfig,
  type RegistryEntry,
  type RegistryLocation,
  type RegistryPackageKind,
} from "@mcp/registry";
import { notApprovedYet, ownApproval, ownFile, pairs } from "./config-commands.js";
import { interruptible } from "./live.js";
import type { GlobalOptions } from "./session.js";
import { show } from "./listing.js";
import { CliError, color, EXIT, note, out, warn } from "./ui.js";

// `mcp registry search | add`: servers from the MCP registry (or a subregistry) into our own file.
// What the registry sends is untrusted text: everything shown from it goes through printable().

/** The registry the user chose: `--registry`, `MCP_REGISTRY_URL`, the user's file (or the `--config` files), or the official one. */
export async function registryLocation(
  globals: GlobalOptions,
  registry: string | undefined,
): Promise<RegistryLocation> {
  return resolveRegistry({ registry, files: globals.config?.length ? globals.config : undefined }).catch(
    registryFailure,
  );
}

/** A registry failure as the CLI reports it, with its way out: what the user asked for wrong is a usage error (2). */
function registryFailure(error: unknown): never {
  if (!RegistryError.isInstance(error)) throw error;
  const hint = error.reason === "retired" ? "; add it anyway with --force" : "";
  throw new CliError(printable(error.message) + hint, error.usage ? EXIT.usage : EXIT.failure);
}

/** Asks the registry with the command's timeout, Ctrl-C stopping the asking; its failures as the CLI reports them. */
export async function asking<T>(
  globals: GlobalOptions,
  ask: (options: { signal: AbortSignal; timeout: number | undefined }) => Promise<T>,
): Promise<T> {
  const { signal, dispose } = interruptible();
  try {
    return await ask({ signal, timeout: globals.timeout });
  } catch (error) {
    return registryFailure(error);
  } finally {
    dispose();
  }
}

export async function registrySearch(
  globals: GlobalOptions,
  text: string | undefined,
  options: { registry?: string; limit?: number },
): Promise<number> {
  const location = await registryLocation(globals, options.registry);
  const limit = options.limit ?? 100;
  const entries = await asking(globals, (o) => searchServers(text ?? "", { ...o, registry: location.url, limit }));
  const withStatus = entries.some((entry) => retiredStatus(entry));
  // The name (what `registry add` takes) is never cut; the description gives way first.
  show(globals.json, entries, {
    empty: `No server in ${location.url} matches ${JSON.stringify(text ?? "")}.`,
    table: [
      { title: "NAME", cut: "never", cell: (entry) => printable(entry.server.name) },
      { title: "VERSION", cell: (entry) => printable(entry.server.version) },
      { title: "RUNS ON", cell: (entry) => printable(registryKinds(entry.server).join(", ")) },
      ...(withStatus
        ? [{ title: "STATUS", paint: color.yellow, cell: (e: RegistryEntry) => retiredStatus(e) ?? "" }]
        : []),
      {
        title: "DESCRIPTION",
        yields: 1,
        min: 10,
        cell: ({ server }) =>
          printable(server.title ? `${server.title}: ${server.description}` : String(server.description ?? "")),
      },
    ],
    after: () =>
      note(
        `${entries.length} server${entries.length === 1 ? "" : "s"} from ${location.url}${entries.length === limit ? ` (--limit ${limit} reached; there may be more)` : ""}. Add one with: mcp registry add <name>`,
      ),
  });
  return EXIT.ok;
}

/** What was written and what the user must still do (@mcp/registry's describeRegistryConfig, in colors). */
export function describeAdded(made: RegistryConfig, config?: MCPServerConfig): string[] {
  return describeRegistryConfig(made, { config, style: { label: color.dim, warning: color.yellow, name: color.bold } });
}

export interface AddOptions {
  registry?: string;
  as?: string;
  package?: string;
  transport?: string;
  scope?: string;
  set?: string[];
  force?: boolean;
}

const PACKAGES = ["npm", "pypi", "oci", "nuget", "remote"];

export async function registryAdd(globals: GlobalOptions, spec: string, options: AddOptions): Promise<number> {
  const home = process.env["HOME"] ?? "";
  const { name, version } = parseRegistrySpec(spec);
  if (options.package !== undefined && !PACKAGES.includes(options.package))
    throw new CliError(
      `--package must be one of ${PACKAGES.join(", ")}, got ${JSON.stringify(options.package)}`,
      EXIT.usage,
    );
  if (options.transport !== undefined && options.transport !== "http" && options.transport !== "sse")
    throw new CliError(`--transport must be http or sse, got ${JSON.stringify(options.transport)}`, EXIT.usage);
  const scope = options.scope ?? "project";
  const file = ownFile(scope, home);
  const local = options.as ?? localNameFor(name);
  if (!/^[A-Za-z0-9_.-]+$/.test(local))
    throw new CliError(
      `--as takes a name of letters, digits, "_", "-" and ".", got ${JSON.stringify(local)}`,
      EXIT.usage,
    );
  if ((await readOwnServers(file))[local] !== undefined)
    throw new CliError(
      `${tildify(file, home)} already has a server named "${local}": choose another name with --as, or update it with: mcp registry update ${local}`,
      EXIT.usage,
    );
  const location = await registryLocation(globals, options.registry);
  const values = pairs(options.set, "--set", true);
  const added = await asking(globals, (o) =>
    installFromRegistry(name, {
      ...o,
      version,
      force: options.force,
      file,
      name: local,
      registry: location.url,
      package: options.package as RegistryPackageKind | undefined,
      transport: options.transport as "http" | "sse" | undefined,
      values,
      approve: scope === "project" ? ownApproval(home) : undefined,
    }),
  );
  if (added.status) warn(`${printable(name)} is ${added.status} in the registry; added because of --force.`);
  out(
    [
      `Added "${local}" to ${tildify(file, home)}: ${printable(name)} ${printable(added.made.version)} (${added.made.kind}) from ${location.url}`,
      ...describeAdded(added.made),
    ].join("\n"),
  );
  if (added.notApproved !== undefined) notApprovedYet(local, added.notApproved);
  return EXIT.ok;
}
