// The child's environment: a safe base of the parent's variables, network settings (proxies, CA bundles) passed on, the config's own on top.
import { envValue } from "./windows.js";

/** Variables a server gets from the parent by default on POSIX systems. */
export const DEFAULT_INHERITED_ENV_VARS_POSIX = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "TMPDIR",
  "LANG",
] as const;

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
 * Network settings a server gets from the parent on every platform, so a server that calls out
 * (an API, a package registry) works behind a company proxy or a private CA: the proxy variables
 * in both cases, as tools read either, and the CA bundle variables of Node, OpenSSL, Python
 * requests and curl. A proxy URL may carry the proxy's own credentials; nothing else is passed.
 */
export const DEFAULT_NETWORK_ENV_VARS = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
] as const;

/**
 * The environment a server is started with (names compared case-insensitively on Windows): a safe base from the parent (or all of it with
 * `inheritEnv`), then `env` on top. Secrets in the parent's environment stay out unless asked for.
 */
export function buildChildEnv(
  env: Record<string, string> | undefined,
  inheritEnv: boolean,
  parent: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const result: Record<string, string> = {};
  if (inheritEnv) {
    for (const [key, value] of Object.entries(parent)) if (value !== undefined) result[key] = value;
  } else {
    const names = platform === "win32" ? DEFAULT_INHERITED_ENV_VARS_WINDOWS : DEFAULT_INHERITED_ENV_VARS_POSIX;
    for (const name of [...names, ...DEFAULT_NETWORK_ENV_VARS]) {
      const value = platform === "win32" ? envValue(parent, name) : parent[name];
      // Skip exported shell functions ("() { … }"): a known injection vector.
      if (value !== undefined && !value.startsWith("()")) result[name] = value;
    }
  }
  if (platform === "win32" && env) {
    // Windows reads names case-insensitively: one entry per name, the config's value winning
    // (a config's `PATH` replaces an inherited `Path` instead of sitting beside it).
    const given = new Set(Object.keys(env).map((key) => key.toLowerCase()));
    for (const key of Object.keys(result)) if (given.has(key.toLowerCase())) delete result[key];
  }
  return { ...result, ...env };
}
