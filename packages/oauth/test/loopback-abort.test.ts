// The loopback user step stops waiting when its signal aborts (a host such as the web inspector that
// ends before the user answers): the step rejects with the signal's reason and its listener is gone.
import { createServer } from "node:net";
import { freePort, waitFor } from "mcp-test-utils";
import { describe, expect, it } from "vitest";
import { loopbackAuthorize } from "../src/index.js";

/** Resolves once something may listen on `port` again (nothing holds it). */
const free = (port: number): Promise<void> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
  });

describe("loopbackAuthorize's signal", () => {
  it("rejects with the signal's reason and closes the listener when aborted while waiting", async () => {
    const port = await freePort();
    const controller = new AbortController();
    const urls: string[] = [];
    const waiting = loopbackAuthorize({ port, open: false, onUrl: (url) => urls.push(url), signal: controller.signal })(
      {
        url: new URL("http://127.0.0.1:9/authorize"),
        state: "s",
        redirectUri: `http://127.0.0.1:${port}/callback`,
      },
    );
    await waitFor(() => urls.length === 1);
    // Listening now: the port is taken.
    await expect(free(port)).rejects.toThrow("EADDRINUSE");
    controller.abort(new Error("the inspector closed"));
    await expect(waiting).rejects.toThrow("the inspector closed");
    await free(port);
  });

  it("rejects at once, listening on nothing, when the signal is already aborted", async () => {
    const port = await freePort();
    const urls: string[] = [];
    await expect(
      loopbackAuthorize({
        port,
        open: false,
        onUrl: (url) => urls.push(url),
        signal: AbortSignal.abort(new Error("gone")),
      })({
        url: new URL("http://127.0.0.1:9/authorize"),
        state: "s",
        redirectUri: `http://127.0.0.1:${port}/callback`,
      }),
    ).rejects.toThrow("gone");
    expect(urls).toEqual([]);
    await free(port);
  });
});
