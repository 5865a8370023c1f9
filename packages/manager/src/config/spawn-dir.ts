// Where a user's own stdio server starts (its home, or its `cwd` relative to its config file) and its relative command, so a project's `node_modules` or `./bin` never stands in for it.
import { dirname, isAbsolute, posix, resolve, win32 } from "node:path";
import type { ConfigScope } from "./types.js";

/**
 * Where a stdio server from the user's own config starts, so that the project the user happens to
 * be in cannot stand in for it. A launcher resolves what it runs from its working directory:
 * `npx <pkg>` and `bunx <pkg>` run `./node_modules/.bin/<bin>` or `./node_modules/<pkg>` when the
 * folder has them, `uvx` reads `.venv` and `pyproject.toml`, `npx` and `pnpm dlx` read `.npmrc`
 * (which registry to fetch from), and `./bin/server` or `bin/server` is a path in that folder. A
 * repository that ships any of these would otherwise run its own code as the user's server. So:
 *
 * - a `user`-scope entry with no `cwd` starts in the user's home;
 * - its relative `cwd` is taken from the folder of the config file that writes it (not from the
 *   project: `"cwd": "."` is the config's folder);
 * - its relative command path (`./bin/server`, `bin/server`) is resolved against that `cwd`, and
 *   refused when the entry sets no `cwd` (there is no folder it could mean but the project's);
 * - its relative `envFile` (Cursor, VS Code) is read from the config file's folder too, so a
 *   repository's `.env` (`NODE_OPTIONS=--require ./x.cjs`) never reaches it: see {@link envFileBase};
 * - when the environment's `PATH` has entries inside the project (`mcp` run by `npm run` or
 *   `pnpm exec` there puts `<project>/node_modules/.bin` first; an activated `.venv` puts
 *   `<project>/.venv/bin`) or relative ones, the entry gets that `PATH` without them in its `env`,
 *   so `npx` or `uvx` is not the project's (see {@link pathOutsideProject}). An entry whose `env`
 *   sets `PATH` keeps it.
 *
 * `project` entries (approved as coming from the project) and `local` ones (the user's entries for
 * this one project, Claude Code's `projects[cwd]`) keep the project folder. A config that wants the
 * project says so: `"cwd": "${workspaceFolder}"`, or a command path under it.
 */
export function placeUserServer(
  config: Record<string, unknown>,
  where: {
    scope: ConfigScope;
    file: string;
    home: string;
    project: string;
    path?: string | undefined;
    platform?: NodeJS.Platform | undefined;
  },
): { config: Record<string, unknown> } | { problem: string } {
  const written = config["cwd"];
  // Not a stdio entry, or a `cwd` that is not a string (validation names that): nothing to place.
  if (
    where.scope !== "user" ||
    typeof config["command"] !== "string" ||
    (written !== undefined && typeof written !== "string")
  )
    return { config };
  const cwd = typeof written === "string" && written !== "" ? resolve(dirname(where.file), written) : where.home;
  const command = config["command"];
  const placed: Record<string, unknown> = { ...config, cwd };
  const env = config["env"];
  const ownPath =
    typeof env === "object" && env !== null && Object.keys(env).some((name) => name.toUpperCase() === "PATH");
  const path = ownPath ? undefined : pathOutsideProject(where.path, where.project, where.platform ?? process.platform);
  if (path !== undefined && (env === undefined || (typeof env === "object" && env !== null && !Array.isArray(env))))
    placed["env"] = { ...(env as Record<string, unknown> | undefined), PATH: path };
  if (!isRelativePath(command)) return { config: placed };
  if (written === undefined || written === "") {
    return {
      problem: `"command" ${JSON.stringify(command)} is a relative path, which would run whatever the current project has there; write an absolute path, or set "cwd" to the folder it is in`,
    };
  }
  return { config: { ...placed, command: resolve(cwd, command) } };
}

/** The value of `PATH` in an environment (any case of the name on Windows, as Windows reads it). */
export function pathOf(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): string | undefined {
  if (platform !== "win32") return env["PATH"];
  const name = Object.keys(env).find((key) => key.toUpperCase() === "PATH");
  return name === undefined ? undefined : env[name];
}

/**
 * `path` without its entries inside `project` (the folder itself included) and its relative
 * ones; undefined when it has none of either (nothing to change).
 */
export function pathOutsideProject(
  path: string | undefined,
  project: string,
  platform: NodeJS.Platform,
): string | undefined {
  if (path === undefined || path === "") return undefined;
  const p = platform === "win32" ? win32 : posix;
  const same = (a: string): string => (platform === "win32" ? a.toLowerCase() : a);
  const entries = path.split(p.delimiter);
  const kept = entries.filter((entry) => {
    const dir = entry.trim().replace(/^"(.*)"$/, "$1");
    if (dir === "" || !p.isAbsolute(dir)) return false;
    const inside = p.relative(same(p.resolve(project)), same(p.resolve(dir)));
    return inside === ".." || inside.startsWith(`..${p.sep}`) || p.isAbsolute(inside);
  });
  return kept.length === entries.length ? undefined : kept.join(p.delimiter);
}

/**
 * `env` with its `PATH` less the project's folders and relative entries (see
 * {@link pathOutsideProject}), for a program of the user's own config that the shell looks up on
 * `PATH` (a `headersHelper`); `env` itself when there is nothing to leave out.
 */
export function envOutsideProject(
  env: Readonly<Record<string, string | undefined>>,
  project: string,
  platform: NodeJS.Platform,
): Record<string, string | undefined> {
  const path = pathOutsideProject(pathOf(env, platform), project, platform);
  if (path === undefined) return { ...env };
  const name = platform === "win32" ? (Object.keys(env).find((key) => key.toUpperCase() === "PATH") ?? "PATH") : "PATH";
  return { ...env, [name]: path };
}

/** A command naming a file by a path relative to the working directory (`./x`, `bin/x`, `..\\x`), not a name looked up on `PATH`. */
function isRelativePath(command: string): boolean {
  return /[\\/]/.test(command) && !isAbsolute(command);
}

/** The folder a relative `envFile` is read from: the config file's for a `user`-scope entry, else the project's. */
export function envFileBase(where: { scope: ConfigScope; file: string; cwd: string }): string {
  return where.scope === "user" ? dirname(where.file) : where.cwd;
}
