// ownEntry (an entry of our own file from `mcp config add`'s flags) and clearSecrets (what in it
// looks like a secret written in the clear). Moved from the CLI; its e2e tests stay in apps/cli.
import { describe, expect, it } from "vitest";
import { serverConfigProblems } from "@mcp/client";
import { clearSecrets, ownEntry } from "../src/index.js";

describe("ownEntry", () => {
  it("splits a stdio command line as a shell would; leaves out empty args, env and headers", () => {
    expect(ownEntry({ stdio: `node "my server.js" --flag 'a b'`, env: { A: "1" } })).toEqual({
      command: "node",
      args: ["my server.js", "--flag", "a b"],
      env: { A: "1" },
    });
    expect(ownEntry({ stdio: "server" })).toEqual({ command: "server" });
    // Key order is what the file gets.
    expect(Object.keys(ownEntry({ stdio: "node x", env: { A: "1" } }))).toEqual(["command", "args", "env"]);
  });

  it("an http or sse URL with its headers; what is wrong is serverConfigProblems' to say", () => {
    expect(ownEntry({ http: "https://example.com/mcp", headers: { X: "1" } })).toEqual({
      type: "http",
      url: "https://example.com/mcp",
      headers: { X: "1" },
    });
    expect(ownEntry({ sse: "https://example.com/sse" })).toEqual({ type: "sse", url: "https://example.com/sse" });
    expect(serverConfigProblems(ownEntry({ http: "ftp://example.com" })).length).toBeGreaterThan(0);
  });
});

describe("clearSecrets", () => {
  it("headers and credential-named variables holding a token, headers first; references and plain values are not", () => {
    const token = "ghp_abcdefghijklmnop1234567890";
    expect(
      clearSecrets({
        command: "x",
        env: { GITHUB_TOKEN: token, LOG_LEVEL: "debug", API_KEY: "${API_KEY}", PATH_LIKE: token },
      }),
    ).toEqual([{ kind: "env", key: "GITHUB_TOKEN", value: token }]);
    expect(
      clearSecrets({
        type: "http",
        url: "https://example.com/mcp",
        headers: { Authorization: `Bearer ${token}`, "X-Ref": "Bearer ${TOKEN}", Accept: "json" },
      }),
    ).toEqual([{ kind: "header", key: "Authorization", value: `Bearer ${token}` }]);
  });
});
