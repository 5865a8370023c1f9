// A call's params as a client writes them for the servers it resolved (what `mcp call` sends as
// call/2): each server as the calling shell runs it, why each skipped one was skipped, the words;
// and what the daemon's check of the params reads back is what was sent.
import { describe, expect, it } from "vitest";
import { callParamsFor, type ResolvedServers } from "../src/client.js";
import { callParams } from "../src/call.js";

const shell = { PATH: "/shell/bin", HOME: "/home/me", TERM: "xterm", HTTPS_PROXY: "" };
const resolved: ResolvedServers = {
  configs: { local: { command: "node", args: ["x.mjs"] }, remote: { type: "http", url: "http://127.0.0.1:1/mcp" } },
  servers: {},
  configErrors: [],
  skipped: ["repo", "changed"],
  whySkipped: new Map([["changed", "changed since it was approved: env"]]),
  shadowed: [],
  embedded: false,
  cwd: "/project",
};

describe("callParamsFor", () => {
  it("writes each server as the shell runs it, why each skipped one was skipped, and the call", () => {
    const params = callParamsFor(
      resolved,
      { words: ["local.echo", "a=1"], timeout: 500, maxResultChars: undefined },
      shell,
    );
    expect(params.configs["local"]).toMatchObject({
      command: "node",
      cwd: "/project",
      parentEnv: { PATH: "/shell/bin" },
    });
    expect(params.configs["local"]).not.toHaveProperty("parentEnv.TERM");
    // No proxy in the shell: the HTTP server is reached without one, whatever the daemon's own.
    expect(params.configs["remote"]).toMatchObject({ url: "http://127.0.0.1:1/mcp", proxy: false });
    // The shell's values of the variables the daemon's own process would use (an empty proxy included).
    expect(params.environment).toEqual({ HOME: "/home/me", HTTPS_PROXY: "" });
    expect(params.whySkipped).toEqual({ repo: "not approved yet", changed: "changed since it was approved: env" });
    expect(params).toMatchObject({
      words: ["local.echo", "a=1"],
      cwd: "/project",
      timeout: 500,
      skipped: ["repo", "changed"],
    });
  });

  it("what the daemon reads back from the wire is what was sent", () => {
    const params = callParamsFor(resolved, { words: ["echo"] }, shell);
    const wire = JSON.parse(JSON.stringify(params)) as unknown;
    expect(callParams(wire)).toEqual(JSON.parse(JSON.stringify(params)));
  });
});
