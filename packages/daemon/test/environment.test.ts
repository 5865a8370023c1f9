// A call written as the calling shell runs it, and the daemon's check that it can run it so.
import { describe, expect, it } from "vitest";
import { asThisShellRuns } from "../src/index.js";
import { whyNotHere } from "../src/environment.js";

const shell = { PATH: "/shell/bin", HOME: "/home/me", TERM: "xterm-kitty", TMUX_PANE: "%3", SECRET: "s" };

describe("asThisShellRuns", () => {
  it("gives a stdio server the shell's folder and its safe environment, less what only describes the terminal", () => {
    const { configs, environment } = asThisShellRuns(
      { local: { command: "node", args: ["x.mjs"] } },
      "/project",
      shell,
    );
    const local = configs["local"] as { cwd: string; parentEnv: Record<string, string> };
    expect(local.cwd).toBe("/project");
    expect(local.parentEnv["PATH"]).toBe("/shell/bin");
    expect(local.parentEnv).not.toHaveProperty("TERM");
    expect(local.parentEnv).not.toHaveProperty("TMUX_PANE");
    expect(local.parentEnv).not.toHaveProperty("SECRET"); // not in the safe base without inheritEnv
    expect(environment).toEqual({ HOME: "/home/me" });
  });

  it("with inheritEnv the whole environment, still less the terminal's; a relative cwd from the shell's folder", () => {
    const { configs } = asThisShellRuns(
      { local: { command: "node", cwd: "sub", inheritEnv: true } },
      "/project",
      shell,
    );
    const local = configs["local"] as { cwd: string; parentEnv: Record<string, string> };
    expect(local.cwd).toBe("/project/sub");
    expect(local.parentEnv["SECRET"]).toBe("s");
    expect(local.parentEnv).not.toHaveProperty("TERM");
  });

  it("an HTTP server: proxy false when the shell sets none, its CA file made absolute; the shell's proxy sent when set", () => {
    const http = { url: "https://example.test/mcp", ca: "certs/ca.pem" } as never;
    expect(asThisShellRuns({ remote: http }, "/project", shell).configs["remote"]).toMatchObject({
      proxy: false,
      ca: "/project/certs/ca.pem",
    });
    const proxied = asThisShellRuns({ remote: http }, "/project", { ...shell, HTTPS_PROXY: "http://proxy:3128" });
    expect(proxied.configs["remote"]).not.toHaveProperty("proxy");
    expect(proxied.environment).toMatchObject({ HTTPS_PROXY: "http://proxy:3128" });
  });
});

describe("whyNotHere", () => {
  const remote = { remote: { type: "http" as const, url: "https://example.test/mcp" } };

  it("runs a call whose HTTP servers the daemon reaches as the shell would, and any stdio server", () => {
    expect(whyNotHere(remote, ["remote"], { HOME: "/home/me" }, { HOME: "/home/me" })).toBeUndefined();
    expect(whyNotHere({ local: { command: "node" } }, ["local"], {}, { NODE_OPTIONS: "--x" })).toBeUndefined();
  });

  it("declines, naming the variables (never their values) and the servers, when the daemon's differ", () => {
    const why = whyNotHere(remote, ["remote"], { HTTPS_PROXY: "http://user:pw@proxy:3128" }, {});
    expect(why).toContain('the daemon was started with other HTTPS_PROXY than this shell\'s, and would reach "remote"');
    expect(why).not.toContain("pw");
  });

  it("declines a headersHelper, which runs with the shell's whole environment; a server the call cannot start is not looked at", () => {
    const helped = { remote: { url: "https://example.test/mcp", headersHelper: "get-token" } as never };
    expect(whyNotHere(helped, ["remote"], {}, {})).toContain("gets its headers from a headersHelper");
    expect(whyNotHere(helped, [], {}, {})).toBeUndefined();
  });
});
