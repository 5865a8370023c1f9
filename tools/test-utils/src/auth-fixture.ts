// A hand-made MCP server protected by a hand-made authorization server, both on loopback, for
// what the conformance suite does not let a test look into (the exact requests, a race, an
// expired token on demand). The conformance suite is the real peer (scripts/conformance.mjs).
import { createHash, createPublicKey, verify, type JsonWebKey } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export interface AuthFixtureOptions {
  /** Where the protected resource metadata lives: `header` (named in WWW-Authenticate), `path`, `root` or `none` (2025-03-26). */
  prm?: "header" | "path" | "root" | "none";
  /** `resource` in the metadata, or a function of the MCP server's origin (default: the MCP URL). */
  resource?: string | ((mcpOrigin: string) => string);
  /** `issuer` the AS metadata claims (default: the AS URL). */
  claimedIssuer?: string;
  /** Whether the AS publishes metadata (default true). */
  asMetadata?: boolean;
  scopesSupported?: string[];
  challengeScope?: string;
  /** `expires_in` of issued tokens (default 3600). */
  expiresIn?: number;
  issParameter?: "correct" | "wrong" | "omit";
  issSupported?: boolean;
  /** The MCP server refuses every token. */
  refuseAll?: boolean;
  /** A refresh token works once (rotation, as most authorization servers do it). */
  rotateRefresh?: boolean;
  /** The token endpoint answers a refresh after this long (so that processes overlap). */
  refreshDelayMs?: number;
  /**
   * DPoP (RFC 9449): the AS lists ES256 and binds a token to the proof's key; the MCP server
   * challenges with `DPoP` and checks each proof (signature, htm, htu, ath, content_digest, key).
   * `nonce`: both require their nonce first. `bearerChallenge`: the MCP server challenges with
   * `Bearer` only (it would take DPoP, but does not say so).
   */
  dpop?: { nonce?: boolean; bearerChallenge?: boolean };
  /**
   * The MCP server answers as a minimal 2025 MCP server (`initialize`, `ping`, `tools/list`, and a
   * `whoami` tool whose text is the access token it was called with) instead of echoing methods.
   */
  mcp?: boolean;
  /** The token endpoint answers every request with a 307 to this URL. */
  tokenRedirect?: string;
}

/** What a DPoP proof says, once its signature is checked against its own key; a string says what is wrong. */
export function checkProof(
  proof: string | undefined,
  method: string,
  url: string,
): { claims: Record<string, unknown>; thumbprint: string } | string {
  if (!proof) return "no proof";
  const [head, payload, signature] = proof.split(".");
  const header = JSON.parse(Buffer.from(head!, "base64url").toString()) as {
    typ?: string;
    alg?: string;
    jwk?: JsonWebKey;
  };
  if (header.typ !== "dpop+jwt" || header.alg !== "ES256" || !header.jwk || header.jwk.d !== undefined)
    return "bad header";
  const key = createPublicKey({ key: header.jwk, format: "jwk" });
  if (
    !verify(
      "sha256",
      Buffer.from(`${head}.${payload}`),
      { key, dsaEncoding: "ieee-p1363" },
      Buffer.from(signature!, "base64url"),
    )
  )
    return "bad signature";
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
  if (
    claims["htm"] !== method ||
    claims["htu"] !== url ||
    typeof claims["jti"] !== "string" ||
    Math.abs(Number(claims["iat"]) - Date.now() / 1000) > 300
  )
    return "bad claims";
  const { crv, kty, x, y } = header.jwk;
  const thumbprint = createHash("sha256").update(JSON.stringify({ crv, kty, x, y })).digest("base64url");
  return { claims, thumbprint };
}

export interface AuthFixture {
  mcpUrl: string;
  asUrl: string;
  /** Every request either server received: method, path, query and form body. */
  log: {
    server: "mcp" | "as";
    method: string;
    path: string;
    query: URLSearchParams;
    form: URLSearchParams;
    headers: IncomingMessage["headers"];
  }[];
  /** The tokens the AS issued, and which are still valid. */
  valid: Set<string>;
  /** PKCE challenges seen at /authorize, by code issued. */
  challenges: Map<string, string>;
  /** With `dpop`: the key thumbprint each token is bound to; and why the last proof was refused. */
  bound: Map<string, string>;
  proofErrors: string[];
  stop(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) body += String(chunk);
  return body;
}

const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void =>
  void res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(value));

