import { dirname, isAbsolute, resolve } from "node:path";
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
 *   repository's `.env` (`NODE_OPTIONS=--require ./x.cjs`) never reaches it: see {@link envFileBase}.
 *
 * `project` entries (approved as coming from the project) and `local` ones (the user's entries for
 * this one project, Claude Code's `projects[cwd]`) keep the project folder. A config that wants the
 * project says so: `"cwd": "${workspaceFolder}"`, or a command path under it.
 */
export function placeUserServer(
  config: Record<string, unknown>,
  where: { scope: ConfigScope; file: string; home: string },
): { config: Record<string, unknown> } | { problem: string } {
  if (where.scope !== "user" || typeof config["command"] !== "string") return { config };
  const written = config["cwd"];
  const cwd = typeof written === "string" && written !== "" ? resolve(dirname(where.file), written) : where.home;
  const command = config["command"];
  if (!isRelativePath(command)) return { config: { ...config, cwd } };
  if (written === undefined || written === "") {
    return {
      problem: `"command" ${JSON.stringify(command)} is a relative path, which would run whatever the current project has there; write an absolute path, or set "cwd" to the folder it is in`,
    };
  }
  return { config: { ...config, cwd, command: resolve(cwd, command) } };
}

/** A command naming a file by a path relative to the working directory (`./x`, `bin/x`, `..\\x`), not a name looked up on `PATH`. */
function isRelativePath(command: string): boolean {
  return /[\\/]/.test(command) && !isAbsolute(command);
}

/** The folder a relative `envFile` is read from: the config file's for a `user`-scope entry, else the project's. */
export function envFileBase(where: { scope: ConfigScope; file: string; cwd: string }): string {
  return where.scope === "user" ? dirname(where.file) : where.cwd;
}
