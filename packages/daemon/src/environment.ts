// What decides how a call's servers run besides their configs: the calling shell's folder and
// environment. A call through the daemon must run what a direct call runs, so:
//   - stdio servers: the CLI writes them into each config it sends, the folder (`cwd`, resolved
//     from the shell's folder) and the environment the server's is built from (`parentEnv`: the
//     shell's safe base, or all of it with `inheritEnv`, less what only describes the terminal:
//     `TERM` & co.). Nothing of the daemon's own reaches them, and both are part of the
//     configuration's key.
//   - HTTP servers: the daemon's own process talks to them, and some of how it does comes from its
//     environment, fixed when it started: the proxy (`HTTPS_PROXY` & co.), TLS trust and checks
//     (`NODE_EXTRA_CA_CERTS`, `NODE_TLS_REJECT_UNAUTHORIZED`, `NODE_OPTIONS`, …) and the folder of
//     OAuth tokens. A shell with no proxy gets `proxy: false` written into the config (the daemon
//     then goes direct, as the shell would). For the rest the CLI sends the shell's values, and the
//     daemon declines a call whose servers would be reached otherwise than the shell would reach
//     them; so does a `headersHelper`, which runs with the shell's whole environment. A declined call
//     is run by the CLI itself, which says why.

import { resolve } from "node:path";
import type { MCPServerConfig } from "@mcp/client";
import { buildChildEnv } from "@mcp/transport-stdio";

/** The proxy variables the HTTP transport reads when a config sets no `proxy` (undici's `EnvHttpProxyAgent`). */
export const PROXY_VARS = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"] as const;

/**
 * Variables the daemon's own process reads when it talks HTTP for a call, besides the proxy: TLS
 * trust and checks, Node's options (`--use-openssl-ca`, …), and where OAuth tokens are kept.
 */
export const PROCESS_VARS = [
  "NODE_EXTRA_CA_CERTS",
  "NODE_TLS_REJECT_UNAUTHORIZED",
  "NODE_OPTIONS",
  "NODE_USE_ENV_PROXY",
  "NODE_USE_SYSTEM_CA",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HOME",
  "XDG_CONFIG_HOME",
  "APPDATA",
] as const;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * What describes the calling terminal, not what a server runs: a server's stdio is pipes, never
 * that terminal, so the daemon's servers are not given these and switching terminals (another
 * `TERM`, `TMUX_PANE`, …) does not start new servers. The rest of the environment still decides.
 */
export const TERMINAL_VARS = new Set([
  "TERM",
  "TERM_PROGRAM",
  "TERM_PROGRAM_VERSION",
  "TERM_SESSION_ID",
  "COLORTERM",
  "COLUMNS",
  "LINES",
  "WINDOWID",
  "TMUX",
  "TMUX_PANE",
  "STY",
  "WINDOW",
  "ITERM_SESSION_ID",
  "KITTY_WINDOW_ID",
  "WT_SESSION",
  "VTE_VERSION",
  "SSH_TTY",
  "GPG_TTY",
  "SHLVL",
  "OLDPWD",
  "_",
]);

function withoutTerminal(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !TERMINAL_VARS.has(name)));
}

/** Whether the transport would take a proxy from this environment (a set, non-empty proxy variable). */
function setsProxy(env: Env): boolean {
  return PROXY_VARS.some((name) => !name.toUpperCase().startsWith("NO_") && Boolean(env[name]));
}

/** What the CLI sends with a call: each config as this shell would run it, and the shell's values of {@link PROXY_VARS} and {@link PROCESS_VARS}. */
export interface ShellCall {
  configs: Record<string, MCPServerConfig>;
  environment: Record<string, string>;
}

/**
 * The configs as this shell, in `cwd`, runs them: a stdio server with its folder and the
 * environment its own is built from; an HTTP server with its CA file's path made absolute, and
 * `proxy: false` when the shell sets no proxy.
 */
export function asThisShellRuns(
  configs: Record<string, MCPServerConfig>,
  cwd: string,
  shell: Env = process.env,
): ShellCall {
  const noProxy = !setsProxy(shell);
  const out: Record<string, MCPServerConfig> = {};
  for (const [name, config] of Object.entries(configs)) {
    if ("command" in config) {
      out[name] = {
        ...config,
        cwd: resolve(cwd, config.cwd ?? "."),
        parentEnv: withoutTerminal(buildChildEnv(undefined, config.inheritEnv === true, shell)),
      };
    } else {
      const http = config as MCPServerConfig & { ca?: unknown; proxy?: unknown };
      out[name] = {
        ...config,
        ...(typeof http.ca === "string" ? { ca: resolve(cwd, http.ca) } : {}),
        ...(http.proxy === undefined && noProxy ? { proxy: false } : {}),
      } as MCPServerConfig;
    }
  }
  const environment: Record<string, string> = {};
  for (const name of [...PROXY_VARS, ...PROCESS_VARS]) {
    const value = shell[name];
    if (value !== undefined) environment[name] = value;
  }
  return { configs: out, environment };
}

/**
 * Why the daemon cannot run a call on these servers as the calling shell would (see the top of
 * this file), or undefined when it can. Names variables, never their values.
 */
export function whyNotHere(
  configs: Record<string, MCPServerConfig>,
  names: string[],
  environment: Env,
  own: Env = process.env,
): string | undefined {
  const differ = new Set<string>();
  const reached: string[] = [];
  for (const name of names) {
    const config = configs[name] as (MCPServerConfig & { headersHelper?: unknown; proxy?: unknown }) | undefined;
    if (!config || "command" in config) continue;
    if (config.headersHelper !== undefined)
      return `server "${name}" gets its headers from a headersHelper, which runs with your shell's whole environment: the daemon does not run it for you`;
    const here = [...PROCESS_VARS, ...(config.proxy === undefined ? PROXY_VARS : [])].filter(
      (variable) => (environment[variable] ?? "") !== (own[variable] ?? ""),
    );
    for (const variable of here) differ.add(variable);
    if (here.length > 0) reached.push(`"${name}"`);
  }
  if (differ.size === 0) return undefined;
  return `the daemon was started with other ${[...differ].join(", ")} than this shell's, and would reach ${reached.join(", ")} otherwise than this shell does (to use it from here: mcp daemon stop, then mcp daemon start in this shell)`;
}