export async function startAuthFixture(options: AuthFixtureOptions = {}): Promise<AuthFixture> {
  const log: AuthFixture["log"] = [];
  const valid = new Set<string>();
  const challenges = new Map<string, string>();
  const spent = new Set<string>();
  const bound = new Map<string, string>();
  const proofErrors: string[] = [];
  const AS_NONCE = "as-nonce-1";
  const RS_NONCE = "rs-nonce-1";
  let issued = 0;
  const as = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", asUrl);
      const body = await bodyOf(req);
      const form = new URLSearchParams(req.headers["content-type"]?.includes("x-www-form-urlencoded") ? body : "");
      log.push({
        server: "as",
        method: req.method ?? "",
        path: url.pathname,
        query: url.searchParams,
        form,
        headers: req.headers,
      });
      if (url.pathname === "/.well-known/oauth-authorization-server" && options.asMetadata !== false) {
        return json(res, 200, {
          issuer: options.claimedIssuer ?? asUrl,
          authorization_endpoint: `${asUrl}/authorize`,
          token_endpoint: `${asUrl}/token`,
          registration_endpoint: `${asUrl}/register`,
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "none"],
          ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
          ...(options.issSupported ? { authorization_response_iss_parameter_supported: true } : {}),
          ...(options.dpop ? { dpop_signing_alg_values_supported: ["ES256"] } : {}),
        });
      }
      if (url.pathname === "/register")
        return json(res, 201, {
          client_id: "registered-client",
          client_secret: "registered-secret",
          token_endpoint_auth_method: "client_secret_basic",
        });
      if (url.pathname === "/authorize") {
        const code = `code-${++issued}`;
        challenges.set(code, url.searchParams.get("code_challenge") ?? "");
        const back = new URL(url.searchParams.get("redirect_uri")!);
        back.searchParams.set("code", code);
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        if (options.issParameter === "correct") back.searchParams.set("iss", options.claimedIssuer ?? asUrl);
        if (options.issParameter === "wrong") back.searchParams.set("iss", "http://evil.example");
        return void res.writeHead(302, { location: back.href }).end();
      }
      if (url.pathname === "/token" && options.tokenRedirect !== undefined)
        return void res.writeHead(307, { location: options.tokenRedirect }).end();
      if (url.pathname === "/token") {
        const grant = form.get("grant_type");
        if (grant === "authorization_code") {
          const expected = challenges.get(form.get("code") ?? "");
          const verifier = form.get("code_verifier") ?? "";
          const actual = createHash("sha256").update(verifier).digest("base64url");
          if (expected === undefined || expected !== actual)
            return json(res, 400, { error: "invalid_grant", error_description: "PKCE verifier does not match" });
        } else if (grant === "refresh_token") {
          const presented = form.get("refresh_token") ?? "";
          if (!presented.startsWith("refresh-") || spent.has(presented))
            return json(res, 400, { error: "invalid_grant" });
          if (options.rotateRefresh) spent.add(presented);
          if (options.refreshDelayMs) await new Promise((resolve) => setTimeout(resolve, options.refreshDelayMs));
        } else if (grant === "urn:ietf:params:oauth:grant-type:jwt-bearer") {
          // A workload's JWT: this fixture takes any three-part token whose payload says sub "workload".
          const claims = (() => {
            try {
              return JSON.parse(Buffer.from(form.get("assertion")!.split(".")[1]!, "base64url").toString()) as {
                sub?: string;
              };
            } catch {
              return {};
            }
          })();
          if (claims.sub !== "workload")
            return json(res, 400, { error: "invalid_grant", error_description: "untrusted workload" });
        } else return json(res, 400, { error: "unsupported_grant_type" });
        let jkt: string | undefined;
        if (options.dpop && req.headers["dpop"] !== undefined) {
          const checked = checkProof(req.headers["dpop"] as string, "POST", `${asUrl}/token`);
          if (typeof checked === "string")
            return (proofErrors.push(`token: ${checked}`), json(res, 400, { error: "invalid_dpop_proof" }));
          if (options.dpop.nonce && checked.claims["nonce"] !== AS_NONCE)
            return json(res, 400, { error: "use_dpop_nonce" }, { "dpop-nonce": AS_NONCE });
          jkt = checked.thumbprint;
        }
        const token = `access-${++issued}`;
        valid.add(token);
        if (jkt) bound.set(token, jkt);
        return json(res, 200, {
          access_token: token,
          token_type: jkt ? "DPoP" : "Bearer",
          expires_in: options.expiresIn ?? 3600,
          refresh_token: `refresh-${issued}`,
          scope: form.get("scope") ?? undefined,
        });
      }
      json(res, 404, { error: "not_found" });
    })();
  });
  const asUrl = await listen(as);

  const mcp = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", mcpOrigin);
      const body = await bodyOf(req);
      log.push({
        server: "mcp",
        method: req.method ?? "",
        path: url.pathname,
        query: url.searchParams,
        form: new URLSearchParams(),
        headers: req.headers,
      });
      const prm = {
        resource:
          typeof options.resource === "function"
            ? options.resource(mcpOrigin)
            : (options.resource ?? `${mcpOrigin}/mcp`),
        authorization_servers: [asUrl],
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
      };
      const where = options.prm ?? "path";
      if (url.pathname === "/.well-known/oauth-protected-resource/mcp" && (where === "path" || where === "header"))
        return json(res, 200, prm);
      if (url.pathname === "/.well-known/oauth-protected-resource" && where === "root") return json(res, 200, prm);
      if (url.pathname === "/custom-prm" && where === "header") return json(res, 200, prm);
      if (url.pathname !== "/mcp") return json(res, 404, { error: "not_found" });
      const [, scheme, token] = /^(Bearer|DPoP) (.+)$/.exec(req.headers.authorization ?? "") ?? [];
      if (options.dpop && token !== undefined && bound.has(token)) {
        const checked =
          scheme === "DPoP"
            ? checkProof(req.headers["dpop"] as string | undefined, req.method ?? "", `${mcpOrigin}/mcp`)
            : "a bound token sent as Bearer";
        const claims = typeof checked === "string" ? {} : checked.claims;
        const problem =
          typeof checked === "string"
            ? checked
            : checked.thumbprint !== bound.get(token)
              ? "another key"
              : claims["ath"] !== createHash("sha256").update(token).digest("base64url")
                ? "bad ath"
                : claims["content_digest"] !== `sha-256=:${createHash("sha256").update(body).digest("base64")}:`
                  ? "bad content_digest"
                  : undefined;
        if (problem)
          return (
            proofErrors.push(`mcp: ${problem}`),
            json(
              res,
              401,
              { error: "invalid_dpop_proof" },
              { "www-authenticate": `DPoP error="invalid_dpop_proof", algs="ES256"` },
            )
          );
        if (options.dpop.nonce && claims["nonce"] !== RS_NONCE)
          return json(
            res,
            401,
            { error: "use_dpop_nonce" },
            { "www-authenticate": `DPoP error="use_dpop_nonce", algs="ES256"`, "dpop-nonce": RS_NONCE },
          );
      } else if (options.dpop && token !== undefined && scheme !== "Bearer") {
        return json(res, 401, { error: "invalid_token" }, { "www-authenticate": `DPoP algs="ES256"` });
      }
      if (token === undefined || !valid.has(token) || options.refuseAll) {
        if (options.dpop && !options.dpop.bearerChallenge)
          return json(res, 401, { error: "invalid_token" }, { "www-authenticate": `DPoP algs="ES256"` });
        const params = [
          where === "header" ? `resource_metadata="${mcpOrigin}/custom-prm"` : "",
          options.challengeScope ? `scope="${options.challengeScope}"` : "",
        ]
          .filter(Boolean)
          .join(", ");
        return json(
          res,
          401,
          { error: "invalid_token" },
          { "www-authenticate": `Bearer${params ? ` ${params}` : ""}` },
        );
      }
      // No standalone stream and no sessions: a GET or DELETE is refused, as a stateless server does.
      if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
      const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
      if (message.id === undefined) return void res.writeHead(202).end();
      if (!options.mcp)
        return json(res, 200, { jsonrpc: "2.0", id: message.id, result: { ok: true, method: message.method } });
      const answers: Record<string, unknown> = {
        initialize: {
          protocolVersion: ["2025-11-25", "2025-06-18", "2025-03-26"].includes(message.params?.protocolVersion ?? "")
            ? message.params!.protocolVersion
            : "2025-06-18",
          capabilities: { tools: {} },
          serverInfo: { name: "auth-fixture", version: "1.0.0" },
        },
        ping: {},
        "tools/list": {
          tools: [
            { name: "whoami", description: "The access token this call came with", inputSchema: { type: "object" } },
          ],
        },
        "tools/call": { content: [{ type: "text", text: token }] },
      };
      const result = answers[message.method];
      json(
        res,
        200,
        result === undefined
          ? { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } }
          : { jsonrpc: "2.0", id: message.id, result },
      );
    })();
  });
  const mcpOrigin = await listen(mcp);
  return {
    mcpUrl: `${mcpOrigin}/mcp`,
    asUrl,
    log,
    valid,
    challenges,
    bound,
    proofErrors,
    stop: async () => {
      for (const server of [as, mcp]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
