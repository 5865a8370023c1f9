// Each user's own credentials upstream: for an HTTP upstream configured with `credentials:
// "exchange"`, the gateway trades the caller's access token at the issuer for one scoped to that
// upstream (RFC 8693 token exchange), kept per user and server until it expires, one exchange at a
// time per user and server, and sent on that user's own connection to the upstream. The caller's
// token itself never goes upstream, and no user's exchanged token is ever another's.

import type { HttpAuthProvider, MCPServerConfig } from "@mcp/client";
import { InvalidConfigError } from "@mcp/client";
import type { ConsentCredentials } from "./consent.js";
import { basic, boundedJson } from "./introspection.js";

/** RFC 8693's grant type and token type of an access token. */
const GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token";

/** How an upstream server is reached for a caller: see {@link CreateGatewayOptions.credentials}. */
export type UpstreamCredentials = { mode: "shared" } | ExchangeCredentials | ConsentCredentials;

/** RFC 8693 token exchange at the issuer, per user: the parameters of the exchange request. */
export interface ExchangeCredentials {
  mode: "exchange";
  /** The gateway's client id at the issuer (it must be allowed the token-exchange grant). */
  clientId: string;
  /** Its secret (sent with HTTP Basic, `client_secret_basic`); read it from the environment, never from a file in git. */
  clientSecret: string;
  /** The `audience` asked for (the upstream's identifier at the issuer). At least one of `audience` and `resource`. */
  audience?: string | undefined;
  /** The `resource` asked for (RFC 8707: the upstream's URL). */
  resource?: string | undefined;
  /** The `scope` asked for (space-separated). Default: none (the issuer's default). */
  scope?: string | undefined;
  /** The issuer's token endpoint. Default: the issuer metadata's `token_endpoint`. */
  tokenEndpoint?: string | undefined;
}

/** The most users whose latest access token, or exchanged tokens, are kept at once (the oldest goes first). */
const MAX_KEPT = 10_000;
/** How long an exchanged token without `expires_in` (nor a JWT `exp`) is kept (ms). */
const UNDATED_MS = 60_000;

/** Checks the `credentials` option: each server's mode, and an exchange's parameters. */
export function checkCredentials(
  credentials: Readonly<Record<string, UpstreamCredentials>>,
  issuer: string | undefined,
): void {
  for (const [server, given] of Object.entries(credentials)) {
    const field = `credentials.${server}`;
    const mode = (given as { mode?: unknown } | undefined)?.mode;
    if (mode === "shared" || mode === "consent") continue;
    if (mode !== "exchange")
      throw new InvalidConfigError(
        `${field}.mode must be "exchange", "consent" or "shared", not ${JSON.stringify(mode)}`,
        { field },
      );
    const exchange = given as ExchangeCredentials;
    if (issuer === undefined)
      throw new InvalidConfigError(
        `${field}: "exchange" trades a signed-in caller's token at the issuer, so it needs oidc (an issuer)`,
        { field },
      );
    if (
      typeof exchange.clientId !== "string" ||
      exchange.clientId === "" ||
      typeof exchange.clientSecret !== "string" ||
      exchange.clientSecret === ""
    )
      throw new InvalidConfigError(`${field}: "exchange" needs the gateway's clientId and clientSecret at the issuer`, {
        field,
      });
    if (!exchange.audience && !exchange.resource)
      throw new InvalidConfigError(
        `${field}: "exchange" needs the upstream's audience or resource (what the exchanged token is for)`,
        { field },
      );
  }
}

