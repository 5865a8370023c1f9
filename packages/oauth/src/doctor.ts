// `diagnoseAuthorization`: walks a sign-in against the live MCP server and its authorization server, and says which step fails and why.
import { redactUrl } from "@mcp/jsonrpc/internal";
import { parseBearerChallenge, type BearerChallenge } from "./challenge.js";
import { discover, type Discovery } from "./discovery.js";
import {
  authorizationServerStep,
  clockStep,
  dpopStep,
  pkceStep,
  profileStep,
  resourceMetadataStep,
  scopesStep,
  signingStep,
  tokenAuthStep,
} from "./doctor-discovery-steps.js";
import { authorizationProbe, identifyClient, post, tokenOf, type DiagnoseOptions } from "./doctor-requests.js";
import { step, DOCTOR_STEPS, type DoctorStep, type DoctorStepName, type TokenOutcome } from "./doctor-step.js";
import { acceptedStep, authorizationStep, issStep, refreshStep, resourceStep, tokenStep } from "./doctor-steps.js";
import { recordingFetch, type Exchange } from "./doctor-trace.js";
import { OAuthError } from "./errors.js";
import { DEFAULT_OAUTH_TIMEOUT_MS, withDeadline } from "./http.js";
import { chooseScope } from "./registration.js";
import { requestToken } from "./token-endpoint.js";

export type { DoctorStatus, DoctorStep } from "./doctor-step.js";
export type { DoctorTraceEntry } from "./doctor-trace.js";

/** What {@link diagnoseAuthorization} found. `ok` is false when a step failed. */
export interface DoctorReport {
  /** The server's URL (secrets in it hidden). */
  server: string;
  ok: boolean;
  steps: DoctorStep[];
}

export type { DiagnoseOptions } from "./doctor-requests.js";

const DEFAULT_REDIRECT_URI = "http://127.0.0.1:33418/callback";

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
  const fetchImpl = recordingFetch(
    withDeadline(options.fetch ?? ((input, init) => fetch(input, init)), options.timeoutMs ?? DEFAULT_OAUTH_TIMEOUT_MS),
    log,
    options.trace,
  );
  const steps: DoctorStep[] = [];
  const done = (reason?: string): DoctorReport => {
    if (reason)
      for (const name of Object.keys(DOCTOR_STEPS) as DoctorStepName[])
        if (!steps.some((s) => s.step === name)) steps.push(step(name, "skip", reason));
    return { server: redactUrl(serverUrl), ok: !steps.some((s) => s.status === "fail"), steps };
  };

  const first = await post(
    fetchImpl,
    serverUrl,
    options.protocolVersion ? { "mcp-protocol-version": options.protocolVersion } : {},
  );
  if ("error" in first)
    return (
      steps.push(
        step(
          "challenge",
          "fail",
          "The MCP server could not be reached: check the URL, the network and any proxy",
          first.error,
        ),
      ),
      done("Not reached: the server did not answer")
    );
  if (first.status < 300)
    return (
      steps.push(
        step(
          "challenge",
          "pass",
          "The server answered without authorization: there is nothing to sign in to",
          `HTTP ${first.status}`,
        ),
      ),
      done("The server needs no authorization")
    );
  const challenge: BearerChallenge = parseBearerChallenge(first.header);
  if (first.status !== 401)
    steps.push(
      step(
        "challenge",
        "fail",
        `The server answered HTTP ${first.status} to a request without a token; a protected MCP server answers 401 with WWW-Authenticate`,
        first.header ? `WWW-Authenticate: ${first.header}` : undefined,
      ),
    );
  else if (!first.header)
    steps.push(
      step(
        "challenge",
        "warn",
        '401 without WWW-Authenticate: the server should name its protected resource metadata (Bearer resource_metadata="…"); the client looks at the well-known URLs instead',
      ),
    );
  else
    steps.push(
      step(
        "challenge",
        challenge.resourceMetadata || challenge.dpop !== undefined || /bearer/i.test(first.header) ? "pass" : "warn",
        challenge.resourceMetadata
          ? "401 with a Bearer challenge naming its resource metadata"
          : "401 with a challenge that names no resource_metadata; the client looks at the well-known URLs",
        `WWW-Authenticate: ${first.header}`,
      ),
    );

  let found: Discovery | undefined;
  let failure: OAuthError | undefined;
  try {
    found = await discover(fetchImpl, serverUrl, challenge.resourceMetadata, options.protocolVersion, options.profile);
  } catch (error) {
    failure =
      error instanceof OAuthError
        ? error
        : new OAuthError("discovery", error instanceof Error ? error.message : String(error));
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
  const flow =
    client && found.metadata.authorization_endpoint
      ? await authorizationProbe(fetchImpl, found, client, redirectUri, scope, options.authorize)
      : undefined;
  const probe = flow?.probe;
  let token: TokenOutcome | undefined;
  if (probe?.kind === "response" && probe.stateMatches && client)
    token = await tokenOf(() =>
      requestToken(
        fetchImpl,
        found,
        client,
        "token",
        {
          grant_type: "authorization_code",
          code: probe.response.code,
          redirect_uri: redirectUri,
          code_verifier: flow!.verifier,
        },
        scope,
        options.clientAssertionKey,
      ),
    );
  const refreshToken = token && "tokens" in token ? token.tokens.refreshToken : undefined;
  const refreshed =
    refreshToken && client
      ? await tokenOf(() =>
          requestToken(
            fetchImpl,
            found,
            client,
            "refresh",
            { grant_type: "refresh_token", refresh_token: refreshToken },
            scope,
            options.clientAssertionKey,
          ),
        )
      : undefined;
  steps.push(scopesStep(found, challenge, scope, probe));
  steps.push(authorizationStep(probe));
  steps.push(resourceStep(found, probe, token));
  steps.push(issStep(found, probe));
  steps.push(tokenStep(token, client));
  steps.push(refreshStep(found, token, refreshed));
  steps.push(dpopStep(challenge, first.header, found));
  // The freshest token the server issued: the refreshed one, else the first.
  const latest = refreshed && "tokens" in refreshed ? refreshed : token;
  const accepted =
    latest && "tokens" in latest
      ? await post(fetchImpl, serverUrl, {
          authorization: `Bearer ${latest.tokens.accessToken}`,
          ...(options.protocolVersion ? { "mcp-protocol-version": options.protocolVersion } : {}),
        })
      : undefined;
  steps.push(
    acceptedStep(
      accepted && "status" in accepted ? accepted.status : undefined,
      accepted && "header" in accepted ? accepted.header : undefined,
      latest,
    ),
  );
  return done();
}
