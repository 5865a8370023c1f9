// Signing in to an HTTP server from the page, as `mcp auth <server>` does: the manager's
// `authorizeServer` (discovery, client registration, PKCE, then a loopback listener for the
// redirect) with no browser of its own — the page shows the authorization URL as a link the user
// opens — then the tokens are saved in the manager's token store and the server reconnects. The
// inspector's close stops a sign-in still waiting for the browser (its listener closes).
import type { MCPServerConfig } from "@mcp/client";
import type { MCPManager } from "@mcp/manager";
import type { SignInAnswer, SignInStarted } from "./api.js";
import { errorOf } from "./hub.js";
import { Refusal, text } from "./http.js";

type Route = (body: Record<string, unknown>) => unknown;

/** How long a sign-in waits for the browser's redirect. */
const SIGN_IN_MS = 5 * 60_000;

/** The routes `POST /api/auth/sign-in` `{ server }` and `/api/auth/sign-in/wait` `{ server }`, and `close()`, which stops every sign-in still waiting. */
export function signInRoutes(
  manager: MCPManager,
  configOf: (name: string) => MCPServerConfig | undefined,
): { routes: Record<string, Route>; close(): void } {
  const stop = new AbortController();
  /** Each server's sign-in under way, or its last outcome. */
  const outcomes = new Map<string, Promise<SignInAnswer>>();
  const waiting = new Set<string>();
  const routes: Record<string, Route> = {
    "/api/auth/sign-in": async (body) => {
      const name = text(body, "server");
      const config = configOf(name);
      if (!config) throw new Refusal(404, `no server named "${name}" is configured`);
      if (!("url" in config))
        throw new Refusal(
          400,
          `"${name}" is a stdio server; OAuth applies to HTTP servers (it gets its credentials from its env)`,
        );
      if (waiting.has(name)) throw new Refusal(409, `a sign-in to "${name}" is already waiting for the browser`);
      let onUrl: (url: string) => void = () => undefined;
      const gotUrl = new Promise<string>((resolve) => (onUrl = resolve));
      waiting.add(name);
      const outcome: Promise<SignInAnswer> = manager
        .authorizeServer(name, config, { open: false, onUrl, timeoutMs: SIGN_IN_MS, signal: stop.signal })
        .then(
          async () => {
            // The tokens are in the store: a new connection sends them.
            try {
              await manager.reconnectServer(name);
              return { server: name, ok: true, reconnected: true };
            } catch (error) {
              return { server: name, ok: true, reconnected: false, error: errorOf(error).message };
            }
          },
          (error: unknown) => ({ server: name, ok: false, error: errorOf(error).message }),
        )
        .finally(() => waiting.delete(name));
      outcomes.set(name, outcome);
      const first = await Promise.race([gotUrl, outcome]);
      if (typeof first !== "string")
        throw new Refusal(502, `the sign-in to "${name}" failed before the browser step: ${first.error ?? ""}`);
      const redirectUri = new URL(first).searchParams.get("redirect_uri") ?? "";
      return { server: name, url: first, redirectUri } satisfies SignInStarted;
    },
    "/api/auth/sign-in/wait": async (body) => {
      const name = text(body, "server");
      const outcome = outcomes.get(name);
      if (!outcome) throw new Refusal(404, `no sign-in to "${name}" was started`);
      return await outcome;
    },
  };
  return { routes, close: () => stop.abort(new Error("the inspector stopped before the sign-in finished")) };
}
