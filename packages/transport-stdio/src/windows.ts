// Starting a server on Windows without a shell's surprises. `npx`, `uvx` and `pnpm` are `.cmd`
// shims there: Node refuses to spawn a batch file without a shell (CVE-2024-27980), and a shell
// re-parses the command line, so an argument could run a command (the "BatBadBut" class of bugs).
// Here a command is resolved through `PATH` and `PATHEXT` as cmd.exe would, and a batch file is
// started as `cmd.exe /d /s /c "<command line>"` with every argument quoted for the program and
// every cmd.exe metacharacter escaped (twice for a batch file, which parses its `%*` once more).
// Functions of their inputs (platform, environment, a file test), so the rules are tested on any
// machine. Note: the current directory is not searched, so a project cannot plant an `npx.cmd`; a
// relative command or `PATH` entry is taken from the folder the server starts in (its `cwd`), as
// POSIX does after changing to it, not from this process's folder.
import { statSync } from "node:fs";
import { win32 } from "node:path";

/** Characters cmd.exe gives a meaning to; each is escaped with `^`. */
const CMD_META = /[()\][%!^"`<>&|;, *?]/g;

/** A value of `env` by name, as Windows reads names: case-insensitively. */
export function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  if (env[name] !== undefined) return env[name];
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(env)) if (key.toLowerCase() === lower && value !== undefined) return value;
  return undefined;
}

/** The extensions Windows tries for a bare command name, lower-case, in order. */
export function pathExtensions(env: Readonly<Record<string, string | undefined>>): string[] {
  const raw = envValue(env, "PATHEXT") ?? ".COM;.EXE;.BAT;.CMD";
  return raw
    .split(";")
    .map((ext) => ext.trim().toLowerCase())
    .filter((ext) => ext.startsWith("."));
}

function join(dir: string, name: string): string {
  return /[\\/]$/.test(dir) ? `${dir}${name}` : `${dir}\\${name}`;
}

/**
 * The file a command names, as cmd.exe finds it: a path is tried as it is and with each `PATHEXT`
 * extension; a bare name in each `PATH` directory the same way. A relative path or `PATH` entry is
 * taken from `cwd`, the folder the server starts in (when given). Undefined when nothing matches
 * (the spawn then fails with ENOENT, reported as a {@link SpawnError}).
 */
export function resolveWindowsCommand(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  isFile: (path: string) => boolean,
  cwd?: string,
): string | undefined {
  const exts = pathExtensions(env);
  const hasExt = exts.some((ext) => command.toLowerCase().endsWith(ext));
  const inCwd = (path: string): string => (cwd === undefined || win32.isAbsolute(path) ? path : win32.join(cwd, path));
  const candidates = (base: string): string[] => (hasExt ? [inCwd(base)] : exts.map((ext) => inCwd(`${base}${ext}`)));
  if (/[\\/:]/.test(command)) return candidates(command).find(isFile);
  const dirs = (envValue(env, "PATH") ?? "")
    .split(";")
    .map((dir) => dir.trim().replace(/^"(.*)"$/, "$1"))
    .filter(Boolean);
  for (const dir of dirs) {
    const found = candidates(join(dir, command)).find(isFile);
    if (found) return found;
  }
  return undefined;
}

/** True for a file Windows runs through cmd.exe. */
export function isBatchFile(file: string): boolean {
  return /\.(cmd|bat)$/i.test(file);
}

/**
 * One argument as a Windows program reads it back (CommandLineToArgvW / the C runtime): quoted,
 * a quote escaped with a backslash, the backslashes before a quote or the end doubled.
 */
export function quoteArgument(arg: string): string {
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, "$1$1")}"`;
}

/** `text` with every cmd.exe metacharacter escaped with `^`. */
export function escapeForCmd(text: string): string {
  return text.replace(CMD_META, "^$&");
}

/** Why an argument cannot go through cmd.exe safely, or undefined. */
export function unsafeForCmd(arg: string): string | undefined {
  if (/[\r\n]/.test(arg)) return "a line break (cmd.exe ends the command there)";
  if (arg.includes("\0")) return "a NUL character";
  return undefined;
}

/** How to start `command args` on Windows: the file and arguments for spawn, and its options. */
export interface WindowsSpawn {
  file: string;
  args: string[];
  /** Set for cmd.exe: the command line is already quoted and escaped. */
  windowsVerbatimArguments: boolean;
}

/**
 * The spawn of `command args` on Windows. A batch file (`npx.cmd`, …) runs through cmd.exe
 * (`ComSpec`) with its command line quoted and escaped; anything else is spawned directly, as on
 * POSIX. Throws a `TypeError` naming the argument that cmd.exe cannot be given safely.
 */
export function windowsSpawn(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  isFile: (path: string) => boolean,
  cwd?: string,
): WindowsSpawn {
  const file = resolveWindowsCommand(command, env, isFile, cwd);
  if (file === undefined || !isBatchFile(file))
    return { file: file ?? command, args: [...args], windowsVerbatimArguments: false };
  args.forEach((arg, index) => {
    const why = unsafeForCmd(arg);
    if (why)
      throw new TypeError(
        `argument ${index + 1} of ${command} contains ${why}; it cannot be passed to a batch file (${file}) safely`,
      );
  });
  // The file: escaped, not quoted (as cross-spawn does). Each argument: quoted for the program,
  // escaped once for the cmd.exe we start and once more for the batch file's own `%*` line.
  const line = [escapeForCmd(file), ...args.map((arg) => escapeForCmd(escapeForCmd(quoteArgument(arg))))].join(" ");
  return {
    file: envValue(env, "ComSpec") ?? "cmd.exe",
    args: ["/d", "/s", "/c", `"${line}"`],
    windowsVerbatimArguments: true,
  };
}

function fileExists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** What to spawn for `command args` (started in `cwd`) on `platform`: on Windows see {@link windowsSpawn}; elsewhere the command itself. */
export function spawnTarget(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  isFile: (path: string) => boolean = fileExists,
  cwd?: string,
): WindowsSpawn {
  return platform === "win32"
    ? windowsSpawn(command, args, env, isFile, cwd)
    : { file: command, args: [...args], windowsVerbatimArguments: false };
}

/** The command that ends a process and every process it started: `taskkill /T /F`. */
export function treeKillCommand(pid: number): { file: string; args: string[] } {
  return { file: "taskkill", args: ["/pid", String(pid), "/T", "/F"] };
}
