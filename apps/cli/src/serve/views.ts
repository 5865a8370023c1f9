// What `mcp serve` reads from our own config file besides the servers: `views` beside `servers` in
// the user's `mcp-client.json` (or the files given with --config, which then stand for it), and
// each server entry's `gateway` settings (how a signed-in user's requests reach it).

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { MCPServerConfig } from "@mcp/client";
import {
  checkSharing,
  parseViews,
  SharedCredentialsError,
  type CallerSources,
  type ConsentOptions,
  type ConsentStore,
  type UpstreamCredentials,
  type View,
} from "@mcp/gateway";
import { InvalidConfigError } from "@mcp/jsonrpc";
import { OWN_FILE, type MCPManager } from "@mcp/manager";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { configDir } from "../session.js";

/** What {@link readServeConfig} finds. */
export interface ServeConfig {
  views: Map<string, View>;
  /** Per server: `gateway.credentials` of its entry, `exchange`'s secret read from the environment. */
  credentials: Record<string, UpstreamCredentials>;
}

/**
 * A server entry's `"gateway": { "credentials": "exchange", "audience"?, "resource"?, "scope"?,
 * "clientId"?, "clientSecretEnv"? }` (or `"credentials": "shared"`): the client id defaults to
 * `--introspection-client`'s, the secret is read from `$<clientSecretEnv>` (default
 * `MCP_EXCHANGE_SECRET`), never from the file. Or `"credentials": "consent", "issuer"?, "scope"?,
 * "resource"?, "clientId"?, "clientSecretEnv"?`: each user authorizes the gateway at the server's
 * own authorization server (a client registered dynamically unless `clientId`; a secret only from
 * `$<clientSecretEnv>` when that is named).
 */
function credentialsOf(
  name: string,
  entry: unknown,
  file: string,
  client: string | undefined,
  env: NodeJS.ProcessEnv,
): UpstreamCredentials | undefined {
  const gateway = (entry as { gateway?: unknown } | null)?.gateway;
  if (gateway === undefined) return undefined;
  const field = `servers.${name}.gateway`;
  const bad = (why: string): InvalidConfigError => new InvalidConfigError(`${file}: ${field}${why}`, { file, field });
  if (typeof gateway !== "object" || gateway === null) throw bad(" must be an object");
  const g = gateway as Record<string, unknown>;
  for (const key of ["audience", "resource", "scope", "clientId", "clientSecretEnv", "issuer"])
    if (g[key] !== undefined && typeof g[key] !== "string") throw bad(`.${key} must be a string`);
  if (g["credentials"] === "shared") return { mode: "shared" };
  const text = (key: string): string | undefined => g[key] as string | undefined;
  if (g["credentials"] === "consent") {
    const variable = text("clientSecretEnv");
    const clientSecret = variable === undefined ? undefined : env[variable];
    if (variable !== undefined && !clientSecret)
      throw bad(`: "consent" names $${variable} for its client secret, which is not set`);
    if (variable !== undefined && !text("clientId")) throw bad(`: "consent" with a client secret needs its clientId`);
    return {
      mode: "consent",
      clientId: text("clientId"),
      clientSecret,
      issuer: text("issuer"),
      scope: text("scope"),
      resource: text("resource"),
    };
  }
  if (g["credentials"] !== "exchange")
    throw bad(`.credentials must be "exchange", "consent" or "shared", not ${JSON.stringify(g["credentials"])}`);
  const clientId = (g["clientId"] as string | undefined) ?? client;
  if (!clientId) throw bad(`: "exchange" needs the gateway's clientId at the issuer (or --introspection-client)`);
  const variable = (g["clientSecretEnv"] as string | undefined) ?? "MCP_EXCHANGE_SECRET";
  const clientSecret = env[variable];
  if (!clientSecret) throw bad(`: "exchange" needs the secret of client ${clientId} in $${variable}`);
  return {
    mode: "exchange",
    clientId,
    clientSecret,
    audience: text("audience"),
    resource: text("resource"),
    scope: text("scope"),
  };
}

