import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { OAuthError } from "./errors.js";
import type { OAuthFetch } from "./discovery.js";
import type { Authorize, AuthorizationRequest, AuthorizationResponse } from "./options.js";

/** The parameters of a redirect back to the client; an `error` there becomes an {@link OAuthError}. */
export function authorizationResponseOf(redirect: URL): AuthorizationResponse {
  const params = redirect.searchParams;
  const error = params.get("error");
  if (error !== null) {
    const description = params.get("error_description") ?? undefined;
    throw new OAuthError("authorization", `The authorization server refused: ${error}${description ? ` (${description})` : ""}`, { oauthError: error, oauthErrorDescription: description });
  }
  const code = params.get("code");
  if (code === null) throw new OAuthError("authorization", "The redirect back carried no authorization code");
  return { code, state: params.get("state") ?? undefined, iss: params.get("iss") ?? undefined };
}

/**
 * A user step with no user: requests the authorization URL and takes the redirect it answers
 * with (for servers that approve at once, such as test servers and some machine setups).
 */
export function followRedirectAuthorize(fetchImpl: OAuthFetch = (input, init) => fetch(input, init)): Authorize {
  return async (request) => {
    let response: Response;
    try {
      response = await fetchImpl(request.url.href, { redirect: "manual" });
    } catch (cause) {
      throw new OAuthError("authorization", "Could not reach the authorization endpoint", { cause });
    }
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || location === null) {
      throw new OAuthError("authorization", `The authorization endpoint answered ${response.status} without a redirect; a browser is needed`, { status: response.status });
    }
    const target = new URL(location, request.url);
    if (!target.href.startsWith(request.redirectUri.split("?")[0]!)) throw new OAuthError("authorization", "The authorization endpoint redirected somewhere other than the redirect URI");
    return authorizationResponseOf(target);
  };
}

/** Options of {@link loopbackAuthorize}. */
export interface LoopbackOptions {
  /** The port the redirect URI names (`http://127.0.0.1:<port>/callback`). */
  port: number;
  /** Path of the redirect URI (default `/callback`). */
  path?: string | undefined;
  /** Opens the URL (default: the system's browser opener). `false`: only `onUrl`. */
  open?: ((url: string) => void) | false | undefined;
  /** Told the URL to visit (print it for a headless machine). */
  onUrl?: ((url: string) => void) | undefined;
  /** How long to wait for the user (default 5 minutes). */
  timeoutMs?: number | undefined;
}

/** The redirect URI a loopback step listens on. */
export function loopbackRedirectUri(port: number, path = "/callback"): string {
  return `http://127.0.0.1:${port}${path}`;
}

/** Opens a URL in the system's browser, without a shell. */
export function openInBrowser(url: string): void {
  const [command, args] = process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["rundll32", ["url.dll,FileProtocolHandler", url]] : ["xdg-open", [url]];
  const child = spawn(command, args, { stdio: "ignore", detached: true });
  child.on("error", () => undefined); // no opener: the URL was printed too
  child.unref();
}

/**
 * The CLI's user step: listens on `127.0.0.1:<port>` for the redirect, opens the browser (or only
 * prints the URL), and answers the browser with a short page. The listener closes when the answer
 * arrives, on timeout, or on error; only loopback is listened on.
 */
export function loopbackAuthorize(options: LoopbackOptions): Authorize {
  const path = options.path ?? "/callback";
  return (request: AuthorizationRequest) =>
    new Promise<AuthorizationResponse>((resolve, reject) => {
      const server = createServer((req, res) => {
        const url = new URL(req.url ?? "/", `http://127.0.0.1:${options.port}`);
        if (url.pathname !== path) {
          res.writeHead(404).end();
          return;
        }
        try {
          const answer = authorizationResponseOf(url);
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>Authorized</title><p>Authorized. You can close this tab.</p>");
          finish(() => resolve(answer));
        } catch (error) {
          res.writeHead(400, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>Not authorized</title><p>Authorization failed; see the terminal.</p>");
          finish(() => reject(error));
        }
      });
      const timer = setTimeout(() => finish(() => reject(new OAuthError("authorization", `No answer from the browser within ${Math.round((options.timeoutMs ?? 300_000) / 1000)} s`))), options.timeoutMs ?? 300_000);
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        server.close();
        server.closeAllConnections();
        settle();
      };
      server.once("error", (error) => finish(() => reject(new OAuthError("authorization", `Could not listen on 127.0.0.1:${options.port} for the redirect: ${error.message}`, { cause: error }))));
      server.listen(options.port, "127.0.0.1", () => {
        options.onUrl?.(request.url.href);
        if (options.open !== false) (options.open ?? openInBrowser)(request.url.href);
      });
    });
}
