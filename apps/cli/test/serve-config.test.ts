// `mcp serve` with several callers refuses servers whose entries carry credentials of their own
// (the reading of the file and the check itself are @mcp/gateway's: packages/gateway/test/config-file.test.ts).
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { canonicalResource, FileTokenStore } from "@mcp/oauth";
import { mcp, sandboxes, userConfig } from "./helpers.js";

describe("mcp serve: an upstream with credentials of its own, and several callers", () => {
  const { box, removeAll } = sandboxes();
  afterAll(removeAll);

  it("refuses to start, naming the server and the config's fix", async () => {
    const b = box();
    const callers = b.write(join(b.project, "callers.json"), {
      alice: { token: "alice-token-0123456789" },
      bob: { token: "bob-token-0123456789ab" },
    });
    // Nothing listens on port 9: the refusal comes before any server is reached.
    const crm = { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer service" } };
    userConfig(b, { crm });
    const refused = await mcp(b, ["serve", "--http", "--callers", callers]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/"crm" \(header Authorization\) carries credentials of its own/);
    expect(refused.stderr).toContain(`Add "gateway": { "credentials": "shared" } to the entry of "crm" in your config`);
    expect(refused.stdout).toBe("");
  }, 60_000);

  it("counts the operator's own OAuth sign-in (mcp auth login) for a plain HTTP server: every caller would use it", async () => {
    const b = box();
    const callers = b.write(join(b.project, "callers.json"), {
      alice: { token: "alice-token-0123456789" },
      bob: { token: "bob-token-0123456789ab" },
    });
    // A server entry with nothing of its own: no header, no oauth field. The manager signs in to
    // such a server with the user's token store, which `mcp auth login github` filled.
    const url = "http://127.0.0.1:9/mcp";
    userConfig(b, { github: { type: "http", url }, public: { type: "http", url: "http://127.0.0.1:9/other" } });
    await new FileTokenStore(join(b.home, ".config", "mcp-client", "oauth")).set({
      issuer: "http://127.0.0.1:9",
      resource: canonicalResource(url),
      tokens: { accessToken: "the-operator-s-own-token", tokenType: "Bearer", expiresAt: Date.now() + 3_600_000 },
    });
    // Started instead of refusing, it would serve until killed: 40 s is far past any refusal.
    const refused = await mcp(b, ["serve", "--http", "--callers", callers], {}, 40_000);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/"github" \(a stored OAuth sign-in\) carries credentials of its own/);
    expect(refused.stderr).not.toMatch(/"public"/);
    expect(refused.stdout).toBe("");
  }, 60_000);
});
