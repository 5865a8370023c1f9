// The CLI's user step (Node): a loopback listener for the redirect, and the system browser.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { OAuthError } from "./errors.js";
import type { Authorize, AuthorizationRequest, AuthorizationResponse } from "./options.js";
import { authorizationResponseOf } from "./user-step.js";

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
  /** Stops waiting at once: the listener closes and the step rejects with the signal's reason (a host that ends before the user answers). */
  signal?: AbortSignal | undefined;
}

/** Opens a URL in the system's browser, without a shell. */
export function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["rundll32", ["url.dll,FileProtocolHandler", url]]
        : ["xdg-open", [url]];
  const child = spawn(command, args, { stdio: "ignore", detached: true });
  child.on("error", () => undefined); // no opener: the URL was printed too
  child.unref();
}

/**
 * The CLI's user step: listens on `127.0.0.1:<port>` for the redirect, opens the browser (or only
 * prints the URL), and answers the browser with a short page. The listener closes when the answer
 * arrives, on timeout, on error, or when `signal` aborts; only loopback is listened on.
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
          res
            .writeHead(200, { "content-type": "text/html; charset=utf-8" })
            .end("<!doctype html><title>Authorized</title><p>Authorized. You can close this tab.</p>");
          finish(() => resolve(answer));
        } catch (error) {
          res
            .writeHead(400, { "content-type": "text/html; charset=utf-8" })
            .end("<!doctype html><title>Not authorized</title><p>Authorization failed; see the terminal.</p>");
          finish(() => reject(error));
        }
      });
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new OAuthError(
                "authorization",
                `No answer from the browser within ${Math.round((options.timeoutMs ?? 300_000) / 1000)} s`,
              ),
            ),
          ),
        options.timeoutMs ?? 300_000,
      );
      const onAbort = (): void => finish(() => reject(options.signal?.reason));
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        server.close();
        server.closeAllConnections();
        settle();
      };
      server.once("error", (error) =>
        finish(() =>
          reject(
            new OAuthError(
              "authorization",
              `Could not listen on 127.0.0.1:${options.port} for the redirect: ${error.message}`,
              { cause: error },
            ),
          ),
        ),
      );
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      server.listen(options.port, "127.0.0.1", () => {
        options.onUrl?.(request.url.href);
        if (options.open !== false) (options.open ?? openInBrowser)(request.url.href);
      });
    });
}
