// Servers added, edited and removed from the page: written to one file, the user's own config (the
// host names it; never a project's file, never another path), through @mcp/manager's config editing
// (`mcp config add/remove` write the same way), then applied without a restart. What runs is the
// entry as it loads again (variables expanded), and only when the user's file is the one it comes
// from: a same-named entry of a project's file comes first, and the page never runs that (a project
// server runs only once approved, which the page does not do).
import { serverConfigProblems, type MCPServerConfig } from "@mcp/client";
import {
  editOwnConfig,
  loadAllMCPConfigs,
  looksLikeSecret,
  readOwnServers,
  type DiscoveredServer,
  type LoadResult,
  type MCPManager,
} from "@mcp/manager";
import type { ConfigSaveAnswer, ConfigServersAnswer } from "./api.js";
import type { InspectorHub } from "./hub.js";
import { isObject, Refusal, text } from "./http.js";

type Route = (body: Record<string, unknown>) => unknown;

/** Editing servers from the page (`config` of {@link InspectorOptions}). */
export interface InspectorConfigEditing {
  /** The one file the page writes: the user's own config (the CLI's `~/.config/mcp-client/mcp-client.json`). Nothing else is ever written. */
  file: string;
  /** Loads the configs again after a write, as your tool does (default: `loadAllMCPConfigs(process.cwd())` of `@mcp/manager`). */
  load?: (() => Promise<LoadResult>) | undefined;
  /** Told of each change the page applied: the server's config as it loaded (and its entry), or `undefined` once removed. */
  onChange?:
    ((name: string, config: MCPServerConfig | undefined, entry: DiscoveredServer | undefined) => void) | undefined;
  /** Your tool's record of its servers (`loadAllMCPConfigs`'s `configs` and `servers`), kept in step with each change the page applied. */
  found?: { configs: Record<string, MCPServerConfig>; servers: Record<string, DiscoveredServer> } | undefined;
}

/** Tells `editing` of a change the page applied: `onChange`, and its record of the servers. */
function told(editing: InspectorConfigEditing, name: string, config?: MCPServerConfig, entry?: DiscoveredServer): void {
  editing.onChange?.(name, config, entry);
  const found = editing.found;
  if (found && config && entry) {
    found.configs[name] = config;
    found.servers[name] = entry;
  } else if (found) {
    delete found.configs[name];
    delete found.servers[name];
  }
}

/** What the page shows in place of a value that looks like a secret; sent back, the value in the file is kept. */
export const HIDDEN_VALUE = "(hidden: kept as written)";

/** A server's name in the user's file: 1–64 letters, digits, `_`, `.` or `-`, starting with a letter or digit. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The entry's `env` and `headers` values that look like secrets, hidden. */
function hideSecrets(entry: unknown): unknown {
  if (!isObject(entry)) return entry;
  const copy: Record<string, unknown> = { ...entry };
  for (const key of ["env", "headers"]) {
    const values = copy[key];
    if (!isObject(values)) continue;
    copy[key] = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, typeof v === "string" && looksLikeSecret(v) ? HIDDEN_VALUE : v]),
    );
  }
  return copy;
}

/** `config` with each hidden value put back from `before` (refused when `before` has no such value). */
function keepSecrets(config: Record<string, unknown>, before: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...config };
  for (const key of ["env", "headers"]) {
    const values = copy[key];
    if (!isObject(values)) continue;
    const kept = isObject(before) ? before[key] : undefined;
    const old = isObject(kept) ? kept : {};
    copy[key] = Object.fromEntries(
      Object.entries(values).map(([k, v]) => {
        if (v !== HIDDEN_VALUE) return [k, v];
        if (typeof old[k] !== "string")
          throw new Refusal(400, `"config.${key}.${k}" is the hidden placeholder, but the file has no value to keep`);
        return [k, old[k]];
      }),
    );
  }
  return copy;
}

/**
 * The routes `POST /api/config/servers` (the user's file's servers, secrets hidden), `/api/config/save`
 * `{ name, config, replace? }` and `/api/config/remove` `{ name }`. Without `editing` there are none
 * (404, as for any unknown path).
 */
