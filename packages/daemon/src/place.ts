// Where this user's daemon socket lives. In order: `MCP_DAEMON_SOCKET`; `daemon/daemon.sock` in our
// cache folder; when that path is too long for a Unix socket, a folder of ours in `$XDG_RUNTIME_DIR`
// (only when it is set, ours, mode 700 and not a link: a folder no one else can enter); else a
// folder of its own in the temp folder, `mcp-cli-<uid>-<hash>`. That name is predictable, so
// another local user may make it first: then `daemon start` makes one with a random name
// (`mkdtemp`) and writes its path into the cache folder (`daemon-folder`), where clients find it.
// Nobody else can write there, and nobody can guess the random name: a squatter blocks no path.
// The socket's folder is checked (ours, mode 700) before anything is sent, whichever it is.

import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";
import { folderProblem, makePrivateFolder } from "./private.js";

/** sun_path holds 108 bytes on Linux, 104 on macOS. */
const MAX_SOCKET_PATH = 100;

function hashOf(cacheDir: string): string {
  return createHash("sha256").update(cacheDir).digest("hex");
}

/** The predictable temp-folder name for this user and cache folder. */
function tempFolder(cacheDir: string): string {
  return join(tmpdir(), `mcp-cli-${process.getuid?.() ?? userInfo().uid}-${hashOf(cacheDir).slice(0, 12)}`);
}

/** The file in the cache folder that names the random temp folder `daemon start` made. */
function pointerFile(cacheDir: string): string {
  return join(cacheDir, "daemon-folder");
}

/**
 * The random folder the pointer names, when both can be trusted: the pointer is a file of ours
 * nobody else may write, and it names a folder of ours, mode 700, made for this cache folder in the
 * temp folder. Undefined otherwise (then the predictable name is tried).
 */
function recordedFolder(cacheDir: string): string | undefined {
  try {
    const stat = lstatSync(pointerFile(cacheDir));
    if (!stat.isFile() || stat.uid !== (process.getuid?.() ?? -1) || (stat.mode & 0o022) !== 0) return undefined;
    const folder = readFileSync(pointerFile(cacheDir), "utf8").trim();
    if (dirname(folder) !== tmpdir() || !basename(folder).startsWith(`${basename(tempFolder(cacheDir))}-`))
      return undefined;
    return folderProblem(folder) === undefined ? folder : undefined;
  } catch {
    return undefined;
  }
}

/** `$XDG_RUNTIME_DIR` when it is a folder only this user can enter; else undefined. */
function runtimeDir(env: NodeJS.ProcessEnv): string | undefined {
  const dir = env["XDG_RUNTIME_DIR"];
  return dir && isAbsolute(dir) && folderProblem(dir) === undefined ? dir : undefined;
}

/**
 * The socket of this user's daemon for the cache folder `cacheDir` (the manager's
 * `defaultCacheDir()`; see the top of this file); a named pipe on Windows. Nothing is made.
 */
export function daemonSocketPath(cacheDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const given = env["MCP_DAEMON_SOCKET"];
  if (given) return given;
  const hash = hashOf(cacheDir);
  if (process.platform === "win32") return `\\\\.\\pipe\\mcp-cli-daemon-${userInfo().username}-${hash.slice(0, 8)}`;
  const path = join(cacheDir, "daemon", "daemon.sock");
  if (Buffer.byteLength(path) < MAX_SOCKET_PATH) return path;
  const runtime = runtimeDir(env);
  const inRuntime = runtime === undefined ? undefined : join(runtime, `mcp-cli-${hash.slice(0, 12)}`, "daemon.sock");
  if (inRuntime !== undefined && Buffer.byteLength(inRuntime) < MAX_SOCKET_PATH) return inRuntime;
  return join(recordedFolder(cacheDir) ?? tempFolder(cacheDir), "daemon.sock");
}

/**
 * Makes the folder of `socket` for the daemon (see `makePrivateFolder`) and returns the socket to
 * listen on. When it is the predictable temp folder and another user has it, a folder with a
 * random name is made instead and recorded for clients, and `note` is told why; any other folder
 * that is not ours alone is refused with a `DaemonError` that says why.
 */
export function claimSocketFolder(
  cacheDir: string,
  socket: string,
  note: (message: string) => void = () => {},
): string {
  const predictable = process.platform !== "win32" && dirname(socket) === tempFolder(cacheDir);
  try {
    makePrivateFolder(socket);
    return socket;
  } catch (error) {
    const problem = predictable ? folderProblem(dirname(socket)) : undefined;
    if (problem === undefined) throw error;
    const folder = mkdtempSync(`${dirname(socket)}-`); // mode 700, a name no one can guess
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const temp = `${pointerFile(cacheDir)}.${process.pid}.tmp`;
    writeFileSync(temp, `${folder}\n`, { mode: 0o600 });
    renameSync(temp, pointerFile(cacheDir));
    note(`the daemon's usual folder is not yours alone (${problem}); its socket goes to ${folder} instead`);
    return join(folder, "daemon.sock");
  }
}
