// The doctor's record of its requests: what each answered (for the report) and a redacted trace (for a bug report).
import { REDACTED, isCredentialHeader } from "@mcp/jsonrpc/internal";
import { readOAuthBody } from "./http.js";
import type { OAuthFetch } from "./metadata.js";

/** One request of a diagnosis, with every secret replaced by `[redacted]`. */
export interface DoctorTraceEntry {
  method: string;
  url: string;
  /** The answer's status; absent when the request failed (see `error`). */
  status?: number | undefined;
  requestHeaders: Record<string, string>;
  responseHeaders?: Record<string, string> | undefined;
  /** The request body (a form or JSON), redacted. */
  requestBody?: string | undefined;
  /** A JSON answer, redacted; other bodies are described, not kept (a login page may hold anything). */
  responseBody?: string | undefined;
  error?: string | undefined;
}

/** What the doctor remembers of a request (the URL unredacted: only its own requests, never printed as is). */
export interface Exchange {
  method: string;
  url: string;
  status: number | undefined;
  /** The answer's `Date` header, in ms since the epoch. */
  date: number | undefined;
  /** This machine's clock when the answer arrived. */
  at: number;
}

/** Parameters and JSON fields whose values are secrets: codes, verifiers, tokens, client secrets and assertions. */
const SECRET_NAMES =
  /^(?:code|code_verifier|client_secret|client_assertion|assertion|subject_token|actor_token|device_code|user_code|password|registration_access_token|(?:access|refresh|id)_token|api[-_]?key|key)$/i;

/** A secret parameter or JSON field (not `token_endpoint` or `token_type`: those are metadata). */
const isSecret = (name: string): boolean => SECRET_NAMES.test(name);

/** A header whose value is a credential: `Authorization`, `DPoP`, cookies, API keys. */
const isSecretHeader = (name: string): boolean => isCredentialHeader(name) || name.toLowerCase() === "dpop";

/** A URL with secret query values hidden (`code` in a redirect among them). */
export function redactTraceUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.password) parsed.password = REDACTED;
  for (const key of [...parsed.searchParams.keys()]) if (isSecret(key)) parsed.searchParams.set(key, REDACTED);
  return parsed.href;
}

function redactHeaderMap(headers: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers)
    out[name.toLowerCase()] =
      name.toLowerCase() === "location" ? redactTraceUrl(value) : isSecretHeader(name) ? REDACTED : value;
  return out;
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, isSecret(key) ? REDACTED : redactValue(inner)]),
  );
}

/** A request or answer body, redacted: a form's or a JSON object's secret values hidden; anything else described by its size. */
export function redactBody(text: string, contentType: string | null): string {
  if (text === "") return "";
  if (contentType?.includes("x-www-form-urlencoded")) {
    const form = new URLSearchParams(text);
    for (const key of [...form.keys()]) if (isSecret(key)) form.set(key, REDACTED);
    return form.toString();
  }
  try {
    return JSON.stringify(redactValue(JSON.parse(text)));
  } catch {
    return `[${contentType ?? "body"}, ${text.length} characters, not kept]`;
  }
}

function headerPairs(headers: RequestInit["headers"]): [string, string][] {
  return [...new Headers(headers).entries()];
}

/**
 * `fetchImpl` that remembers every exchange in `log` and, when asked, hands each one redacted to
 * `trace`. A request's own abort or failure is traced and rethrown.
 */
export function recordingFetch(
  fetchImpl: OAuthFetch,
  log: Exchange[],
  trace: ((entry: DoctorTraceEntry) => void) | undefined,
): OAuthFetch {
  return async (input, init = {}) => {
    const method = init.method ?? "GET";
    const requestHeaders = redactHeaderMap(headerPairs(init.headers));
    const requestBody =
      typeof init.body === "string" ? redactBody(init.body, new Headers(init.headers).get("content-type")) : undefined;
    let response: Response;
    try {
      response = await fetchImpl(input, init);
    } catch (error) {
      log.push({ method, url: input, status: undefined, date: undefined, at: Date.now() });
      trace?.({
        method,
        url: redactTraceUrl(input),
        requestHeaders,
        requestBody,
        error: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
    const date = Date.parse(response.headers.get("date") ?? "");
    log.push({
      method,
      url: input,
      status: response.status,
      date: Number.isNaN(date) ? undefined : date,
      at: Date.now(),
    });
    if (trace) {
      const type = response.headers.get("content-type");
      const body = type?.includes("json")
        ? redactBody(await readOAuthBody(response.clone()).catch(() => ""), type)
        : undefined;
      trace({
        method,
        url: redactTraceUrl(input),
        status: response.status,
        requestHeaders,
        responseHeaders: redactHeaderMap(response.headers.entries()),
        requestBody,
        responseBody: body,
      });
    }
    return response;
  };
}
