// A server's `oauth` config field, the manager's `oauth` option, and the OAuth provider and token store they give.
import type { MCPServerConfig } from "@mcp/client";
import { createHttpFetch } from "@mcp/transport-http";
import {
  diagnoseAuthorization,
  FileTokenStore,
  loopbackAuthorize,
  loopbackRedirectUri,
  OAuthProvider,
  type Authorize,
  type DeviceOptions,
  type DiagnoseOptions,
  type DoctorReport,
  type OAuthProviderOptions,
  type TokenStore,
} from "@mcp/oauth";
import { join } from "node:path";
import { homedir } from "node:os";
import { userConfigDir } from "./config/families.js";

/**
 * The `oauth` field of an HTTP server's config, as Claude Code's config has it: a pre-registered
 * client, the loopback port its redirect URI names, scopes. `false` turns OAuth off for the server.
 */
export interface ServerOAuthConfig {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  /** The port of `http://127.0.0.1:<port>/callback` (default 33418). */
  callbackPort?: number | undefined;
  /** Scopes to ask for (space-separated or a list) instead of choosing them. */
  scopes?: string | string[] | undefined;
  /** The HTTPS URL of this client's Client ID Metadata Document. */
  clientMetadataUrl?: string | undefined;
  /**
   * The identity-provider profile (`entra`, `cognito`, `okta`, `auth0`, `keycloak`, `google`,
   * `github`) when detection from the issuer does not find it; `false` applies none (see
   * `@mcp/oauth`'s README). An unknown name fails the server with an `OAuthError` naming the known ones.
   */
  profile?: string | false | undefined;
}

/** The manager's `oauth` option. */
export interface ManagerOAuthOptions {
  /** Where tokens live. Default: one file per server under the user's config folder (`<mcp-client>/oauth`). */
  store?: TokenStore | undefined;
  /**
   * The user step for servers that need one, or nothing (default): then a server without a
   * usable token fails with "needs authorization", and `authorizeServer()` is the way in.
   */
  authorize?: ((server: string, request: Parameters<Authorize>[0]) => ReturnType<Authorize>) | undefined;
}

/** Options of `MCPManager.authorizeServer`. */
export interface AuthorizeServerOptions {
  /** `false`: only `onUrl`, no browser (the loopback listener still waits for the redirect). */
  open?: boolean | undefined;
  onUrl?: ((url: string) => void) | undefined;
  timeoutMs?: number | undefined;
  /** Stops the loopback listener's wait (the sign-in rejects with the signal's reason). */
  signal?: AbortSignal | undefined;
  /** A user step instead of the loopback listener and the browser, e.g. one that reads the redirect URL a user pastes (a machine with no browser). */
  authorize?: Authorize | undefined;
  /**
   * Sign in with the device authorization grant (RFC 8628) instead: `onCode` shows the user the
   * verification URI and code to enter on another device; the grant then polls until they approve
   * (`signal` stops it). The tokens are saved as a browser sign-in's are. An authorization server
   * that does not advertise `device_authorization_endpoint` fails it with an `OAuthError` saying so.
   */
  device?: DeviceOptions | undefined;
}

/** The loopback port of the redirect URI when a config names none. */
export const DEFAULT_CALLBACK_PORT = 33418;

/** The default token folder: `oauth` next to our own `mcp-client.json`. */
export function defaultTokenDir(): string {
  return join(userConfigDir({ home: homedir(), env: process.env, platform: process.platform }), "oauth");
}

/** The `oauth` field of a config: its settings, `false` (off), or `{}` (on, nothing set). */
export function oauthConfigOf(config: MCPServerConfig): ServerOAuthConfig | false {
  const value = (config as { oauth?: unknown }).oauth;
  if (value === false) return false;
  return typeof value === "object" && value !== null ? value : {};
}

/**
 * True for a config that talks HTTP and manages no credentials of its own: no auth provider, no
 * `Authorization` header (a static token is the user's choice; a 401 then stays an HttpError),
 * and not `oauth: false`.
 */