/** A `Map` used as a bounded list: the oldest entry goes when a new one would pass `MAX_KEPT`. */
function keep<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  if (map.size >= MAX_KEPT) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** When an exchanged token stops being used: a little before its expiry (a tenth of its life, 30 s at most). */
function usableUntil(answer: { expires_in?: unknown; access_token: string }, now: number): number {
  let lifeMs = typeof answer.expires_in === "number" && answer.expires_in > 0 ? answer.expires_in * 1000 : undefined;
  if (lifeMs === undefined) {
    const exp = (() => {
      try {
        return (
          JSON.parse(Buffer.from(answer.access_token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
            exp?: unknown;
          }
        ).exp;
      } catch {
        return undefined;
      }
    })();
    lifeMs = typeof exp === "number" ? exp * 1000 - now : UNDATED_MS;
  }
  return now + lifeMs - Math.min(30_000, lifeMs / 10);
}

/**
 * The gateway's upstream credentials per user (see the module's comment): which servers exchange,
 * each signed-in caller's latest access token, and the exchanged tokens.
 */
export class UpstreamAuth {
  readonly #exchange = new Map<string, ExchangeCredentials>();
  readonly #tokenEndpoint: () => Promise<string>;
  /** Caller id → its latest valid access token of the issuer (what an exchange trades). */
  readonly #subjects = new Map<string, string>();
  /** `<server>\n<caller id>` → its exchanged token, and until when it is used. */
  readonly #tokens = new Map<string, { token: string; until: number }>();
  /** Exchanges under way, one per server and caller. */
  readonly #pending = new Map<string, Promise<string>>();
  /** How many exchanges were made (for tests and stats). */
  exchanges = 0;

  constructor(credentials: Readonly<Record<string, UpstreamCredentials>>, tokenEndpoint: () => Promise<string>) {
    for (const [server, given] of Object.entries(credentials))
      if (given.mode === "exchange") this.#exchange.set(server, given);
    this.#tokenEndpoint = tokenEndpoint;
  }

  /** Whether `server` is reached with each user's own exchanged token. */
  has(server: string): boolean {
    return this.#exchange.has(server);
  }

  /** Remembers the access token a caller's request was just admitted with. */
  note(callerId: string, token: string): void {
    if (this.#subjects.get(callerId) !== token) keep(this.#subjects, callerId, token);
  }

  /** How many exchanged tokens are kept now. */
  get held(): number {
    return this.#tokens.size;
  }

  /**
   * The config of `caller`'s own connection to `server`: the shared config with its credentials
   * (an `Authorization` header, an auth provider) replaced by the caller's exchanged token.
   */
  config(server: string, shared: MCPServerConfig, callerId: string): MCPServerConfig {
    if (shared.type !== "http" && shared.type !== "sse")
      throw new Error(`server "${server}" is not reached over HTTP: its credentials cannot be exchanged per user`);
    const headers = Object.fromEntries(
      Object.entries(shared.headers ?? {}).filter(
        ([name]) => !["authorization", "proxy-authorization", "cookie", "dpop"].includes(name.toLowerCase()),
      ),
    );
    const provider: HttpAuthProvider = {
      headers: async () => ({ authorization: `Bearer ${await this.token(server, callerId)}` }),
      // Refused: the exchanged token is dropped and the request tried once more with a fresh one.
      onUnauthorized: ({ sent, attempt }) => {
        const key = `${server}\n${callerId}`;
        if (this.#tokens.get(key) && sent["authorization"] === `Bearer ${this.#tokens.get(key)!.token}`)
          this.#tokens.delete(key);
        return attempt === 0;
      },
    };
    return { ...shared, headers, authProvider: provider };
  }

  /** `caller`'s exchanged token for `server`: the kept one while usable, else one exchange (shared by concurrent requests). */
  token(server: string, callerId: string): Promise<string> {
    const key = `${server}\n${callerId}`;
    const kept = this.#tokens.get(key);
    if (kept && kept.until > Date.now()) return Promise.resolve(kept.token);
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = this.#trade(server, callerId).finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    return pending;
  }

  async #trade(server: string, callerId: string): Promise<string> {
    const settings = this.#exchange.get(server)!;
    const subject = this.#subjects.get(callerId);
    if (subject === undefined)
      throw new Error(
        `server "${server}" takes each user's own token, and this caller did not sign in through the issuer (nothing to exchange)`,
      );
    const endpoint = settings.tokenEndpoint ?? (await this.#tokenEndpoint());
    const body = new URLSearchParams({
      grant_type: GRANT,
      subject_token: subject,
      subject_token_type: ACCESS_TOKEN,
      requested_token_type: ACCESS_TOKEN,
    });
    if (settings.audience) body.set("audience", settings.audience);
    if (settings.resource) body.set("resource", settings.resource);
    if (settings.scope) body.set("scope", settings.scope);
    this.exchanges++;
    const response = await fetch(endpoint, {
      method: "POST",
      redirect: "error",
      signal: AbortSignal.timeout(10_000),
      headers: {
        authorization: basic(settings.clientId, settings.clientSecret),
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body,
    });
    const answer = (await boundedJson(response)) as {
      access_token?: unknown;
      expires_in?: unknown;
      token_type?: unknown;
      issued_token_type?: unknown;
      error?: unknown;
      error_description?: unknown;
    };
    if (!response.ok || typeof answer.access_token !== "string" || answer.access_token === "") {
      const why =
        typeof answer.error === "string"
          ? `${answer.error}${typeof answer.error_description === "string" ? `: ${answer.error_description}` : ""}`.slice(
              0,
              200,
            )
          : `HTTP ${response.status}`;
      throw new Error(`the issuer refused to exchange the caller's token for server "${server}" (${why})`);
    }
    // Only a bearer access token is sent upstream: an ID token, a DPoP-bound one or "N_A" is not one.
    if (
      (answer.issued_token_type !== undefined && answer.issued_token_type !== ACCESS_TOKEN) ||
      typeof answer.token_type !== "string" ||
      answer.token_type.toLowerCase() !== "bearer"
    ) {
      throw new Error(
        `the issuer's exchange for server "${server}" gave no bearer access token (token_type ${JSON.stringify(String(answer.token_type).slice(0, 40))}, issued_token_type ${JSON.stringify(String(answer.issued_token_type).slice(0, 80))})`,
      );
    }
    const token = answer.access_token;
    keep(this.#tokens, `${server}\n${callerId}`, {
      token,
      until: usableUntil({ ...answer, access_token: token }, Date.now()),
    });
    return token;
  }
}
