// `diagnoseAuthorization`: walks a sign-in against the live MCP server and its authorization server, and says which step fails and why.
import { redactUrl } from "@mcp/jsonrpc/internal";
import { parseBearerChallenge, type BearerChallenge } from "./challenge.js";
import { discover, type Discovery } from "./discovery.js";
import { acceptedStep, authorizationServerStep, authorizationStep, clockStep, dpopStep, issStep, pkceStep, profileStep, refreshStep, resourceMetadataStep, resourceStep, scopesStep, signingStep, step, tokenAuthStep, tokenStep, DOCTOR_STEPS, type DoctorStep, type DoctorStepName, type Probe, type TokenOutcome } from "./doctor-steps.js";
import { recordingFetch, type DoctorTraceEntry, type Exchange } from "./doctor-trace.js";
import { authorizationUrl } from "./grant-authorization-code.js";
import { DEFAULT_OAUTH_TIMEOUT_MS, withDeadline } from "./http.js";
import type { OAuthFetch } from "./metadata.js";
import { OAuthError } from "./errors.js";
import type { Authorize, OAuthProviderOptions } from "./options.js";
import { createPkce, createState } from "./pkce.js";
import { chooseScope, registerClient } from "./registration.js";
import type { StoredClient, StoredTokens } from "./token-store.js";
import { preRegisteredClient, requestToken } from "./token-endpoint.js";
import { authorizationResponseOf } from "./user-step.js";

export type { DoctorStatus, DoctorStep } from "./doctor-steps.js";
export type { DoctorTraceEntry } from "./doctor-trace.js";

/** What {@link diagnoseAuthorization} found. `ok` is false when a step failed. */
export interface DoctorReport {
  /** The server's URL (secrets in it hidden). */
  server: string;
  ok: boolean;
  steps: DoctorStep[];
}

/** Options of {@link diagnoseAuthorization}: the client the sign-in would use, and how to look. */
export interface DiagnoseOptions extends Pick<OAuthProviderOptions, "clientId" | "clientSecret" | "clientMetadataUrl" | "clientName" | "clientAssertionKey" | "tokenEndpointAuthMethod" | "scopes" | "profile" | "protocolVersion" | "fetch" | "timeoutMs"> {
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

const DEFAULT_REDIRECT_URI = "http://127.0.0.1:33418/callback";

/** An initialize request: what a client's first request to the server is. */
const FIRST_REQUEST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "mcp-auth-doctor", version: "1.0.0" } } });

