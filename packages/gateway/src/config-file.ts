// A gateway from a config file: what it reads there besides the servers. `views` beside `servers`
// in the user's `mcp-client.json` (or the files given, which then stand for it), each server
// entry's `gateway` settings (how a signed-in user's requests reach it), the consent options from
// the environment, and the sharing check in that file's terms. `mcp serve` is built on these.

import { homedir } from "node:os";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { InvalidConfigError, type MCPServerConfig } from "@mcp/client";
import { OWN_FILE, userConfigDir, type MCPManager } from "@mcp/manager";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import type { ConsentOptions, ConsentStore } from "./consent.js";
import type { UpstreamCredentials } from "./exchange.js";
import { checkSharing, SharedCredentialsError, type CallerSources } from "./sharing.js";
import { parseViews, type View } from "./views.js";

/** What {@link readGatewayConfig} finds. */
export interface GatewayConfigFile {
  /** The `views` of the file(s), by name (as `createGateway`'s `views` takes them). */
  views: Map<string, View>;
  /** Per server: `gateway.credentials` of its entry, a secret read from the environment (as `createGateway`'s `credentials`). */
  credentials: Record<string, UpstreamCredentials>;
}

/** Options of {@link readGatewayConfig}. */
export interface ReadGatewayConfigOptions {
  /** The files to read (JSON with comments); none: the user's own `mcp-client.json` (under `home`). */
  files?: readonly string[] | undefined;
  /** The home folder the user's file is found from (default: `os.homedir()`). */
  home?: string | undefined;
  /** The gateway's client id at the callers' issuer: an `"exchange"` entry's default `clientId`. */
  introspectionClient?: string | undefined;
  /** Where secrets named by the file are read (default: `process.env`). */
  env?: NodeJS.ProcessEnv | undefined;
}

/**
 * A server entry's `"gateway": { "credentials": "exchange", "audience"?, "resource"?, "scope"?,
 * "clientId"?, "clientSecretEnv"? }` (or `"credentials": "shared"`): the client id defaults to
 * the introspection client's, the secret is read from `$<clientSecretEnv>` (default
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

/**
 * The views and server credentials of a config file (or several): an unreadable or missing file
 * has none; a malformed one, or a bad `gateway` entry, is an `InvalidConfigError` naming the file
 * (and the field).
 */
export async function readGatewayConfig(options: ReadGatewayConfigOptions = {}): Promise<GatewayConfigFile> {
  const env = options.env ?? process.env;
  const found: GatewayConfigFile = { views: new Map(), credentials: {} };
  const home = options.home ?? homedir();
  const files = options.files?.length
    ? options.files
    : [join(userConfigDir({ home, env: process.env, platform: process.platform }), OWN_FILE)];
  for (const file of files) {
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
      const credentials = credentialsOf(name, entry, file, options.introspectionClient, env);
      if (credentials) found.credentials[name] = credentials;
    }
  }
  return found;
}

/**
 * The gateway's consent options when a server takes each user's consent (undefined when none
 * does): the callback URL users' browsers reach (`MCP_CONSENT_REDIRECT_URI`, e.g.
 * `https://mcp.example.com/oauth/callback`), the key that seals their tokens (`MCP_CONSENT_KEY`,
 * 32 bytes in base64, the same on every replica), the gateway's client at the callers' issuer
 * where whoever opens a consent link signs in first (`MCP_CONSENT_CLIENT_ID`, and
 * `MCP_CONSENT_CLIENT_SECRET` for a confidential client, with the callback URL registered as its
 * redirect URI), and `store` (a shared one for several replicas; none: memory). An
 * `InvalidConfigError` names what is missing.
 */
export function consentFromEnv(
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
 * {@link checkSharing} for servers of a config file, before they connect, its fix said in the
 * file's terms (`"gateway": { "credentials": "shared" }` in the entry): refuses to serve, to
 * several callers, servers that carry credentials of their own with no `gateway` credentials in
 * their entry (an `InvalidConfigError`, `field: "credentials"`); a plain HTTP server the manager
 * holds a stored OAuth sign-in for (`manager.hasSignIn`) counts; warns of stdio servers with
 * secret-looking environment variables.
 */
export async function checkConfigSharing(
  manager: Pick<MCPManager, "hasSignIn">,
  configs: Readonly<Record<string, MCPServerConfig>>,
  options: CallerSources & { credentials: Readonly<Record<string, UpstreamCredentials>> },
  warn: (message: string) => void,
): Promise<void> {
  const named = Object.keys(configs).filter((name) => options.credentials[name] === undefined);
  const found = await Promise.all(named.map((name) => manager.hasSignIn(configs[name]!)));
  const signedIn = new Set(named.filter((_, i) => found[i]));
  try {
    checkSharing(configs, { ...options, signedIn }, (message) =>
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
