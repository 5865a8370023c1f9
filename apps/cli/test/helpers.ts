// Runs the built CLI as a subprocess, in a temporary HOME and project, as a user would.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built CLI; `MCP_CLI_BIN` runs the suite against another build (e.g. an older commit's, to see a test fail there). */
export const bin = process.env["MCP_CLI_BIN"] ?? fileURLToPath(new URL("../dist/bin.js", import.meta.url));
export const fixture = fileURLToPath(new URL("./fixtures/server.mjs", import.meta.url));

export interface Sandbox {
  home: string;
  project: string;
  env: Record<string, string>;
  write(path: string, content: string | object): string;
  remove(): void;
}

/** An empty home and project; `env` points every config and cache folder into the home. */
export function sandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "mcp-cli-"));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env["PATH"] ?? "",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    NO_COLOR: "1",
  };
  return {
    home,
    project,
    env,
    write(path, content) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
      return path;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command line in `cwd` with exactly `env`, no terminal; killed after `timeoutMs` when given. */
export function run(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  timeoutMs?: number,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs `mcp <args>` in the sandbox's project, with no terminal. */
export function mcp(
  box: Sandbox,
  args: string[],
  extraEnv: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<Run> {
  return run([process.execPath, bin, ...args], box.project, { ...box.env, ...extraEnv }, timeoutMs);
}

/** Sandboxes made by `box()`, each removed by `removeAll()` (a test file's `afterAll`). */
export function sandboxes(): { box: () => Sandbox; removeAll: () => void } {
  const made: Sandbox[] = [];
  return {
    box: () => {
      const b = sandbox();
      made.push(b);
      return b;
    },
    removeAll: () => {
      for (const b of made.splice(0)) b.remove();
    },
  };
}

/** Our own user-scope config file in the sandbox. */
export function userConfig(box: Sandbox, servers: Record<string, unknown>): string {
  return box.write(join(box.home, ".config", "mcp-client", "mcp-client.json"), { servers });
}

/** A CLI process that said it listens: the JSON line it printed, parsed. */
export interface Listening {
  line: Record<string, unknown>;
  child: ChildProcess;
  stderr: () => string;
  /** Ends it (SIGTERM) and waits for its exit. */
  stop: () => Promise<void>;
}

/**
 * Starts `mcp --json <args>` in the sandbox and waits for the first JSON line it prints (what
 * `serve --http` and `replay --http` print once they listen). Rejects when it exits first, naming
 * `what` and its stderr, or after 30 s.
 */
export function startListening(
  box: Sandbox,
  args: string[],
  env: Record<string, string> = {},
  what = `mcp ${args[0]}`,
): Promise<Listening> {
  const child = spawn(process.execPath, [bin, "--json", ...args], {
    cwd: box.project,
    env: { ...box.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start: ${stderr}`)), 30_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited ${code}: ${stderr}`));
    });
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split("\n").find((l) => l.startsWith("{"));
      if (!line) return;
      clearTimeout(timer);
      resolve({
        line: JSON.parse(line) as Record<string, unknown>,
        child,
        stderr: () => stderr,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}
