// Writing our own config file (`mcp-client.json`) in place: an entry added, replaced or removed
// with the user's comments and formatting kept, and the entries read back as written.
import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { applyEdits, modify, parse } from "jsonc-parser";
import { readIfExists } from "./parse.js";

/** Edits of a file running in this process, by real path: one at a time. */
const editing = new Map<string, Promise<unknown>>();
/** How often an edit starts again when another program wrote the file meanwhile. */
const TRIES = 10;
/** A lock file older than this was left by a process that died mid-edit (an edit takes milliseconds). */
const LOCK_STALE_MS = 10_000;

/**
 * Sets one value of our own file (`["servers", name]` for an entry; `undefined` removes it),
 * keeping the user's comments and formatting (jsonc-parser edits, 2-space indentation for what is
 * new). A missing file (and its folder) is made. The file is replaced whole (a temporary file
 * renamed over it, its mode kept; a symlinked file's target is the one replaced, the link kept), so
 * a reader never sees half of it and two writers never interleave; an edit of the same file in this
 * process waits for the one before, and one whose file another program wrote meanwhile starts again
 * on what that program wrote (its change kept). Our own processes (`mcp config add` beside the
 * inspector's page, two hosts) take turns through a lock file beside it (`<file>.lock`, its holder's
 * pid; one whose process is gone, or older than 10 s, is taken over), so none loses another's edit.
 *
 * @throws Error when the file kept changing under it (10 times), or another process held its lock
 *   for 10 s: nothing was written.
 */
export async function editOwnConfig(file: string, path: (string | number)[], value: unknown): Promise<void> {
  const target = await realpath(file).catch(() => file);
  const before = editing.get(target) ?? Promise.resolve();
  const run = before.then(() => underLock(target, () => replaceEdited(target, path, value)));
  const settled = run.catch(() => undefined);
  editing.set(target, settled);
  void settled.then(() => {
    if (editing.get(target) === settled) editing.delete(target);
  });
  return run;
}

/** Runs `edit` holding `<file>.lock` (made with O_EXCL), waiting for another process's turn. */
async function underLock<T>(file: string, edit: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  await mkdir(dirname(file), { recursive: true });
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    const handle = await open(lock, "wx", 0o600).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") return undefined;
      throw error;
    });
    if (handle) {
      await handle.writeFile(`${process.pid}\n`).finally(() => handle.close());
      break;
    }
    if (await lockIsStale(lock)) await rm(lock, { force: true });
    else if (Date.now() > deadline)
      throw new Error(
        `${file} is being edited by another process (${lock} held for 10 s); nothing was written: try again`,
      );
    else await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
  try {
    return await edit();
  } finally {
    await rm(lock, { force: true });
  }
}

/** A lock whose process is gone (this machine's pids) or that is older than {@link LOCK_STALE_MS}. */
async function lockIsStale(lock: string): Promise<boolean> {
  try {
    const [info, text] = await Promise.all([stat(lock), readFile(lock, "utf8")]);
    const age = Date.now() - info.mtimeMs;
    if (age > LOCK_STALE_MS) return true;
    const pid = Number.parseInt(text, 10);
    if (!Number.isInteger(pid) || pid <= 0) return age > 1000; // being written, or not ours
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "ESRCH";
    }
  } catch {
    return false; // gone already: the next turn takes it
  }
}

async function replaceEdited(file: string, path: (string | number)[], value: unknown): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const was = await readIfExists(file);
    const text = was ?? "{}\n";
    const edits = modify(text, path, value, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
    await mkdir(dirname(file), { recursive: true });
    const mode = await stat(file).then(
      (s) => s.mode & 0o7777,
      () => undefined,
    );
    const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(temp, applyEdits(text, edits), mode === undefined ? {} : { mode });
      if (mode !== undefined) await chmod(temp, mode);
      if ((await readIfExists(file)) === was) return await rename(temp, file);
      if (attempt >= TRIES)
        throw new Error(
          `${file} was changed by another program ${TRIES} times while it was being edited; nothing was written: try again`,
        );
    } finally {
      await rm(temp, { force: true });
    }
  }
}

/**
 * The `servers` of our own file as written (nothing expanded): `{}` when the file does not exist or
 * has none. Read leniently, as {@link editOwnConfig} edits: what can be read of a broken file is
 * returned (`loadAllMCPConfigs` is the one that reports its syntax errors).
 */
export async function readOwnServers(file: string): Promise<Record<string, unknown>> {
  const text = await readIfExists(file);
  if (text === undefined) return {};
  const servers = (parse(text) as { servers?: unknown } | undefined)?.servers;
  return typeof servers === "object" && servers !== null && !Array.isArray(servers)
    ? (servers as Record<string, unknown>)
    : {};
}

/**
 * Whether a value about to be written into a config file looks like a secret written out (a long
 * random token), not a `${VAR}` the environment gives at each run: what is left after a scheme
 * (`Bearer `, `Basic `) is one word of 20 or more token characters, mixing letters and digits.
 */
export function looksLikeSecret(value: string): boolean {
  if (value.includes("${")) return false;
  const token = value.replace(/^(Bearer|Basic|Token|token|Bot)\s+/, "").trim();
  if (token.length < 20 || !/^[A-Za-z0-9._~+/=:-]+$/.test(token) || /^[./~]/.test(token) || token.includes("://"))
    return false;
  return /[A-Za-z]/.test(token) && /[0-9]/.test(token);
}
