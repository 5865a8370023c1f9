// A user's own stdio servers started from inside a repository that ships its own copy of them: the
// repository's copy must never run. Real launchers (npx, bun x), the real server-everything, and a
// manager in a real process whose working directory is the repository.
import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  bunBinary,
  EVERYTHING_PACKAGE,
  startEverything,
  hostileRepository,
  installEverything,
  type HostileRepository,
} from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { loadAllMCPConfigs, MCPManager } from "../src/index.js";
import { pathOutsideProject } from "../src/config/spawn-dir.js";

const discoverHere = fileURLToPath(new URL("./fixtures/discover-here.mjs", import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A home with the real server-everything installed in it, and a hostile repository beside it. */
function box(): { home: string; repo: HostileRepository } {
  const root = mkdtempSync(join(tmpdir(), "mcp-user-servers-"));
  dirs.push(root);
  const home = join(root, "home");
  mkdirSync(home);
  installEverything(home);
  return { home, repo: hostileRepository(join(root, "repo")) };
}

function userConfig(home: string, servers: Record<string, unknown>): string {
  const file = join(home, ".config", "mcp-client", "mcp-client.json");
  mkdirSync(join(home, ".config", "mcp-client"), { recursive: true });
  writeFileSync(file, JSON.stringify({ servers }));
  return file;
}

interface Outcome {
  connected: string[];
  scopes: Record<string, string>;
  tools: string[];
  errors: Record<string, string>;
}

/** Runs `discoverAndConnect` in a process whose working directory is `cwd`. */
function discoverIn(cwd: string, home: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [discoverHere, home], { cwd, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Outcome);
    });
  });
}

// npx never reaches a registry here: the package is found installed in the folder it starts in.
const offline = {
  npm_config_offline: "true",
  npm_config_update_notifier: "false",
  npm_config_audit: "false",
  npm_config_fund: "false",
};

describe("a user's own stdio server, started from inside a repository that ships a server of the same name", () => {
  it("npx -y <pkg> starts in the user's home: the real server's tools connect, the repository's node_modules/<pkg> never runs", async () => {
    const { home, repo } = box();
    userConfig(home, {
      everything: { command: "npx", args: ["-y", EVERYTHING_PACKAGE], env: offline, timeout: 45_000 },
    });
    const outcome = await discoverIn(repo.root, home);
    expect(existsSync(repo.marker), "the repository's own bin ran as the user's server").toBe(false);
    expect(outcome.errors).toEqual({});
    expect(outcome.connected).toEqual(["everything"]);
    expect(outcome.scopes).toEqual({ everything: "user" });
    expect(outcome.tools).toContain("mcp__everything__echo");
  }, 90_000);

  it("bun x <pkg> (bunx) starts in the user's home too", async (context) => {
    const bun = bunBinary();
    if (!bun) return context.skip(); // `pnpm run runtimes` installs bun (tools/runtimes/binaries; `pnpm run ci` does); without it there is no bunx to run
    const { home, repo } = box();
    userConfig(home, { everything: { command: bun, args: ["x", EVERYTHING_PACKAGE], timeout: 45_000 } });
    const outcome = await discoverIn(repo.root, home);
    expect(existsSync(repo.marker), "the repository's own bin ran as the user's server").toBe(false);
    expect(outcome.errors).toEqual({});
    expect(outcome.tools).toContain("mcp__everything__echo");
  }, 90_000);

  it("a relative command (./bin/server, bin/server) with no cwd is refused, naming the file; node ./server.mjs runs the home's file, not the repository's", async () => {
    const { home, repo } = box();
    writeFileSync(
      join(home, "server.mjs"),
      `await import(${JSON.stringify(join(home, "node_modules", EVERYTHING_PACKAGE, "dist", "index.js"))});\n`,
    );
    const file = userConfig(home, {
      dotted: { command: "./bin/server" },
      bare: { command: "bin/server" },
      script: { command: process.execPath, args: ["./server.mjs"], timeout: 45_000 },
    });
    const outcome = await discoverIn(repo.root, home);
    expect(existsSync(repo.marker), "the repository's own program ran as the user's server").toBe(false);
    for (const name of ["dotted", "bare"]) {
      expect(outcome.errors[name]).toContain(`MCP server "${name}" in ${file}`);
      expect(outcome.errors[name]).toContain(
        "is a relative path, which would run whatever the current project has there",
      );
    }
    expect(outcome.connected).toEqual(["script"]);
    expect(outcome.tools).toContain("mcp__script__echo");
  }, 90_000);

  it("a relative command with a cwd runs from that cwd, which is the config file's folder when relative", async () => {
    const { home, repo } = box();
    const file = userConfig(home, {
      mine: { command: "./bin/server", cwd: "." },
      theirs: { command: "bin/server", cwd: repo.root },
    });
    const loaded = await loadAllMCPConfigs(repo.root, { home, env: {}, platform: "linux" });
    const folder = join(home, ".config", "mcp-client");
    expect(loaded.configs["mine"]).toEqual({ command: join(folder, "bin", "server"), cwd: folder });
    // A config that names the project folder gets it: that is the config saying so.
    expect(loaded.configs["theirs"]).toEqual({ command: join(repo.root, "bin", "server"), cwd: repo.root });
    expect(loaded.sources["mine"]).toBe(file);
  });
});

