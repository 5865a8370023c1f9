// What a project server will run, for the person who approves it (describeServer): as its file
// writes it, the user's variables named and never expanded, literal secrets masked, variables that
// run code or decide the network's security shown whole, untrusted text escaped.
import { describe, expect, it } from "vitest";
import { commandLine, describeServer, printable, shownWhole, type ShownServer } from "../src/index.js";

describe("printable and commandLine", () => {
  it("escapes controls, invisible and reordering characters; quotes words as a POSIX shell needs them", () => {
    expect(printable("a\u001b]0;owned\u0007b")).toBe("a\\u{001b}]0;owned\\u{0007}b");
    expect(printable("left\u202Eright\u200Bx\uFEFF\n")).toBe("left\\u{202e}right\\u{200b}x\\u{feff}\\u{000a}");
    expect(printable("plain — ünïcode")).toBe("plain — ünïcode");
    expect(commandLine("node", ["server.js", "--token=${ARG_TOKEN}", "sh -c 'a; b'", ""])).toBe(
      `node server.js '--token=\${ARG_TOKEN}' 'sh -c '\\''a; b'\\''' ''`,
    );
    expect(commandLine("mcp", ["config", "approve", "x\u001b[2J"])).toBe("mcp config approve 'x\\u{001b}[2J'");
  });

  it("shows whole what runs code or decides security, even when its name looks like a credential's", () => {
    for (const name of [
      "NODE_OPTIONS",
      "LD_PRELOAD",
      "DYLD_INSERT_LIBRARIES",
      "NODE_TLS_REJECT_UNAUTHORIZED",
      "HTTPS_PROXY",
      "PLAIN",
    ])
      expect(shownWhole(name), name).toBe(true);
    for (const name of ["GITHUB_TOKEN", "API_KEY", "DB_PASSWORD"]) expect(shownWhole(name), name).toBe(false);
  });
});

describe("describeServer", () => {
  it("a stdio server as its file writes it: the user's variables named, never their values; literal secrets masked", () => {
    const server: ShownServer = {
      config: {
        command: "node",
        args: ["server.js", "--token=the-users-arg-token-4711"],
        cwd: "/repo",
        env: { GITHUB_TOKEN: "the-users-own-token-0815", API_KEY: "literal-key", NODE_OPTIONS: "--require ./x.js" },
      },
      written: {
        config: {
          command: "node",
          args: ["server.js", "--token=${ARG_TOKEN}"],
          cwd: "${workspaceFolder}",
          env: { GITHUB_TOKEN: "${GITHUB_TOKEN}", API_KEY: "literal-key", NODE_OPTIONS: "--require ./x.js" },
        },
      },
    };
    const { runs, details } = describeServer(server);
    expect(runs).toBe("node server.js '--token=${ARG_TOKEN}'");
    expect(details).toEqual([
      ["uses your", "ARG_TOKEN, GITHUB_TOKEN"],
      ["cwd", "${workspaceFolder}"],
      ["env", "GITHUB_TOKEN=${GITHUB_TOKEN}"],
      ["env", "API_KEY=[redacted]"],
      ["env", "NODE_OPTIONS=--require ./x.js"],
    ]);
    expect(JSON.stringify(details)).not.toContain("the-users");
  });

  it("an HTTP server: its URL's password and token-like query values hidden, headers masked unless a reference, helpers and proxy said", () => {
    const loaded: ShownServer = {
      config: {
        type: "http",
        url: "https://user:hunter2@api.example.com/mcp?api_key=abc123&plain=1",
        headers: { Authorization: "Bearer literal-token", "X-Tenant": "acme\u001b[8m" },
        headersHelper: "get-token.sh",
        proxy: false,
      } as ShownServer["config"],
    };
    const { runs, details } = describeServer(loaded);
    expect(runs).toMatch(/^http https:\/\/user:\[redacted\]@api\.example\.com\/mcp\?api_key=\[redacted\]&plain=1$/);
    expect(details).toEqual([
      ["header", "Authorization: [redacted]"],
      ["header", "X-Tenant: acme\\u{001b}[8m"],
      ["headersHelper", "get-token.sh"],
      ["headersHelper", "(a shell command: it runs with your whole environment)"],
      ["proxy", "none"],
    ]);
    const written = describeServer({
      config: { type: "http", url: "https://api.example.com/mcp", headers: { Authorization: "Bearer secret" } },
      written: { config: { type: "http", url: "${MCP_URL}", headers: { Authorization: "Bearer ${GW_TOKEN}" } } },
    });
    expect(written.runs).toBe("http ${MCP_URL}");
    expect(written.details).toEqual([
      ["uses your", "MCP_URL, GW_TOKEN"],
      ["header", "Authorization: Bearer ${GW_TOKEN}"],
    ]);
  });
});