export function wantsOAuth(config: MCPServerConfig): boolean {
  if (!("url" in config) || typeof config.url !== "string") return false;
  if ("authProvider" in config && config.authProvider) return false;
  // A headersHelper brings its own credentials: OAuth only when the config asks for it as well.
  const oauth = (config as { oauth?: unknown }).oauth;
  if (
    (config as { headersHelper?: unknown }).headersHelper !== undefined &&
    (typeof oauth !== "object" || oauth === null)
  )
    return false;
  if (Object.keys(config.headers ?? {}).some((name) => name.toLowerCase() === "authorization")) return false;
  return oauthConfigOf(config) !== false;
}

/** What a server's config says of its OAuth client: the options a provider and the doctor share. */
function clientOptionsFor(
  name: string,
  config: MCPServerConfig,
): Pick<
  OAuthProviderOptions,
  | "serverUrl"
  | "redirectUri"
  | "clientId"
  | "clientSecret"
  | "clientMetadataUrl"
  | "clientName"
  | "scopes"
  | "profile"
  | "fetch"
> {
  const settings = oauthConfigOf(config) || {};
  const port = settings.callbackPort ?? DEFAULT_CALLBACK_PORT;
  const scopes = typeof settings.scopes === "string" ? settings.scopes.split(" ").filter(Boolean) : settings.scopes;
  return {
    serverUrl: (config as { url: string }).url,
    redirectUri: loopbackRedirectUri(port),
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    clientMetadataUrl: settings.clientMetadataUrl,
    clientName: "mcp-client-stack",
    scopes,
    profile: settings.profile,
    // Discovery, registration and tokens go the way the server's own requests go (its proxy, its CA).
    fetch: createHttpFetch({
      proxy: (config as { proxy?: string | false }).proxy,
      ca: (config as { ca?: string }).ca,
      serverName: name,
    }),
  };
}

/** An OAuth provider for one server's config, with the given user step (or none). */
export function providerFor(
  name: string,
  config: MCPServerConfig,
  store: TokenStore,
  authorize: ManagerOAuthOptions["authorize"],
): OAuthProvider {
  return new OAuthProvider({
    ...clientOptionsFor(name, config),
    authorize: authorize ? (request) => authorize(name, request) : undefined,
    store,
  });
}

/** An OAuth provider for one server's config that signs in with the device authorization grant. */
export function deviceProviderFor(
  name: string,
  config: MCPServerConfig,
  store: TokenStore,
  device: DeviceOptions,
): OAuthProvider {
  return new OAuthProvider({ ...clientOptionsFor(name, config), grant: "device_code", device, store });
}

/**
 * Diagnoses the OAuth sign-in of one HTTP server's config (the CLI's `mcp auth doctor`): the
 * config's client id, secret, scopes, profile, callback port, proxy and CA, as a sign-in would
 * use them. See `diagnoseAuthorization` of `@mcp/oauth`. Stores nothing.
 */
export function diagnoseServerAuthorization(
  name: string,
  config: MCPServerConfig,
  options: Pick<DiagnoseOptions, "authorize" | "trace" | "timeoutMs" | "register"> = {},
): Promise<DoctorReport> {
  const { serverUrl, ...client } = clientOptionsFor(name, config);
  return diagnoseAuthorization(serverUrl, { ...client, ...options });
}

/** The store a manager uses: the one given, else the default token folder. */
export function storeOf(options: ManagerOAuthOptions | undefined): TokenStore {
  return options?.store ?? new FileTokenStore(defaultTokenDir());
}

/** A server's sign-in step: a loopback listener on the callback port its config names (default 33418) and the browser. */
export function loopbackStepFor(
  config: MCPServerConfig,
  options: {
    open?: boolean | undefined;
    onUrl?: ((url: string) => void) | undefined;
    timeoutMs?: number | undefined;
    signal?: AbortSignal | undefined;
  },
): Authorize {
  const settings = oauthConfigOf(config) || {};
  return loopbackAuthorize({
    port: settings.callbackPort ?? DEFAULT_CALLBACK_PORT,
    open: options.open === false ? false : undefined,
    onUrl: options.onUrl,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
}
