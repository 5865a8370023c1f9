// The user step of a web app: the authorization page opens in a popup, the authorization server
// sends the user back to a page of the app (the redirect URI), and that page hands the answer to
// the window that opened it. Nothing is stored between page loads; the PKCE verifier stays in the
// opener's memory.
import { OAuthError } from "./errors.js";
import type { Authorize } from "./options.js";
import { authorizationResponseOf } from "./user-step.js";

/** What both sides of the popup step say to each other. */
const MESSAGE = "mcp-oauth-redirect";

/** The browser objects the popup step uses (typed here so the package needs no DOM types). */
interface WebWindow {
  open(url: string, target: string, features: string): WebWindow | null;
  closed?: boolean;
  close(): void;
  opener?: WebWindow | null;
  location: { href: string; origin: string };
  postMessage(message: unknown, targetOrigin: string): void;
  addEventListener(
    type: "message",
    listener: (event: { origin: string; data: unknown; source: unknown }) => void,
  ): void;
  removeEventListener(
    type: "message",
    listener: (event: { origin: string; data: unknown; source: unknown }) => void,
  ): void;
}

function currentWindow(): WebWindow {
  const found = (globalThis as { window?: WebWindow }).window;
  if (!found) throw new OAuthError("authorization", "popupAuthorize and completeAuthorization run in a browser window");
  return found;
}

/** Options of {@link popupAuthorize}. */
export interface PopupOptions {
  /** Give up after this long (default 5 minutes). */
  timeoutMs?: number | undefined;
  /** The popup's window features (default a 500 × 700 window). */
  features?: string | undefined;
}

/**
 * A user step for a web app: opens the authorization URL in a popup and resolves with the answer
 * the redirect page (same origin as this page, calling {@link completeAuthorization}) sends back.
 * Call it from a user gesture (a click), or the browser may block the popup: that is an
 * `OAuthError` saying so, as is a popup closed by the user or the timeout.
 */
export function popupAuthorize(options: PopupOptions = {}): Authorize {
  return (request) =>
    new Promise((resolve, reject) => {
      const win = currentWindow();
      const origin = win.location.origin;
      if (new URL(request.redirectUri).origin !== origin) {
        return reject(
          new OAuthError(
            "authorization",
            `The redirect URI ${request.redirectUri} is not on this page's origin (${origin}); the popup could not hand the answer back`,
          ),
        );
      }
      const popup = win.open(request.url.href, "mcp-oauth", options.features ?? "popup,width=500,height=700");
      if (!popup)
        return reject(
          new OAuthError("authorization", "The browser blocked the authorization popup; start sign-in from a click"),
        );
      let done = false;
      const finish = (error: Error | undefined, url?: URL): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        clearInterval(watch);
        win.removeEventListener("message", onMessage);
        if (!popup.closed) popup.close();
        if (error) reject(error);
        else {
          try {
            resolve(authorizationResponseOf(url!));
          } catch (cause) {
            reject(cause);
          }
        }
      };
      const onMessage = (event: { origin: string; data: unknown }): void => {
        const data = event.data as { type?: unknown; url?: unknown } | null;
        if (
          event.origin !== origin ||
          typeof data !== "object" ||
          data === null ||
          data.type !== MESSAGE ||
          typeof data.url !== "string"
        )
          return;
        const url = new URL(data.url);
        if (url.searchParams.get("state") !== request.state) return; // another sign-in's answer
        finish(undefined, url);
      };
      win.addEventListener("message", onMessage);
      const timer = setTimeout(
        () => finish(new OAuthError("authorization", "No answer from the authorization popup in time")),
        options.timeoutMs ?? 300_000,
      );
      const watch = setInterval(() => {
        if (!popup.closed) return;
        clearInterval(watch);
        // The redirect page posts its answer, then closes: give that message a moment to land.
        setTimeout(
          () => finish(new OAuthError("authorization", "The authorization popup was closed before it answered")),
          500,
        );
      }, 500);
    });
}

/**
 * On the redirect page: hands this page's URL (the `code` and `state`, or the `error`) to the
 * window that opened it and closes. Returns false when this page was not opened by a popup step.
 */
export function completeAuthorization(): boolean {
  const win = currentWindow();
  const opener = win.opener;
  if (!opener) return false;
  opener.postMessage({ type: MESSAGE, url: win.location.href }, win.location.origin);
  win.close();
  return true;
}
