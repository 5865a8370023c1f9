// The requests the doctor makes on its own: the client's first POST to the MCP server, client
// identification (registering when that is the way), one authorization request read at its first
// answer, and a token request whose failure is an outcome, not a throw.
import { redactUrl } from "@mcp/jsonrpc/internal";
import type { Discovery } from "./discovery.js";
import { step, type DoctorStep, type Probe, type TokenOutcome } from "./doctor-step.js";
import type { DoctorTraceEntry } from "./doctor-trace.js";
import { authorizationUrl } from "./grant-authorization-code.js";
import type { OAuthFetch } from "./metadata.js";
import { OAuthError } from "./errors.js";
import type { Authorize, OAuthProviderOptions } from "./options.js";
import { createPkce, createState } from "./pkce.js";
import { registerClient } from "./registration.js";
import type { StoredClient, StoredTokens } from "./token-store.js";
import { preRegisteredClient } from "./token-endpoint.js";
import { authorizationResponseOf } from "./user-step.js";

/** Options of {@link diagnoseAuthorization}: the client the sign-in would use, and how to look. */
export interface DiagnoseOptions extends Pick<
  OAuthProviderOptions,
  | "clientId"
  | "clientSecret"
  | "clientMetadataUrl"
  | "clientName"
  | "clientAssertionKey"
  | "tokenEndpointAuthMethod"
  | "scopes"
  | "profile"
  | "protocolVersion"
  | "fetch"
  | "timeoutMs"
> {
  /** The redirect URI the client would use (default `http://127.0.0.1:33418/callback`); nothing listens on it: the doctor reads the redirect. */
  redirectUri?: string | undefined;
  /**
   * A user step to complete the sign-in with (a browser, or a test's own), so that `iss`, the
   * token, the refresh and the MCP server's acceptance are checked too. Without it the doctor
   * asks the authorization endpoint once and reads its answer: a server that approves at once
   * gives a code; one that shows a login page leaves those steps skipped.
   */
  authorize?: Authorize | undefined;
  /** Try Dynamic Client Registration when the server offers it (default true: the sign-in would). */
  register?: boolean | undefined;
  /** Told each request and its answer, secrets redacted (`mcp auth doctor --trace file`). */
  trace?: ((entry: DoctorTraceEntry) => void) | undefined;
}

/** An initialize request: what a client's first request to the server is. */
const FIRST_REQUEST = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "mcp-auth-doctor", version: "1.0.0" },
  },
});

/** The MCP server's answer to a client's first request: its status and `WWW-Authenticate`, or why there was none. */
export async function post(
  fetchImpl: OAuthFetch,
  serverUrl: string,
  headers: Record<string, string>,
): Promise<{ status: number; header: string | undefined } | { error: string }> {
  try {
    const response = await fetchImpl(serverUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: FIRST_REQUEST,
      redirect: "manual",
    });
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status, header: response.headers.get("www-authenticate") ?? undefined };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** A token request's outcome: the tokens, or the error (any failure an `OAuthError` of the `token` step). */
export async function tokenOf(request: () => Promise<StoredTokens>): Promise<TokenOutcome> {
  try {
    return { tokens: await request() };
  } catch (error) {
    return {
      error:
        error instanceof OAuthError
          ? error
          : new OAuthError("token", error instanceof Error ? error.message : String(error)),
    };
  }
}

