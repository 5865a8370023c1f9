// `mcp auth --no-browser`: the user step of a machine with no browser (a printed URL, the redirect address pasted back).
import { createInterface } from "node:readline/promises";
import { authorizationResponseOf, type Authorize } from "@mcp/oauth";
import { CliError, EXIT, note } from "./ui.js";

/**
 * The user step of a machine with no browser: prints the URL to open elsewhere, then reads the
 * address that browser was sent back to (the page itself fails to load: nothing listens there),
 * or just its code, pasted on stdin.
 */
export function pasteBackAuthorize(name: string): Authorize {
  return async (request) => {
    note(
      `To authorize "${name}", open this URL in a browser on any machine:\n\n  ${request.url.href}\n\nAfter signing in, the browser goes to ${request.redirectUri}… (the page will not load). Copy that whole address from the address bar.`,
    );
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
    let line: string;
    try {
      const answer = rl.question("Paste it here (or only the code) and press Enter: ");
      // stdin ending before a line: nothing was pasted.
      const ended = new Promise<never>((_resolve, reject) =>
        rl.once("close", () => reject(new CliError("no address was pasted (stdin ended)", EXIT.failure))),
      );
      ended.catch(() => undefined); // closing after the answer is no error
      line = (await Promise.race([answer, ended])).trim();
    } finally {
      rl.close();
    }
    if (/^https?:\/\//i.test(line)) return authorizationResponseOf(new URL(line));
    if (line.includes("code="))
      return authorizationResponseOf(new URL(`${request.redirectUri.split("?")[0]!}?${line.replace(/^.*\?/, "")}`));
    if (line === "") throw new CliError("no address was pasted", EXIT.failure);
    // A bare code: the state cannot be checked, the user copied it from their own browser.
    return { code: line, state: request.state };
  };
}
