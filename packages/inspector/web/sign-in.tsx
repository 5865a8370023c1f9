// Signing in to an HTTP server from the page (`POST /api/auth/sign-in`, `mcp auth <server>`'s flow):
// each step as it happens — the authorization server found and the client known, the page to open
// (a link: only the user's click opens it), the wait for its redirect, the tokens saved, the server
// reconnected.
import { useState } from "preact/hooks";
import type { SignInAnswer, SignInStarted } from "../src/api.js";
import { api } from "./client.js";

type Step = { id: string; state: "done" | "now" | "failed"; text: string; link?: string | undefined };

export function SignIn({ server }: { server: string }) {
  const [steps, setSteps] = useState<Step[]>([]);
  const [busy, setBusy] = useState(false);
  const start = () => {
    setBusy(true);
    const found: Step = {
      id: "discovery",
      state: "now",
      text: "Finding the authorization server and the client (discovery, registration)…",
    };
    setSteps([found]);
    api<SignInStarted>("/api/auth/sign-in", { server })
      .then(async (started) => {
        const known: Step = { ...found, state: "done", text: "Authorization server found, client known, PKCE ready" };
        const open: Step = {
          id: "authorize",
          state: "now",
          text: "Open the authorization page and sign in:",
          link: started.url,
        };
        setSteps([
          known,
          open,
          { id: "redirect", state: "now", text: `Waiting for the redirect to ${started.redirectUri}…` },
        ]);
        const answer = await api<SignInAnswer>("/api/auth/sign-in/wait", { server });
        const opened: Step = { ...open, state: "done" };
        if (!answer.ok)
          return setSteps([
            known,
            opened,
            { id: "redirect", state: "failed", text: `Not signed in: ${answer.error ?? ""}` },
          ]);
        setSteps([
          known,
          opened,
          { id: "redirect", state: "done", text: "Redirected back: the code traded for tokens, saved" },
          answer.reconnected
            ? { id: "reconnect", state: "done", text: "Reconnected with the tokens" }
            : { id: "reconnect", state: "failed", text: `Reconnecting failed: ${answer.error ?? ""}` },
        ]);
      })
      .catch((error: Error) => setSteps([{ ...found, state: "failed", text: `Not started: ${error.message}` }]))
      .finally(() => setBusy(false));
  };
  /** Only an http(s) address is a link (a page of the authorization server's choosing, opened by the user's click). */
  const linkable = (link: string | undefined): boolean => link !== undefined && /^https?:\/\//i.test(link);
  return (
    <div class="sign-in" data-sign-in={server}>
      <button type="button" class="small" name={`sign-in-${server}`} disabled={busy} onClick={start}>
        sign in
      </button>
      {steps.length ? (
        <ol class="sign-in-steps">
          {steps.map((s) => (
            <li
              data-step={s.id}
              data-state={s.state}
              class={s.state === "failed" ? "error" : s.state === "done" ? "ok" : ""}
            >
              {s.text}{" "}
              {linkable(s.link) && s.state !== "failed" ? (
                <a href={s.link!} target="_blank" rel="noopener noreferrer" class="sign-in-link">
                  {new URL(s.link!).origin}
                  {new URL(s.link!).pathname}
                </a>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
