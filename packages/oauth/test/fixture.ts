// A hand-made MCP server protected by a hand-made authorization server, both on loopback, for
// what the conformance suite does not let a test look into (the exact requests, a race, an
// expired token on demand). The conformance suite is the real peer (scripts/conformance.mjs).
import { createHash } from "node:crypto";
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
}

export interface AuthFixture {
  mcpUrl: string;
  asUrl: string;
  /** Every request either server received: method, path, query and form body. */
  log: { server: "mcp" | "as"; method: string; path: string; query: URLSearchParams; form: URLSearchParams; headers: IncomingMessage["headers"] }[];
  /** The tokens the AS issued, and which are still valid. */
  valid: Set<string>;
  /** PKCE challenges seen at /authorize, by code issued. */
  challenges: Map<string, string>;
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

const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void => void res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(value));

export async function startAuthFixture(options: AuthFixtureOptions = {}): Promise<AuthFixture> {
  const log: AuthFixture["log"] = [];
  const valid = new Set<string>();
  const challenges = new Map<string, string>();
  const spent = new Set<string>();
  let issued = 0;
  const as = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", asUrl);
      const body = await bodyOf(req);
      const form = new URLSearchParams(req.headers["content-type"]?.includes("x-www-form-urlencoded") ? body : "");
      log.push({ server: "as", method: req.method ?? "", path: url.pathname, query: url.searchParams, form, headers: req.headers });
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
        });
      }
      if (url.pathname === "/register") return json(res, 201, { client_id: "registered-client", client_secret: "registered-secret", token_endpoint_auth_method: "client_secret_basic" });
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
      if (url.pathname === "/token") {
        const grant = form.get("grant_type");
        if (grant === "authorization_code") {
          const expected = challenges.get(form.get("code") ?? "");
          const verifier = form.get("code_verifier") ?? "";
          const actual = createHash("sha256").update(verifier).digest("base64url");
          if (expected === undefined || expected !== actual) return json(res, 400, { error: "invalid_grant", error_description: "PKCE verifier does not match" });
        } else if (grant === "refresh_token") {
          const presented = form.get("refresh_token") ?? "";
          if (!presented.startsWith("refresh-") || spent.has(presented)) return json(res, 400, { error: "invalid_grant" });
          if (options.rotateRefresh) spent.add(presented);
          if (options.refreshDelayMs) await new Promise((resolve) => setTimeout(resolve, options.refreshDelayMs));
        } else return json(res, 400, { error: "unsupported_grant_type" });
        const token = `access-${++issued}`;
        valid.add(token);
        return json(res, 200, { access_token: token, token_type: "Bearer", expires_in: options.expiresIn ?? 3600, refresh_token: `refresh-${issued}`, scope: form.get("scope") ?? undefined });
      }
      json(res, 404, { error: "not_found" });
    })();
  });
  const asUrl = await listen(as);

  const mcp = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", mcpOrigin);
      const body = await bodyOf(req);
      log.push({ server: "mcp", method: req.method ?? "", path: url.pathname, query: url.searchParams, form: new URLSearchParams(), headers: req.headers });
      const prm = { resource: typeof options.resource === "function" ? options.resource(mcpOrigin) : (options.resource ?? `${mcpOrigin}/mcp`), authorization_servers: [asUrl], ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}) };
      const where = options.prm ?? "path";
      if (url.pathname === "/.well-known/oauth-protected-resource/mcp" && (where === "path" || where === "header")) return json(res, 200, prm);
      if (url.pathname === "/.well-known/oauth-protected-resource" && where === "root") return json(res, 200, prm);
      if (url.pathname === "/custom-prm" && where === "header") return json(res, 200, prm);
      if (url.pathname !== "/mcp") return json(res, 404, { error: "not_found" });
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (token === undefined || !valid.has(token) || options.refuseAll) {
        const params = [where === "header" ? `resource_metadata="${mcpOrigin}/custom-prm"` : "", options.challengeScope ? `scope="${options.challengeScope}"` : ""].filter(Boolean).join(", ");
        return json(res, 401, { error: "invalid_token" }, { "www-authenticate": `Bearer${params ? ` ${params}` : ""}` });
      }
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.id === undefined) return void res.writeHead(202).end();
      json(res, 200, { jsonrpc: "2.0", id: message.id, result: { ok: true, method: message.method } });
    })();
  });
  const mcpOrigin = await listen(mcp);
  return {
    mcpUrl: `${mcpOrigin}/mcp`,
    asUrl,
    log,
    valid,
    challenges,
    stop: async () => {
      for (const server of [as, mcp]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
