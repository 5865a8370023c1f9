/** Variables a server gets from the parent by default on POSIX systems. */
export const DEFAULT_INHERITED_ENV_VARS_POSIX = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "TMPDIR", "LANG"] as const;

/** Variables a server gets from the parent by default on Windows. */
export const DEFAULT_INHERITED_ENV_VARS_WINDOWS = [
  "APPDATA",
  "HOMEDRIVE",
  "HOMEPATH",
  "LOCALAPPDATA",
  "PATH",
  "PATHEXT",
  "PROCESSOR_ARCHITECTURE",
  "SYSTEMDRIVE",
  "SYSTEMROOT",
  "TEMP",
  "TMP",
  "USERNAME",
  "USERPROFILE",
  "PROGRAMFILES",
  "COMSPEC",
] as const;

/**
 * The environment a server is started with: a safe base from the parent (or all of it with
 * `inheritEnv`), then `env` on top. Secrets in the parent's environment stay out unless asked for.
 */
export function buildChildEnv(
  env: Record<string, string> | undefined,
  inheritEnv: boolean,
  parent: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const result: Record<string, string> = {};
  if (inheritEnv) {
    for (const [key, value] of Object.entries(parent)) if (value !== undefined) result[key] = value;
  } else {
    const names = platform === "win32" ? DEFAULT_INHERITED_ENV_VARS_WINDOWS : DEFAULT_INHERITED_ENV_VARS_POSIX;
    for (const name of names) {
      const value = parent[name];
      // Skip exported shell functions ("() { … }"): a known injection vector.
      if (value !== undefined && !value.startsWith("()")) result[name] = value;
    }
  }
  return { ...result, ...env };
}
