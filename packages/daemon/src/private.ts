// The daemon's socket lives in a folder only its user can enter. The daemon creates that folder
// (mode 700) or refuses to start in one that is not private to it; it never changes the mode of a
// folder it did not create. A client checks the folder and the socket (their owner and mode, without
// following links) before it connects, so a socket another local user put there first gets nothing.

import { chmodSync, lstatSync, mkdirSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { DaemonError } from "./errors.js";

function uid(): number {
  return process.getuid?.() ?? -1;
}

function lstat(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

const octal = (mode: number): string => (mode & 0o7777).toString(8).padStart(3, "0");

/** Why `dir` is not a folder private to this user (its own, mode 700, not a link); undefined when it is. */
export function folderProblem(dir: string): string | undefined {
  if (process.platform === "win32") return undefined;
  const stat = lstat(dir);
  if (!stat) return `the folder ${dir} does not exist`;
  if (stat.isSymbolicLink()) return `${dir} is a symbolic link, not a folder`;
  if (!stat.isDirectory()) return `${dir} is not a folder`;
  if (stat.uid !== uid()) return `the folder ${dir} belongs to uid ${stat.uid}, not to you (uid ${uid()})`;
  if ((stat.mode & 0o077) !== 0)
    return `the folder ${dir} has mode ${octal(stat.mode)}, not 700 (other users may enter it)`;
  return undefined;
}

/**
 * Whether a client may connect to `socket`: "ours" (in a folder private to this user, and this
 * user's socket), "absent" (no socket or no folder: nothing to connect to), or why not.
 */
export function checkSocket(
  socket: string,
): { state: "ours" } | { state: "absent" } | { state: "foreign"; problem: string } {
  if (process.platform === "win32") return { state: "ours" };
  const dir = dirname(socket);
  if (!lstat(dir)) return { state: "absent" };
  const folder = folderProblem(dir);
  if (folder) return { state: "foreign", problem: folder };
  const stat = lstat(socket);
  // Node's fs.realpathSync (used by require and import to find a package's real folder) reads the
  // last stat the process made when a path part is in its cache; a socket's there makes it stop
  // early and keep a pnpm link as a real path. A last stat of the folder leaves nothing misleading.
  lstat(dir);
  if (!stat) return { state: "absent" };
  if (!stat.isSocket()) return { state: "foreign", problem: `${socket} is not a socket` };
  if (stat.uid !== uid())
    return { state: "foreign", problem: `the socket ${socket} belongs to uid ${stat.uid}, not to you (uid ${uid()})` };
  return { state: "ours" };
}

/**
 * Makes the socket's folder: created here with mode 700 (its parents as needed), or, when it is
 * there already, checked to be this user's and private. Throws a `DaemonError` that says what is
 * wrong; never changes a folder it did not create.
 */
export function makePrivateFolder(socket: string): void {
  if (process.platform === "win32") return;
  const dir = dirname(socket);
  mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
  let created = false;
  try {
    mkdirSync(dir, { mode: 0o700 });
    created = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  // Ours, just made: the umask may have taken bits from 700.
  if (created) chmodSync(dir, 0o700);
  const problem = folderProblem(dir);
  if (problem)
    throw new DaemonError(
      `the mcp daemon does not start: ${problem}. Its socket's folder must be yours alone; remove it, or set MCP_DAEMON_SOCKET to a path in a folder of mode 700`,
    );
}