/** The views and server credentials of our config file(s); an unreadable file has none, a malformed one is an error naming it. */
export async function readServeConfig(
  home: string,
  files: readonly string[] | undefined,
  client?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServeConfig> {
  const found: ServeConfig = { views: new Map(), credentials: {} };
  for (const file of files?.length ? files : [join(configDir(home), OWN_FILE)]) {
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const errors: ParseError[] = [];
    const document = parse(text, errors, { allowTrailingComma: true }) as
      { views?: unknown; servers?: unknown; mcpServers?: unknown } | undefined;
    if (errors.length > 0)
      throw new InvalidConfigError(
        `${file}: not JSON (${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset})`,
        { file },
      );
    for (const [name, view] of parseViews(document?.views, file)) found.views.set(name, view);
    const servers = document?.servers ?? document?.mcpServers;
    if (typeof servers !== "object" || servers === null) continue;
    for (const [name, entry] of Object.entries(servers)) {
      const credentials = credentialsOf(name, entry, file, client, env);
      if (credentials) found.credentials[name] = credentials;
    }
  }
  return found;
}

/**
 * The gateway's consent options when a server takes each user's consent: the callback URL users'
 * browsers reach (`MCP_CONSENT_REDIRECT_URI`, e.g. `https://mcp.example.com/oauth/callback`), the
 * key that seals their tokens (`MCP_CONSENT_KEY`, 32 bytes in base64, the same on every replica),
 * the gateway's client at the callers' issuer where whoever opens a consent link signs in first
 * (`MCP_CONSENT_CLIENT_ID`, and `MCP_CONSENT_CLIENT_SECRET` for a confidential client, with the
 * callback URL registered as its redirect URI), and Redis's store when MCP_REDIS_URL is set (else
 * memory: one replica).
 */
export function consentOptions(
  credentials: Record<string, UpstreamCredentials>,
  store: ConsentStore | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ConsentOptions | undefined {
  const server = Object.keys(credentials).find((name) => credentials[name]!.mode === "consent");
  if (server === undefined) return undefined;
  const redirectUri = env["MCP_CONSENT_REDIRECT_URI"];
  const key = env["MCP_CONSENT_KEY"];
  const clientId = env["MCP_CONSENT_CLIENT_ID"];
  if (!redirectUri || !key || !clientId)
    throw new InvalidConfigError(
      `server "${server}" takes each user's consent: set MCP_CONSENT_REDIRECT_URI (the gateway's public callback URL), MCP_CONSENT_KEY (openssl rand -base64 32) and MCP_CONSENT_CLIENT_ID (the gateway's client at the callers' issuer, with MCP_CONSENT_CLIENT_SECRET if it has one)`,
      { field: `servers.${server}.gateway` },
    );
  return { redirectUri, key, store, signIn: { clientId, clientSecret: env["MCP_CONSENT_CLIENT_SECRET"] || undefined } };
}

/**
 * Refuses to serve, to several callers, servers that carry credentials of their own with no
 * `"gateway": { "credentials": … }` in their entry (the gateway's check, its fix said in this
 * config's terms; a sign-in `mcp auth login` saved counts: `signedIn`, see {@link signedInServers});
 * warns of stdio servers with secret-looking environment variables.
 */
export function checkServeSharing(
  configs: Readonly<Record<string, MCPServerConfig>>,
  options: CallerSources & { credentials: Record<string, UpstreamCredentials>; signedIn?: ReadonlySet<string> },
  warn: (message: string) => void,
): void {
  try {
    checkSharing(configs, options, (message) =>
      warn(
        message.replace(
          /say credentials: \{ "([^"]+)": \{ mode: "shared" \} \}/,
          'add "gateway": { "credentials": "shared" } to "$1"\'s entry',
        ),
      ),
    );
  } catch (error) {
    if (!SharedCredentialsError.isInstance(error)) throw error;
    const names = error.servers.map((name) => `"${name}"`).join(", ");
    throw new InvalidConfigError(
      `${error.message.slice(0, error.message.indexOf(" Accept that with"))} Add "gateway": { "credentials": "shared" } to the entry of ${names} in your config to accept that, or "credentials": "exchange" / "consent" to give each user their own (see mcp serve in the CLI README).`,
      { field: "credentials" },
    );
  }
}

/** The servers of `configs` with no gateway credentials entry that the manager would reach with a stored OAuth sign-in. */
export async function signedInServers(
  manager: Pick<MCPManager, "hasSignIn">,
  configs: Readonly<Record<string, MCPServerConfig>>,
  credentials: Readonly<Record<string, UpstreamCredentials>>,
): Promise<Set<string>> {
  const named = Object.keys(configs).filter((name) => credentials[name] === undefined);
  const found = await Promise.all(named.map((name) => manager.hasSignIn(configs[name]!)));
  return new Set(named.filter((_, i) => found[i]));
}