async function post(fetchImpl: OAuthFetch, serverUrl: string, headers: Record<string, string>): Promise<{ status: number; header: string | undefined } | { error: string }> {
  try {
    const response = await fetchImpl(serverUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: FIRST_REQUEST, redirect: "manual" });
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status, header: response.headers.get("www-authenticate") ?? undefined };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Diagnoses the sign-in to an MCP server, step by step, against the live server and its
 * authorization server: the `401` and its challenge, protected resource metadata (RFC 9728,
 * path-aware and root), authorization server metadata (RFC 8414, OpenID fallbacks, a provider
 * profile's endpoints), the provider profile, clock skew (from `Date`), PKCE S256, client
 * identification (pre-registered, Client ID Metadata Document, dynamic registration — which it
 * tries), token endpoint authentication, signing algorithms, scopes, the authorization request,
 * `resource` (RFC 8707), `iss` (RFC 9207), the token, refresh, DPoP and the token's acceptance.
 * Each step has its spec clause and what to do. Discovery is the flow's own (`discover`). Never
 * rejects for a server's fault: that is a failed step. No step holds a secret; `trace` gets the
 * requests with theirs redacted.
 */
export async function diagnoseAuthorization(serverUrl: string, options: DiagnoseOptions = {}): Promise<DoctorReport> {
  const log: Exchange[] = [];
  const fetchImpl = recordingFetch(withDeadline(options.fetch ?? ((input, init) => fetch(input, init)), options.timeoutMs ?? DEFAULT_OAUTH_TIMEOUT_MS), log, options.trace);
  const steps: DoctorStep[] = [];
  const done = (reason?: string): DoctorReport => {
    if (reason) for (const name of Object.keys(DOCTOR_STEPS) as DoctorStepName[]) if (!steps.some((s) => s.step === name)) steps.push(step(name, "skip", reason));
    return { server: redactUrl(serverUrl), ok: !steps.some((s) => s.status === "fail"), steps };
  };

  const first = await post(fetchImpl, serverUrl, options.protocolVersion ? { "mcp-protocol-version": options.protocolVersion } : {});
  if ("error" in first) return (steps.push(step("challenge", "fail", "The MCP server could not be reached: check the URL, the network and any proxy", first.error)), done("Not reached: the server did not answer"));
  if (first.status < 300) return (steps.push(step("challenge", "pass", "The server answered without authorization: there is nothing to sign in to", `HTTP ${first.status}`)), done("The server needs no authorization"));
  const challenge: BearerChallenge = parseBearerChallenge(first.header);
  if (first.status !== 401) steps.push(step("challenge", "fail", `The server answered HTTP ${first.status} to a request without a token; a protected MCP server answers 401 with WWW-Authenticate`, first.header ? `WWW-Authenticate: ${first.header}` : undefined));
  else if (!first.header) steps.push(step("challenge", "warn", "401 without WWW-Authenticate: the server should name its protected resource metadata (Bearer resource_metadata=\"…\"); the client looks at the well-known URLs instead"));
  else steps.push(step("challenge", challenge.resourceMetadata || challenge.dpop !== undefined || /bearer/i.test(first.header) ? "pass" : "warn", challenge.resourceMetadata ? "401 with a Bearer challenge naming its resource metadata" : "401 with a challenge that names no resource_metadata; the client looks at the well-known URLs", `WWW-Authenticate: ${first.header}`));

  let found: Discovery | undefined;
  let failure: OAuthError | undefined;
  try {
    found = await discover(fetchImpl, serverUrl, challenge.resourceMetadata, options.protocolVersion, options.profile);
  } catch (error) {
    failure = error instanceof OAuthError ? error : new OAuthError("discovery", error instanceof Error ? error.message : String(error));
  }
  steps.push(resourceMetadataStep(serverUrl, challenge.resourceMetadata, found, failure, log));
  steps.push(authorizationServerStep(found, failure, log));
  if (!found) return (steps.push(clockStep(log)), done("Not reached: discovery failed"));
  steps.push(profileStep(found, options.profile !== undefined && options.profile !== false));
  steps.push(clockStep(log));
  steps.push(pkceStep(found));

  const redirectUri = options.redirectUri ?? DEFAULT_REDIRECT_URI;
  const { identified, client } = await identifyClient(fetchImpl, found, options, redirectUri);
  steps.push(identified);
  steps.push(tokenAuthStep(found, client));
  steps.push(signingStep(found, client, options.clientAssertionKey?.algorithm));
  const scope = chooseScope(options, challenge, found, false);
  const flow = client && found.metadata.authorization_endpoint ? await authorizationProbe(fetchImpl, found, client, redirectUri, scope, options.authorize) : undefined;
  const probe = flow?.probe;
  let token: TokenOutcome | undefined;
  if (probe?.kind === "response" && probe.stateMatches && client) token = await tokenOf(() => requestToken(fetchImpl, found, client, "token", { grant_type: "authorization_code", code: probe.response.code, redirect_uri: redirectUri, code_verifier: flow!.verifier }, scope, options.clientAssertionKey));
  const refreshToken = token && "tokens" in token ? token.tokens.refreshToken : undefined;
  const refreshed = refreshToken && client ? await tokenOf(() => requestToken(fetchImpl, found, client, "refresh", { grant_type: "refresh_token", refresh_token: refreshToken }, scope, options.clientAssertionKey)) : undefined;
  steps.push(scopesStep(found, challenge, scope, probe));
  steps.push(authorizationStep(probe));
  steps.push(resourceStep(found, probe, token));
  steps.push(issStep(found, probe));
  steps.push(tokenStep(token, client));
  steps.push(refreshStep(found, token, refreshed));
  steps.push(dpopStep(challenge, first.header, found));
  // The freshest token the server issued: the refreshed one, else the first.
  const latest = refreshed && "tokens" in refreshed ? refreshed : token;
  const accepted = latest && "tokens" in latest ? await post(fetchImpl, serverUrl, { authorization: `Bearer ${latest.tokens.accessToken}`, ...(options.protocolVersion ? { "mcp-protocol-version": options.protocolVersion } : {}) }) : undefined;
  steps.push(acceptedStep(accepted && "status" in accepted ? accepted.status : undefined, accepted && "header" in accepted ? accepted.header : undefined, latest));
  return done();
}

async function tokenOf(request: () => Promise<StoredTokens>): Promise<TokenOutcome> {
  try {
    return { tokens: await request() };
  } catch (error) {
    return { error: error instanceof OAuthError ? error : new OAuthError("token", error instanceof Error ? error.message : String(error)) };
  }
}

/** The client the sign-in would use, in the flow's order; dynamic registration is tried when it is the way. */
async function identifyClient(fetchImpl: OAuthFetch, found: Discovery, options: DiagnoseOptions, redirectUri: string): Promise<{ identified: DoctorStep; client: StoredClient | undefined }> {
  const configured = preRegisteredClient(options, found);
  const cimd = found.metadata.client_id_metadata_document_supported === true;
  const dcr = found.metadata.registration_endpoint !== undefined;
  const offers = `the server offers: ${[cimd ? "Client ID Metadata Documents" : "", dcr ? "dynamic registration" : ""].filter(Boolean).join(", ") || "neither Client ID Metadata Documents nor dynamic registration"}`;
  if (configured) return { identified: step("client-identification", "pass", "A pre-registered client id is configured", offers), client: { ...configured, redirectUri } };
  if (options.clientMetadataUrl && cimd) return { identified: step("client-identification", "pass", `The client is identified by its metadata document ${redactUrl(options.clientMetadataUrl)}`, offers), client: { clientId: options.clientMetadataUrl, tokenEndpointAuthMethod: "none", redirectUri } };
  const none = `${found.profile?.registration ?? "The authorization server offers no way for a client to register itself: configure a client id registered there (oauth.clientId, and oauth.clientSecret for a confidential client)"}`;
  if (!dcr) return { identified: step("client-identification", "fail", none, `${offers}; no client id configured`), client: undefined };
  if (options.register === false) return { identified: step("client-identification", "pass", "Dynamic registration is offered (not tried)", offers), client: undefined };
  try {
    const client = await registerClient(fetchImpl, found, options.clientName, redirectUri);
    return { identified: step("client-identification", "pass", "Dynamic registration works", `registered as a ${client.clientSecret ? "confidential" : "public"} client (${client.tokenEndpointAuthMethod})`), client };
  } catch (error) {
    return { identified: step("client-identification", "fail", `Dynamic registration was refused: ${none.charAt(0).toLowerCase()}${none.slice(1)}`, error instanceof Error ? error.message : String(error)), client: undefined };
  }
}

/** One authorization request, built as the flow builds it: through the user step when there is one, else read at the first answer. */
async function authorizationProbe(fetchImpl: OAuthFetch, found: Discovery, client: StoredClient, redirectUri: string, scope: string | undefined, authorize: Authorize | undefined): Promise<{ probe: Probe; verifier: string }> {
  const pkce = await createPkce();
  const state = createState();
  const url = authorizationUrl(found, client.clientId, redirectUri, pkce, state, scope);
  const answered = (response: ReturnType<typeof authorizationResponseOf>): Probe => ({ kind: "response", response, stateMatches: response.state === state });
  const refusal = (error: unknown): Probe => (error instanceof OAuthError && error.oauthError ? { kind: "error", error: error.oauthError, description: error.oauthErrorDescription } : { kind: "failed", message: error instanceof Error ? error.message : String(error) });
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
  const text = response.status >= 400 ? await response.text().catch(() => "") : (await response.body?.cancel().catch(() => undefined), "");
  let probe: Probe;
  if (location !== null && new URL(location, url).href.startsWith(redirectUri.split("?")[0]!)) {
    try {
      probe = answered(authorizationResponseOf(new URL(location, url)));
    } catch (error) {
      probe = refusal(error);
    }
  } else if (response.status >= 400) probe = { kind: "refused", status: response.status, error: /"error"\s*:\s*"([^"]+)"/.exec(text)?.[1] };
  else probe = { kind: "user", status: response.status };
  return { probe, verifier: pkce.verifier };
}
