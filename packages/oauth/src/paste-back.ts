// The user step of a machine with no browser: the authorization URL printed, to open on any
// machine, and the address that browser was sent back to (or just its code) read from a stream.

import { createInterface } from "node:readline/promises";
import { OAuthError } from "./errors.js";
import type { Authorize } from "./options.js";
import { authorizationResponseOf } from "./user-step.js";

/** Options of {@link pasteBackAuthorize}. */
export interface PasteBackOptions {
  /** What the user is signing in to, as the instructions name it. */
  name: string;
  /** Where the pasted address is read (default `process.stdin`). */
  input?: NodeJS.ReadableStream | undefined;
  /** Where the question is written (default `process.stderr`). */
  output?: NodeJS.WritableStream | undefined;
  /** Shown before the question: the URL to open and what to copy back (default: written to `output`). */
  onInstructions?: ((text: string) => void) | undefined;
}

/**
 * A user step for a machine with no browser: shows the URL to open elsewhere, then reads the
 * address that browser was sent back to (the page itself fails to load: nothing listens there),
 * or its query, or the bare code (then the state is the request's: the user copied it from their
 * own browser). An {@link OAuthError} (step `authorization`) when nothing is pasted or the input
 * ends first, or when the pasted address carries the server's refusal.
 */
export function pasteBackAuthorize(options: PasteBackOptions): Authorize {
  const output = options.output ?? process.stderr;
  const show = options.onInstructions ?? ((text: string) => void output.write(`${text}\n`));
  return async (request) => {
    show(
      `To authorize "${options.name}", open this URL in a browser on any machine:\n\n  ${request.url.href}\n\nAfter signing in, the browser goes to ${request.redirectUri}… (the page will not load). Copy that whole address from the address bar.`,
    );
    const rl = createInterface({ input: options.input ?? process.stdin, output, terminal: false });
    let line: string;
    try {
      const answer = rl.question("Paste it here (or only the code) and press Enter: ");
      // The input ending before a line: nothing was pasted.
      const ended = new Promise<never>((_resolve, reject) =>
        rl.once("close", () => reject(new OAuthError("authorization", "no address was pasted (stdin ended)"))),
      );
      ended.catch(() => undefined); // closing after the answer is no error
      line = (await Promise.race([answer, ended])).trim();
    } finally {
      rl.close();
    }
    if (/^https?:\/\//i.test(line)) return authorizationResponseOf(new URL(line));
    if (line.includes("code="))
      return authorizationResponseOf(new URL(`${request.redirectUri.split("?")[0]!}?${line.replace(/^.*\?/, "")}`));
    if (line === "") throw new OAuthError("authorization", "no address was pasted");
    return { code: line, state: request.state };
  };
}