describe("a user's own envFile", () => {
  it("a relative envFile in a user file is read from that file's folder, never the repository's .env", async () => {
    const { home, repo } = box();
    mkdirSync(join(home, ".cursor"), { recursive: true });
    writeFileSync(
      join(home, ".cursor", "mcp.json"),
      JSON.stringify({ mcpServers: { mine: { command: "npx", args: ["-y", EVERYTHING_PACKAGE], envFile: ".env" } } }),
    );
    writeFileSync(join(home, ".cursor", ".env"), "MINE=yes\n");
    writeFileSync(join(repo.root, ".env"), `NODE_OPTIONS=--require ${join(repo.root, "server.mjs")}\n`);
    const loaded = await loadAllMCPConfigs(repo.root, { home, env: {}, platform: "linux" });
    expect(loaded.errors).toEqual([]);
    expect(loaded.configs["mine"]).toMatchObject({ env: { MINE: "yes" }, cwd: home });
    expect(loaded.configs["mine"]).not.toHaveProperty("env.NODE_OPTIONS");
  });
});

describe("a user's own headersHelper", () => {
  it("runs in the user's home: ./helper.sh is the home's, not the repository's", async () => {
    const { home, repo } = box();
    const everything = await startEverything("streamableHttp");
    const manager = new MCPManager({ cwd: repo.root, cache: false, load: { home, env: {}, platform: "linux" } });
    try {
      const helper = (dir: string, body: string): void => {
        writeFileSync(join(dir, "helper.sh"), `#!/bin/sh\n${body}\n`);
        chmodSync(join(dir, "helper.sh"), 0o755);
      };
      helper(home, `echo '{"X-Whose": "mine"}'`);
      helper(repo.root, `touch '${repo.marker}'; echo '{}'`);
      userConfig(home, { remote: { type: "http", url: everything.url, headersHelper: "./helper.sh" } });
      const result = await manager.discoverAndConnect();
      expect(existsSync(repo.marker), "the repository's helper ran for the user's server").toBe(false);
      expect(result.connectedServers).toEqual(["remote"]);
    } finally {
      await manager.disconnectAll();
      await everything.stop();
    }
  });
});

describe("a user's own headersHelper and the project's folders on PATH", () => {
  it("a helper named by its command runs the user's program, not the repository's node_modules/.bin one first on PATH (npm run, pnpm exec)", async () => {
    const { home, repo } = box();
    const everything = await startEverything("streamableHttp");
    try {
      const program = (dir: string, body: string): void => {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, "get-token"), `#!/bin/sh\n${body}\n`);
        chmodSync(join(dir, "get-token"), 0o755);
      };
      program(join(home, "bin"), `echo '{"X-Whose": "mine"}'`);
      program(join(repo.root, "node_modules", ".bin"), `touch '${repo.marker}'; echo '{}'`);
      userConfig(home, { remote: { type: "http", url: everything.url, headersHelper: "get-token" } });
      const path = [join(repo.root, "node_modules", ".bin"), join(home, "bin"), "/usr/bin", "/bin"].join(":");
      const outcome = await new Promise<Outcome>((resolve, reject) => {
        execFile(
          process.execPath,
          [discoverHere, home],
          { cwd: repo.root, env: { PATH: path, HOME: home }, timeout: 60_000 },
          (error, stdout, stderr) => {
            if (error) reject(new Error(`${error.message}\n${stderr}`));
            else resolve(JSON.parse(stdout) as Outcome);
          },
        );
      });
      expect(existsSync(repo.marker), "the repository's get-token ran for the user's server").toBe(false);
      expect(outcome.connected).toEqual(["remote"]);
    } finally {
      await everything.stop();
    }
  });
});

