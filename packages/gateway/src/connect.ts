// The consent link's first stop (MCP 2025-11-25, elicitation, "Phishing"): the URL a caller is sent
// is the gateway's own connect route, never the upstream's authorization page, so that whoever
// opens it proves who they are first. The connect route signs the browser's user in at the
// organization's issuer (the one the callers' tokens come from: authorization code + PKCE + nonce,
// the gateway its relying party), checks the ID token (jose, the issuer's keys: iss, aud, nonce,
// exp), and only when its user is the caller the link was made for, sends the browser on to the
// upstream's authorization page, with a short-lived HttpOnly cookie that the upstream's callback
// must bring back. A link forwarded to another user ends in 403, and nothing is stored.

import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { createRemoteJWKSet, JWTPayload, JWTVerifyGetKey } from "jose";
import { authorizationServerFor, createPkce, createState } from "@mcp/oauth";
import { saveFlow, type ConsentStore } from "./consent-store.js";
import { boundedJson } from "./introspection.js";
import { OIDC_ALGORITHMS, oidcCallerId } from "./oidc.js";

/** The gateway as a relying party of the organization's issuer, for the consent links (see {@link ConsentOptions.signIn}). */
export interface ConsentSignIn {
  /** The gateway's client id at the callers' issuer (`oidc.issuer`), with the consent callback URL (`redirectUri`) registered. */
  clientId: string;
  /** Its secret, if it is a confidential client (sent with HTTP Basic); read it from the environment. */
  clientSecret?: string | undefined;
}

/** How long a link, and a sign-in started from it, may be completed (ms). */
const LINK_TTL_MS = 10 * 60_000;

/** What a link remembers until it is opened: the caller it is for, and where it leads once they are verified. */
export interface Linked {
  caller: string;
  server: string;
  /** The upstream authorization request's state, and its pending record (sealed again once verified). */
  state: string;
  pending: Record<string, unknown>;
  /** The upstream's authorization URL. */
  url: string;
}

/** A sign-in at the organization's issuer under way (sealed in the store until its callback). */
interface Login {
  linked: Linked;
  nonce: string;
  verifier: string;
  /** The hash of the browser's cookie for this flow. */
  binding: string;
}

/** Sealing, shared with {@link UpstreamConsent}: values in the store are encrypted. */
export interface Sealer {
  seal(value: unknown): string;
  open<T>(stored: unknown): T | undefined;
}

/** The cookie that binds one flow to the browser that opened its link: named after the upstream state. */
export function cookieName(state: string): string {
  return `mcp_consent_${createHash("sha256").update(state).digest("hex").slice(0, 16)}`;
}

/** The hash of the flow's cookie as `req` brings it, or undefined without one. */
export function bindingOf(req: IncomingMessage, state: string): string | undefined {
  const name = cookieName(state);
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name)
      return createHash("sha256")
        .update(part.slice(at + 1).trim())
        .digest("hex");
  }
  return undefined;
}

/**
 * Checks an ID token of `issuer` for the gateway (`aud` its client id) and this sign-in (`nonce`),
 * with the issuer's keys: its claims, or an error saying why not.
 */
export async function verifyIdToken(
  idToken: string,
  keys: JWTVerifyGetKey,
  expected: { issuer: string; clientId: string; nonce: string },
): Promise<JWTPayload> {
  const { jwtVerify } = await import("jose");
  const { payload } = await jwtVerify(idToken, keys, {
    issuer: expected.issuer,
    audience: expected.clientId,
    algorithms: [...OIDC_ALGORITHMS],
    clockTolerance: 30,
    requiredClaims: ["exp", "sub"],
  });
  if (payload["nonce"] !== expected.nonce) throw new Error("the ID token's nonce is not this sign-in's");
  return payload;
}

/** The organization's issuer's endpoints and keys. */
interface IssuerEndpoints {
  authorize: string;
  token: string;
  keys: ReturnType<typeof createRemoteJWKSet>;
}

/** The connect route, and the sign-in at the organization's issuer it starts. */
export class ConsentConnect {
  /** The connect route's path: `connect` next to the callback's. */
  readonly path: string;
  readonly #url: string;
  readonly #cookiePath: string;
  readonly #secure: boolean;
  #issuer: Promise<IssuerEndpoints> | undefined;

  constructor(
    private readonly options: {
      issuer: string;
      idClaim: string;
      signIn: ConsentSignIn;
      redirectUri: string;
      store: ConsentStore;
      sealer: Sealer;
    },
  ) {
    const connect = new URL("connect", options.redirectUri);
    this.#url = connect.href;
    this.path = connect.pathname;
    this.#cookiePath = new URL(".", options.redirectUri).pathname;
    this.#secure = connect.protocol === "https:";
  }

  /** Keeps `linked` under a new, unguessable id, used once, for LINK_TTL_MS: the URL of the link and its id. */
  async link(linked: Linked): Promise<{ url: string; id: string }> {
    const id = randomBytes(32).toString("base64url");
    await saveFlow(
      this.options.store,
      `consent-link:${id}`,
      this.options.sealer.seal(linked),
      LINK_TTL_MS,
      linked.caller,
    );
    return { url: `${this.#url}?id=${id}`, id };
  }