export function configRoutes(
  manager: MCPManager,
  hub: InspectorHub,
  editing: InspectorConfigEditing | undefined,
  changed: () => void,
): { routes: Record<string, Route>; removed: ReadonlySet<string> } {
  /** Servers removed from the page: the manager keeps them stopped (`disabled`); the page no longer lists them. */
  const removed = new Set<string>();
  if (!editing) return { routes: {}, removed };
  const { file } = editing;
  const load = editing.load ?? (() => loadAllMCPConfigs(process.cwd()));
  const nameOf = (body: Record<string, unknown>): string => {
    const name = text(body, "name");
    if (!NAME.test(name))
      throw new Refusal(400, `"name" must be 1-64 letters, digits, "_", "." or "-" (starting with a letter or digit)`);
    // `constructor`, `toString`, …: every object has one, so a lookup by that name finds it in no file.
    if (name in Object.prototype) throw new Refusal(400, `"name" may not be "${name}" (every JS object has one)`);
    return name;
  };
  /** The user's file's entry `name`, as written (its own key only). */
  const ownEntry = async (name: string): Promise<unknown> => {
    const servers = await readOwnServers(file);
    return Object.hasOwn(servers, name) ? servers[name] : undefined;
  };
  /** Refused when the file does not parse: an edit of a broken file would break it further. */
  const checkFile = async (): Promise<void> => {
    const broken = (await load()).errors.find((e) => e.file === file && e.server === undefined);
    if (broken) throw new Refusal(409, `${broken.message}: fix the file first; nothing was written`);
  };
  /** The file written, or a 409 saying why it could not be (its `servers` is not an object, …). */
  const write = async (name: string, value: unknown): Promise<void> => {
    try {
      await editOwnConfig(file, ["servers", name], value);
    } catch (error) {
      throw new Refusal(409, `${file} could not be edited (${(error as Error).message}); nothing was written`);
    }
  };
  // One edit at a time: each reads the file, then writes it whole; two at once lost the first.
  let queue: Promise<unknown> = Promise.resolve();
  const serial =
    (route: Route): Route =>
    (body) => {
      const run = queue.then(() => route(body));
      queue = run.catch(() => undefined);
      return run;
    };
  const routes: Record<string, Route> = {
    "/api/config/servers": async () => {
      const servers = await readOwnServers(file);
      return {
        file,
        servers: Object.entries(servers).map(([name, config]) => ({ name, config: hideSecrets(config) })),
      } satisfies ConfigServersAnswer;
    },
    "/api/config/save": serial(async (body) => {
      const name = nameOf(body);
      const given = body["config"];
      if (!isObject(given)) throw new Refusal(400, `"config" must be a JSON object (a server's entry)`);
      await checkFile();
      const before = await ownEntry(name);
      if (before !== undefined && body["replace"] !== true)
        throw new Refusal(409, `${file} already has "${name}": save it with "replace": true to replace it`);
      const config = keepSecrets(given, before);
      const problems = serverConfigProblems(config);
      if (problems.length)
        throw new Refusal(400, `"config" is not a server's entry: ${problems.map((p) => p.message).join("; ")}`);
      await write(name, config);
      hub.record({ server: name, kind: "status", method: before === undefined ? "config-added" : "config-replaced" });
      const headers = config["headers"];
      const env = config["env"];
      const warnings = Object.entries({ ...(isObject(headers) ? headers : {}), ...(isObject(env) ? env : {}) })
        .filter(([, value]) => typeof value === "string" && looksLikeSecret(value))
        .map(([key]) => `"${key}" holds what looks like a secret, now written in ${file}: write \${VARIABLE} instead`);
      // Applied as it loads now: the user's entry only, the manager's own checks on top.
      const loaded = await load();
      const entry = Object.hasOwn(loaded.servers, name) ? loaded.servers[name] : undefined;
      const loadedConfig = Object.hasOwn(loaded.configs, name) ? loaded.configs[name] : undefined;
      // A project's entry (the user's file is also the project's when the working directory holds it) runs only once approved.
      if (!entry || !loadedConfig || entry.source.file !== file || entry.source.scope === "project") {
        const error = loaded.errors.find((e) => e.server === name && e.file === file);
        const reason = error
          ? `it does not load: ${error.message}`
          : entry && entry.source.file !== file
            ? `${entry.source.file}'s "${name}" comes first; the inspector does not run it from here`
            : entry?.source.scope === "project"
              ? `${file} is also this project's file here: "${name}" loads as a project server, which runs only once approved (not from here)`
              : entry
                ? `it is disabled in ${file}`
                : `it does not load from ${file}`;
        return { saved: true, applied: false, reason, warnings } satisfies ConfigSaveAnswer;
      }
      removed.delete(name);
      told(editing, name, loadedConfig, entry);
      // Not awaited: the page sees it connect (or fail) on the event stream, as at startup.
      void manager.connectServers({ [name]: loadedConfig }, { [name]: entry }).catch(() => undefined);
      changed();
      return { saved: true, applied: true, warnings } satisfies ConfigSaveAnswer;
    }),
    "/api/config/remove": serial(async (body) => {
      const name = nameOf(body);
      await checkFile();
      if ((await ownEntry(name)) === undefined)
        throw new Refusal(404, `${file} has no server named "${name}" (only servers of that file can be removed here)`);
      await write(name, undefined);
      hub.record({ server: name, kind: "status", method: "config-removed" });
      // The running server goes when it is the file's (a project's of the same name stays).
      if (manager.getConnectionStatus(name)?.source === file) {
        removed.add(name);
        told(editing, name);
        await manager.disconnectServer(name);
      }
      changed();
      return { ok: true };
    }),
  };
  return { routes, removed };
}