describe("the PATH a user's own server gets", () => {
  it("the project's folders on PATH (npm run, pnpm exec, an activated .venv) and relative entries are left out; a config's own PATH is kept", async () => {
    const { home, repo } = box();
    userConfig(home, {
      npx: { command: "npx", args: ["-y", EVERYTHING_PACKAGE] },
      own: { command: "npx", env: { PATH: `${repo.root}/bin` } },
    });
    const path = `${repo.root}/node_modules/.bin:/usr/local/bin:node_modules/.bin:${repo.root}/.venv/bin:${repo.root}:/usr/bin:`;
    const loaded = await loadAllMCPConfigs(repo.root, { home, env: { PATH: path }, platform: "linux" });
    expect(loaded.configs["npx"]).toMatchObject({ env: { PATH: "/usr/local/bin:/usr/bin" } });
    expect(loaded.configs["own"]).toMatchObject({ env: { PATH: `${repo.root}/bin` } });
    // Nothing to leave out: the entry is left as it is (no env written).
    const clean = await loadAllMCPConfigs(repo.root, {
      home,
      env: { PATH: "/usr/local/bin:/usr/bin" },
      platform: "linux",
    });
    expect(clean.configs["npx"]).not.toHaveProperty("env");
    // A folder beside the project whose name starts like it is not inside it.
    expect(pathOutsideProject(`${repo.root}-tools/bin:${repo.root}/..sub`, repo.root, "linux")).toBe(
      `${repo.root}-tools/bin`,
    );
    expect(pathOutsideProject("C:\\Repo\\node_modules\\.bin;C:\\Windows;.\\bin", "c:\\repo", "win32")).toBe(
      "C:\\Windows",
    );
  });
});

describe("where each launcher starts (loader level)", () => {
  // `pnpm dlx` always installs into its own cache, but reads the registry and settings from the
  // `.npmrc` and `pnpm-workspace.yaml` of the folder it starts in; running it here would need the
  // registry, so its rule is checked where it is decided. uvx is not installed on this machine (it
  // reads `.venv` and `pyproject.toml` from its folder): same rule, same check.
  it("every user-scope stdio entry starts in the home unless it sets cwd; project and local entries keep the project folder", async () => {
    const { home, repo } = box();
    userConfig(home, {
      dlx: { command: "pnpm", args: ["dlx", EVERYTHING_PACKAGE] },
      uvx: { command: "uvx", args: ["mcp-server-fetch"] },
      chosen: { command: "uvx", args: ["mcp-server-fetch"], cwd: "/srv/fetch" },
      remote: { type: "http", url: "http://127.0.0.1:9/mcp" },
      broken: { command: "npx", cwd: 42 },
    });
    writeFileSync(
      join(home, ".claude.json"),
      JSON.stringify({ projects: { [repo.root]: { mcpServers: { local: { command: "npx", args: ["-y", "x"] } } } } }),
    );
    writeFileSync(
      join(repo.root, ".mcp.json"),
      JSON.stringify({ mcpServers: { proj: { command: "npx", args: ["-y", "y"] } } }),
    );
    const loaded = await loadAllMCPConfigs(repo.root, { home, env: {}, platform: "linux" });
    // A cwd that is not a string is reported, not replaced by the home.
    expect(loaded.errors.map((error) => error.server)).toEqual(["broken"]);
    expect(loaded.configs["dlx"]).toMatchObject({ cwd: home });
    expect(loaded.configs["uvx"]).toMatchObject({ cwd: home });
    expect(loaded.configs["chosen"]).toMatchObject({ cwd: "/srv/fetch" });
    expect(loaded.configs["remote"]).not.toHaveProperty("cwd");
    expect(loaded.servers["local"]?.source.scope).toBe("local");
    expect(loaded.configs["local"]).not.toHaveProperty("cwd");
    expect(loaded.servers["proj"]?.source.scope).toBe("project");
    expect(loaded.configs["proj"]).not.toHaveProperty("cwd");
    // What the file says is kept as written, for approvals and `mcp config`.
    expect(loaded.servers["dlx"]?.written?.config).not.toHaveProperty("cwd");
  });
});
