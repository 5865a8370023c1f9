// `mcp serve` as a real subprocess behind the official SDK clients (1.x and v2), with
// server-everything and the SDK v2 fixture behind it.
import { spawn, type ChildProcess } from "node:child_process";
import { everythingEntry, v2StdioEntry } from "mcp-test-utils";
import { join } from "node:path";
import { bin, fixture, sandbox, startListening, userConfig, type Sandbox } from "./helpers.js";

/**
 * A sandbox whose config has server-everything (`everything`), the SDK v2 fixture (`v2`) and the
 * CLI's fixture (`fixture`, whose `wait` writes "cancelled" to `<home>/cancelled.txt` when it is
 * cancelled), all over stdio.
 */
export function gatewayBox(): Sandbox {
  const box = sandbox();
  userConfig(box, {
    everything: { command: process.execPath, args: [everythingEntry, "stdio"] },
    v2: { command: process.execPath, args: [v2StdioEntry, "serve"] },
    fixture: { command: process.execPath, args: [fixture], env: { CANCEL_MARKER: cancelMarker(box) } },
  });
  return box;
}

/** Where the CLI fixture of a gateway box notes a cancelled `wait`. */
export function cancelMarker(box: Sandbox): string {
  return join(box.home, "cancelled.txt");
}

/** The stdio command line of `mcp serve --stdio` in the sandbox. */
export function stdioParams(
  box: Sandbox,
  extra: string[] = [],
): { command: string; args: string[]; cwd: string; env: Record<string, string>; stderr: "pipe" } {
  return {
    command: process.execPath,
    args: [bin, "serve", "--stdio", ...extra],
    cwd: box.project,
    env: box.env,
    stderr: "pipe",
  };
}

export interface HttpServe {
  url: string;
  token: string;
  child: ChildProcess;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** Starts `mcp serve --http --json` in the sandbox and waits for its URL. */
export async function startHttpServe(
  box: Sandbox,
  extra: string[] = [],
  env: Record<string, string> = {},
): Promise<HttpServe> {
  const { line, child, stderr, stop } = await startListening(box, ["serve", "--http", ...extra], env, "mcp serve");
  return {
    url: line["url"] as string,
    token: (line["token"] as string | undefined) ?? env["MCP_SERVE_TOKEN"] ?? "",
    child,
    stderr,
    stop,
  };
}

/** The pids of a process's children. */
export async function childrenOf(pid: number): Promise<number[]> {
  const out = await new Promise<string>((resolve) => {
    const ps = spawn("pgrep", ["-P", String(pid)], { stdio: ["ignore", "pipe", "ignore"] });
    let text = "";
    ps.stdout.on("data", (c: Buffer) => (text += c.toString()));
    ps.once("exit", () => resolve(text));
  });
  return out.split("\n").filter(Boolean).map(Number);
}

/** The command line of a process. */
export async function commandOf(pid: number): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  return (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).replace(/\0/g, " ");
}

/**
 * Records the method of each message `transport` delivers to its client. Set before `connect`: the
 * official SDKs (1.x and v2) call a handler already on the transport before their own.
 */
export function methodsSeen(transport: object): string[] {
  const seen: string[] = [];
  (transport as { onmessage?: (message: object) => void }).onmessage = (message) => {
    if ("method" in message && typeof message.method === "string") seen.push(message.method);
  };
  return seen;
}

/**
 * A fetch for 2025 SDK clients' transports that records the sessions whose GET stream the server
 * opened. The gateway registers a GET stream before it answers it, so once a session is counted,
 * what the server sends that session reaches the caller.
 */
export function getStreams(): {
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  opened: () => number;
} {
  const sessions = new Set<string>();
  return {
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      if (init?.method === "GET" && response.ok) sessions.add(new Headers(init.headers).get("mcp-session-id") ?? "");
      return response;
    },
    opened: () => sessions.size,
  };
}
