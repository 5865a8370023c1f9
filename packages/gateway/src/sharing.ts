// Never one shared token for many users unless the config says so: when a gateway can have more
// than one caller identity, an upstream server that carries credentials of its own (an HTTP
// server with a secret header, OAuth, an auth provider, a headers helper, a password in its URL)
// must be named in `credentials`: `{ mode: "shared" }` to accept that every caller reaches it as
// that one identity, or `exchange` / `consent` for each user's own. A stdio server's environment
// cannot be told apart from plain settings as surely (a name is only a hint), so a secret-looking
// variable there is a warning, not a refusal.

import type { MCPServerConfig } from "@mcp/client";
import { InvalidConfigError } from "@mcp/client";

/** A header, query parameter or environment variable name that looks like it holds a secret. */
const SECRET_NAME =
  /auth|token|secret|passw|credential|cookie|session|jwt|bearer|signature|(api|access|private)[-_]?key|(^|[-_])(key|sig|pwd|pass)($|[-_])/i;

/** A URL path part that may be a key: long, of a key's characters (with at least 4 digits in 3 runs or more, and 4 letters, checked apart: `server-2025` is a name). */
const KEY_LIKE = /^[A-Za-z0-9_\-.~+=]{20,}$/;

/** A header value that is a credential whatever the header's name: an HTTP authentication scheme and its token. */
const SECRET_VALUE = /^\s*(bearer|basic|dpop|token|digest)\s+\S/i;

/** What of its own credentials an upstream config carries (empty: none). */
export function credentialsOf(config: MCPServerConfig): string[] {
  const found: string[] = [];
  if (config.type !== "http" && config.type !== "sse") return found;
  const given = config as MCPServerConfig & { oauth?: unknown; headersHelper?: unknown };
  for (const [name, value] of Object.entries(config.headers ?? {}))
    if ((SECRET_NAME.test(name) || SECRET_VALUE.test(String(value))) && name.toLowerCase() !== "proxy-authorization")
      found.push(`header ${name}`);
  if (given.oauth !== undefined && given.oauth !== false) found.push("oauth");
  if (config.authProvider !== undefined) found.push("authProvider");
  if (given.headersHelper !== undefined) found.push("headersHelper");
  const url = URL.parse(config.url);
  if (url?.username || url?.password) found.push("a user or password in its URL");
  for (const name of url?.searchParams.keys() ?? []) if (SECRET_NAME.test(name)) found.push(`URL parameter ${name}`);
  // A hosted server's secret URL: the key is a part of the path; or a path parameter (`;jsessionid=`).
  for (const part of url?.pathname.split("/") ?? []) {
    const [segment = "", ...params] = part.split(";");
    if (
      KEY_LIKE.test(segment) &&
      (segment.match(/\d/g)?.length ?? 0) >= 4 &&
      (segment.match(/\d+/g)?.length ?? 0) >= 3 &&
      (segment.match(/[a-z]/gi)?.length ?? 0) >= 4
    )
      found.push("a key-like part in its URL path");
    for (const param of params) {
      const name = param.split("=")[0] ?? "";
      if (SECRET_NAME.test(name)) found.push(`URL parameter ${name}`);
    }
  }
  return found;
}

