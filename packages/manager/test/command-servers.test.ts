// The servers a command means: those a command line gives (`--stdio`, `--http`, `--sse` with
// `--header`s; then no file is read), else those its config files define; and every name a person
// may mean among them. Each wrong value is an InvalidConfigError naming the option.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidConfigError } from "@mcp/client";
import { commandLineServers, findServers, headersOf, serverNamesOf } from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "mcp-command-servers-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The InvalidConfigError `run` throws: its message and field. */
function refusal(run: () => unknown): { message: string; field: string | undefined } {
  try {
    run();
  } catch (error) {
    expect(InvalidConfigError.isInstance(error)).toBe(true);
    return { message: (error as InvalidConfigError).message, field: (error as InvalidConfigError).field };
  }
  throw new Error("nothing was thrown");
}

describe("commandLineServers", () => {
  it("none given: undefined", () => {
    expect(commandLineServers({})).toBeUndefined();
    expect(commandLineServers({ stdio: "", http: "" })).toBeUndefined();
  });

  it("a stdio command line split as a shell splits it, nothing expanded; HTTP and SSE servers with the headers", () => {
    expect(
      commandLineServers({
        stdio: `npx -y server --name 'my server' "$HOME"`,
        http: "http://127.0.0.1:1/mcp",
        sse: "http://127.0.0.1:2/sse",
        header: ["Authorization=Bearer ${TOKEN}", "X-Trace: on"],
      }),
    ).toEqual({
      stdio: { command: "npx", args: ["-y", "server", "--name", "my server", "$HOME"] },
      http: {
        type: "http",
        url: "http://127.0.0.1:1/mcp",
        headers: { Authorization: "Bearer ${TOKEN}", "X-Trace": "on" },
      },
      sse: {
        type: "sse",
        url: "http://127.0.0.1:2/sse",
        headers: { Authorization: "Bearer ${TOKEN}", "X-Trace": "on" },
      },
    });
  });

  it("refuses a command line with an open quote or no command, and headers with no HTTP server", () => {
    const open = refusal(() => commandLineServers({ stdio: "npx 'server" }));
    expect(open.field).toBe("stdio");
    expect(open.message).toMatch(/^--stdio: .*quote/);
    expect(refusal(() => commandLineServers({ stdio: "''" }))).toEqual({
      message: '--stdio needs a command line, e.g. --stdio "npx -y @modelcontextprotocol/server-everything"',
      field: "stdio",
    });
    expect(refusal(() => commandLineServers({ stdio: "server", header: ["A=b"] }))).toEqual({
      message:
        "--header is for an ad-hoc HTTP server: give it with --http <url> or --sse <url> (a configured server's headers are in its config)",
      field: "header",
    });
  });
});

describe("headersOf", () => {
  it("NAME=VALUE or Name: value, trimmed; none: undefined", () => {
    expect(headersOf(undefined)).toBeUndefined();
    expect(headersOf([])).toBeUndefined();
    expect(headersOf([" A = 1 ", "B: x=y"])).toEqual({ A: "1", B: "x=y" });
  });

  it("quotes a value that is not a header, saying how the option is written", () => {
    expect(refusal(() => headersOf(["no separator"]))).toEqual({
      message: `--header takes NAME=VALUE (e.g. --header 'Authorization=Bearer \${TOKEN}'), got "no separator"`,
      field: "header",
    });
    expect(refusal(() => headersOf(["=x"], "--registry-header"))).toEqual({
      message: `--registry-header takes NAME=VALUE (e.g. --registry-header 'Authorization=Bearer \${TOKEN}'), got "=x"`,
      field: "registry-header",
    });
  });
});

describe("findServers", () => {
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(join(home, ".cursor"), { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(home, ".cursor", "mcp.json"),
    JSON.stringify({ mcpServers: { cursor: { command: "cursor-server" }, broken: { command: 42 } } }),
  );
  const file = join(root, "only.json");
  writeFileSync(file, JSON.stringify({ mcpServers: { only: { command: "only-server" } } }));

  it("the command line's servers: no file is read", async () => {
    const found = await findServers(project, { home, stdio: "server" });
    expect(found.given).toEqual({ stdio: { command: "server", args: [] } });
    expect(found.loaded).toEqual({ configs: {}, sources: {}, servers: {}, shadowed: [], errors: [] });
  });

  it("else every host's files under home, or the files given alone", async () => {
    const everyHost = await findServers(project, { home });
    expect(everyHost.given).toBeUndefined();
    expect(Object.keys(everyHost.loaded.configs)).toEqual(["cursor"]);
    expect(everyHost.loaded.errors.map((e) => e.server)).toEqual(["broken"]);
    const alone = await findServers(project, { home, files: [file] });
    expect(Object.keys(alone.loaded.configs)).toEqual(["only"]);
    expect(alone.loaded.errors).toEqual([]);
  });

  it("names every server a person may mean, once: valid, skipped, invalid", async () => {
    const { loaded } = await findServers(project, { home });
    expect(serverNamesOf({ configs: loaded.configs, servers: loaded.servers, configErrors: loaded.errors })).toEqual([
      "cursor",
      "broken",
    ]);
    expect(
      serverNamesOf({ configs: { a: {} }, skipped: ["b", "a"], servers: {}, configErrors: [{ server: "c" } as never] }),
    ).toEqual(["a", "b", "c"]);
  });
});