/** The client the sign-in would use, in the flow's order; dynamic registration is tried when it is the way. */
export async function identifyClient(
  fetchImpl: OAuthFetch,
  found: Discovery,
  options: DiagnoseOptions,
  redirectUri: string,
): Promise<{ identified: DoctorStep; client: StoredClient | undefined }> {
  const configured = preRegisteredClient(options, found);
  const cimd = found.metadata.client_id_metadata_document_supported === true;
  const dcr = found.metadata.registration_endpoint !== undefined;
  const offers = `the server offers: ${[cimd ? "Client ID Metadata Documents" : "", dcr ? "dynamic registration" : ""].filter(Boolean).join(", ") || "neither Client ID Metadata Documents nor dynamic registration"}`;
  if (configured)
    return {
      identified: step("client-identification", "pass", "A pre-registered client id is configured", offers),
      client: { ...configured, redirectUri },
    };
  if (options.clientMetadataUrl && cimd)
    return {
      identified: step(
        "client-identification",
        "pass",
        `The client is identified by its metadata document ${redactUrl(options.clientMetadataUrl)}`,
        offers,
      ),
      client: { clientId: options.clientMetadataUrl, tokenEndpointAuthMethod: "none", redirectUri },
    };
  const none = `${found.profile?.registration ?? "The authorization server offers no way for a client to register itself: configure a client id registered there (oauth.clientId, and oauth.clientSecret for a confidential client)"}`;
  if (!dcr)
    return {
      identified: step("client-identification", "fail", none, `${offers}; no client id configured`),
      client: undefined,
    };
  if (options.register === false)
    return {
      identified: step("client-identification", "pass", "Dynamic registration is offered (not tried)", offers),
      client: undefined,
    };
  try {
    const client = await registerClient(fetchImpl, found, options.clientName, redirectUri);
    return {
      identified: step(
        "client-identification",
        "pass",
        "Dynamic registration works",
        `registered as a ${client.clientSecret ? "confidential" : "public"} client (${client.tokenEndpointAuthMethod})`,
      ),
      client,
    };
  } catch (error) {
    return {
      identified: step(
        "client-identification",
        "fail",
        `Dynamic registration was refused: ${none.charAt(0).toLowerCase()}${none.slice(1)}`,
        error instanceof Error ? error.message : String(error),
      ),
      client: undefined,
    };
  }
}

/** One authorization request, built as the flow builds it: through the user step when there is one, else read at the first answer. */
export async function authorizationProbe(
  fetchImpl: OAuthFetch,
  found: Discovery,
  client: StoredClient,
  redirectUri: string,
  scope: string | undefined,
  authorize: Authorize | undefined,
): Promise<{ probe: Probe; verifier: string }> {
  const pkce = await createPkce();
  const state = createState();
  const url = authorizationUrl(found, client.clientId, redirectUri, pkce, state, scope);
  const answered = (response: ReturnType<typeof authorizationResponseOf>): Probe => ({
    kind: "response",
    response,
    stateMatches: response.state === state,
  });
  const refusal = (error: unknown): Probe =>
    error instanceof OAuthError && error.oauthError
      ? { kind: "error", error: error.oauthError, description: error.oauthErrorDescription }
      : { kind: "failed", message: error instanceof Error ? error.message : String(error) };
  if (authorize) {
    try {
      return { probe: answered(await authorize({ url, state, redirectUri })), verifier: pkce.verifier };
    } catch (error) {
      return { probe: refusal(error), verifier: pkce.verifier };
    }
  }
  let response: Response;
  try {
    response = await fetchImpl(url.href, { redirect: "manual" });
  } catch (error) {
    return { probe: refusal(error), verifier: pkce.verifier };
  }
  const location = response.headers.get("location");
  const text =
    response.status >= 400
      ? await response.text().catch(() => "")
      : (await response.body?.cancel().catch(() => undefined), "");
  let probe: Probe;
  if (location !== null && new URL(location, url).href.startsWith(redirectUri.split("?")[0]!)) {
    try {
      probe = answered(authorizationResponseOf(new URL(location, url)));
    } catch (error) {
      probe = refusal(error);
    }
  } else if (response.status >= 400)
    probe = { kind: "refused", status: response.status, error: /"error"\s*:\s*"([^"]+)"/.exec(text)?.[1] };
  else probe = { kind: "user", status: response.status };
  return { probe, verifier: pkce.verifier };
}