/** The names of a stdio server's environment variables that look like secrets (by name, or set from one: `"${GITHUB_TOKEN}"`). */
export function secretEnvOf(config: MCPServerConfig): string[] {
  if (config.type === "http" || config.type === "sse" || !("env" in config)) return [];
  return Object.entries(config.env ?? {})
    .filter(
      ([name, value]) =>
        SECRET_NAME.test(name) || [...String(value).matchAll(/\$\{(\w+)/g)].some((m) => SECRET_NAME.test(m[1]!)),
    )
    .map(([name]) => name);
}

/** A stdio server's options that look like they give it a secret (`--api-key <key>`, `--token=<token>`). */
export function secretArgsOf(config: MCPServerConfig): string[] {
  if (config.type === "http" || config.type === "sse" || !("args" in config)) return [];
  return (config.args ?? []).flatMap((arg) => {
    const flag = /^--?([\w-]+)(=.)?/.exec(String(arg));
    return flag && SECRET_NAME.test(flag[1]!) ? [`argument --${flag[1]!.replace(/^-+/, "")}`] : [];
  });
}

/** What decides whether a gateway can have more than one caller identity. */
export interface CallerSources {
  oidc?: unknown;
  authenticate?: unknown;
  tokens?: ReadonlyMap<string, { id: string }> | undefined;
  callers?: readonly { id: string }[] | undefined;
}

/**
 * Whether more than one caller identity can reach the gateway: callers signed in at an issuer, a
 * custom `authenticate` (unless `callers` names exactly one), or several distinct static callers.
 */
export function manyCallers(options: CallerSources): boolean {
  if (options.oidc) return true;
  const listed = options.callers ?? (options.tokens ? [...options.tokens.values()] : undefined);
  // Whoever a token brings can call, whatever `callers` says.
  const distinct = new Set([...(listed ?? []), ...(options.tokens?.values() ?? [])].map((caller) => caller.id)).size;
  if (options.authenticate) return options.callers === undefined || distinct !== 1;
  return distinct > 1;
}

/**
 * A gateway that several callers can use refused an upstream that would give them all one
 * identity: an {@link InvalidConfigError} (field `credentials`) with its own code, naming the
 * servers and the fix.
 */
export class SharedCredentialsError extends InvalidConfigError<"shared_credentials"> {
  static override readonly brand: string = "SharedCredentialsError";
  /** The servers that carry credentials of their own and have no `credentials` entry. */
  declare readonly servers: readonly string[];

  constructor(servers: readonly string[], what: Readonly<Record<string, string[]>>) {
    const one = servers.length === 1;
    super(
      `${servers.map((s) => `"${s}" (${what[s]!.join(", ")})`).join(", ")} ${one ? "carries" : "carry"} credentials of ${one ? "its" : "their"} own and ${one ? "has" : "have"} no credentials entry, while several callers can use this gateway: every caller would reach ${one ? "it" : "them"} as that one identity. Accept that with credentials: { ${servers.map((s) => `${JSON.stringify(s)}: { mode: "shared" }`).join(", ")} }, or give each user their own ({ mode: "exchange", … } or { mode: "consent", … })`,
      { field: "credentials", code: "shared_credentials" },
    );
    this.servers = [...servers];
  }
}

/**
 * Refuses (a {@link SharedCredentialsError}) servers of `configs` that carry credentials of their
 * own and have no `credentials` entry, when several callers can use the gateway; warns of stdio
 * servers with secret-looking environment variables and no entry. A single-caller gateway passes.
 * A token store's sign-in is known only asynchronously: pass what `MCPManager.hasSignIn` found as
 * `signedIn` (createGateway, synchronous, cannot look).
 */
export function checkSharing(
  configs: Readonly<Record<string, MCPServerConfig>>,
  options: CallerSources & {
    credentials?: Readonly<Record<string, unknown>> | undefined;
    /** Servers the manager holds a stored OAuth sign-in for (see `MCPManager.hasSignIn`): credentials of their own too. */
    signedIn?: ReadonlySet<string> | undefined;
  },
  warn: (message: string) => void = () => {},
): void {
  if (!manyCallers(options)) return;
  const what: Record<string, string[]> = {};
  for (const [server, config] of Object.entries(configs)) {
    if (options.credentials?.[server] !== undefined) continue;
    const found = credentialsOf(config);
    if (options.signedIn?.has(server)) found.push("a stored OAuth sign-in");
    if (found.length > 0) what[server] = found;
    const env = secretEnvOf(config);
    const args = secretArgsOf(config);
    const where = [
      ...(env.length > 0 ? [`${env.join(", ")} in its environment`] : []),
      ...(args.length > 0 ? [`${args.join(", ")} in its arguments`] : []),
    ];
    if (where.length > 0)
      warn(
        `server "${server}" runs with ${where.join(" and ")}, and several callers use this gateway: if that is a credential, they all act as its one identity (say credentials: { "${server}": { mode: "shared" } } to accept it and silence this warning)`,
      );
  }
  const servers = Object.keys(what);
  if (servers.length > 0) throw new SharedCredentialsError(servers, what);
}

/**
 * For a gateway several callers can use: whether a server the manager gained after the gateway was
 * made (not checked then) may be served. One that carries credentials of its own and has no
 * `credentials` entry is not, and `warn` says so once per config. Undefined: every server may.
 */
export function lateSharing(
  known: ReadonlySet<string>,
  configOf: (server: string) => MCPServerConfig | undefined,
  options: CallerSources & { credentials?: Readonly<Record<string, unknown>> | undefined },
  warn: (message: string) => void = () => {},
): ((server: string) => boolean) | undefined {
  if (!manyCallers(options)) return undefined;
  const decided = new WeakMap<MCPServerConfig, boolean>();
  return (server) => {
    const config = configOf(server);
    if (known.has(server) || options.credentials?.[server] !== undefined || !config) return true;
    let ok = decided.get(config);
    if (ok === undefined) {
      const found = credentialsOf(config);
      ok = found.length === 0;
      decided.set(config, ok);
      if (!ok)
        warn(
          `${new SharedCredentialsError([server], { [server]: found }).message}. It was added after the gateway was made: it is not served`,
        );
    }
    return ok;
  };
}