  #metadata(): Promise<IssuerEndpoints> {
    this.#issuer ??= (async () => {
      const { metadata } = await authorizationServerFor(fetch, this.options.issuer);
      const jwks = (metadata as { jwks_uri?: unknown }).jwks_uri;
      if (!metadata.authorization_endpoint || !metadata.token_endpoint || typeof jwks !== "string")
        throw new Error(`the issuer ${this.options.issuer} names no authorization endpoint, token endpoint or keys`);
      const { createRemoteJWKSet: remoteKeys } = await import("jose");
      return {
        authorize: metadata.authorization_endpoint,
        token: metadata.token_endpoint,
        keys: remoteKeys(new URL(jwks)),
      };
    })();
    this.#issuer.catch(() => (this.#issuer = undefined));
    return this.#issuer;
  }

  /** GET `<path>?id=`: a link opened; the browser is sent to sign in at the organization's issuer. */
  async connect(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "GET") return answer(res, 405, "Method not allowed\n");
    const id = new URL(req.url ?? "/", "http://gateway").searchParams.get("id") ?? "";
    const key = `consent-link:${id}`;
    const linked =
      id.length > 0 && id.length <= 128
        ? this.options.sealer.open<Linked>(await this.options.store.get(key))
        : undefined;
    if (!linked)
      return answer(
        res,
        404,
        "Unknown, expired or already used link: call again from your MCP client for a new one.\n",
      );
    // Single use: the link is forgotten before anything else.
    await this.options.store.delete(key);
    const issuer = await this.#metadata().catch((error: Error) => error);
    if (issuer instanceof Error)
      return answer(res, 502, `The sign-in could not start: ${issuer.message.slice(0, 200)}\n`);
    const pkce = await createPkce();
    const state = createState();
    const nonce = createState();
    const cookie = randomBytes(32).toString("base64url");
    const login: Login = {
      linked,
      nonce,
      verifier: pkce.verifier,
      binding: createHash("sha256").update(cookie).digest("hex"),
    };
    await saveFlow(
      this.options.store,
      `consent-login:${state}`,
      this.options.sealer.seal(login),
      LINK_TTL_MS,
      linked.caller,
    );
    const url = new URL(issuer.authorize);
    for (const [name, value] of Object.entries({
      response_type: "code",
      client_id: this.options.signIn.clientId,
      redirect_uri: this.options.redirectUri,
      scope: "openid",
      state,
      nonce,
      code_challenge: pkce.challenge,
      code_challenge_method: "S256",
      prompt: "login",
    }))
      url.searchParams.set(name, value);
    const attributes = `Path=${this.#cookiePath}; Max-Age=${LINK_TTL_MS / 1000}; HttpOnly; SameSite=Lax${this.#secure ? "; Secure" : ""}`;
    res
      .writeHead(302, {
        location: url.href,
        "cache-control": "no-store",
        "set-cookie": `${cookieName(linked.state)}=${cookie}; ${attributes}`,
      })
      .end();
  }

  /**
   * The callback of a sign-in this route started (false when `state` is not one): checks the
   * browser's cookie, trades the code, verifies the ID token, and sends the browser to the
   * upstream only when its user is the caller the link was made for.
   */
  async login(
    req: IncomingMessage,
    res: ServerResponse,
    state: string,
    query: URLSearchParams,
    verified: (linked: Linked, binding: string) => Promise<void>,
  ): Promise<boolean> {
    const key = `consent-login:${state}`;
    const login = this.options.sealer.open<Login>(await this.options.store.get(key));
    if (!login) return false;
    await this.options.store.delete(key);
    const binding = bindingOf(req, login.linked.state);
    if (binding !== login.binding)
      return (
        answer(res, 400, "This sign-in was not started in this browser: open the link from your MCP client again.\n"),
        true
      );
    const code = query.get("code");
    if (!code)
      return (
        answer(
          res,
          400,
          `The sign-in did not complete: ${(query.get("error") ?? "no code").slice(0, 100)}. Call again from your MCP client.\n`,
        ),
        true
      );
    const issuer = await this.#metadata().catch(() => undefined);
    if (!issuer)
      return (
        answer(res, 502, "The issuer could not be reached to complete the sign-in. Call again from your MCP client.\n"),
        true
      );
    const headers: Record<string, string> = {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    };
    const body = new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: this.options.redirectUri,
      code_verifier: login.verifier,
    });
    const { clientId, clientSecret } = this.options.signIn;
    if (clientSecret)
      headers["authorization"] =
        `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`;
    else body.set("client_id", clientId);
    const response = await fetch(issuer.token, {
      method: "POST",
      redirect: "error",
      signal: AbortSignal.timeout(10_000),
      headers,
      body,
    }).catch(() => undefined);
    const tokens = (response ? await boundedJson(response) : undefined) as { id_token?: unknown } | undefined;
    if (!response?.ok || typeof tokens?.id_token !== "string")
      return (answer(res, 502, "The issuer did not complete the sign-in. Call again from your MCP client.\n"), true);
    const claims = await verifyIdToken(tokens.id_token, issuer.keys, {
      issuer: this.options.issuer,
      clientId,
      nonce: login.nonce,
    }).catch(() => undefined);
    if (!claims)
      return (
        answer(res, 400, "The issuer's ID token could not be verified. Call again from your MCP client.\n"),
        true
      );
    const subject = claims[this.options.idClaim];
    if (typeof subject !== "string" || oidcCallerId(this.options.issuer, subject) !== login.linked.caller)
      return (
        answer(
          res,
          403,
          "This link was made for another user: nothing was authorized. Ask your own MCP client for a link of your own.\n",
        ),
        true
      );
    await verified(login.linked, binding);
    res.writeHead(302, { location: login.linked.url, "cache-control": "no-store" }).end();
    return true;
  }

  /** The header that forgets the flow's cookie. */
  clear(state: string): string {
    return `${cookieName(state)}=; Path=${this.#cookiePath}; Max-Age=0; HttpOnly; SameSite=Lax${this.#secure ? "; Secure" : ""}`;
  }
}

function answer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" }).end(text);
}
