// The no-browser user step: the URL shown, then the address pasted back (whole, its query, or the
// bare code) read from a stream; nothing pasted is an OAuthError saying so.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { OAuthError, pasteBackAuthorize } from "../src/index.js";

const request = {
  url: new URL("https://auth.example/authorize?client_id=c"),
  redirectUri: "http://127.0.0.1:33418/callback",
  state: "st4te",
};

/** Runs the step with `pasted` written to its input (then the input ends), and what it showed. */
async function paste(pasted: string): Promise<{ result: unknown; shown: string[] }> {
  const input = new PassThrough();
  const output = new PassThrough();
  const shown: string[] = [];
  const step = pasteBackAuthorize({ name: "srv", input, output, onInstructions: (text) => shown.push(text) });
  const result = step(request).catch((error: unknown) => error);
  input.end(pasted);
  return { result: await result, shown };
}

describe("pasteBackAuthorize", () => {
  it("shows the URL, and takes the whole address pasted back", async () => {
    const { result, shown } = await paste("http://127.0.0.1:33418/callback?code=abc&state=st4te\n");
    expect(result).toEqual({ code: "abc", state: "st4te", iss: undefined });
    expect(shown[0]).toContain('To authorize "srv", open this URL in a browser on any machine:');
    expect(shown[0]).toContain("https://auth.example/authorize?client_id=c");
  });

  it("takes its query alone, or the bare code with the request's state", async () => {
    expect((await paste("?code=q1&state=s2\n")).result).toEqual({ code: "q1", state: "s2", iss: undefined });
    expect((await paste("  bare-code \n")).result).toEqual({ code: "bare-code", state: "st4te" });
  });

  it("an address carrying the server's refusal, an empty line or an input that ends is an OAuthError", async () => {
    const refused = (await paste("http://127.0.0.1:33418/callback?error=access_denied\n")).result;
    expect(OAuthError.isInstance(refused) && refused.message).toBe("The authorization server refused: access_denied");
    const empty = (await paste("\n")).result;
    expect(OAuthError.isInstance(empty) && empty.message).toBe("no address was pasted");
    const ended = (await paste("")).result;
    expect(OAuthError.isInstance(ended) && ended.message).toBe("no address was pasted (stdin ended)");
  });
});
