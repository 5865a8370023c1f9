// Starts `mcp inspect --no-open --json` as a user would, in a sandbox, and stops it.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { bin, type Sandbox } from "./helpers.js";

export interface RunningInspector {
  url: string;
  port: number;
  token: string;
  child: ChildProcess;
  stderr: () => string;
  /** The pids of the inspector's own children (the stdio servers). */
  children: () => number[];
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
}

export async function startInspect(box: Sandbox, args: string[] = []): Promise<RunningInspector> {
  const child = spawn(process.execPath, [bin, "inspect", "--no-open", "--json", ...args], {
    cwd: box.project,
    env: box.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const first = await new Promise<{ url: string; port: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mcp inspect printed no URL in 30 s; stderr: ${stderr}`)), 30_000);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n") && line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { url: string; port: number });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`mcp inspect exited (${code}) before printing its URL; stderr: ${stderr}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    ...first,
    token: new URL(first.url).searchParams.get("token")!,
    child,
    stderr: () => stderr,
    children: () => {
      try {
        return execFileSync("ps", ["-o", "pid=", "--ppid", String(child.pid)], { encoding: "utf8" })
          .split("\n")
          .map((l) => Number(l.trim()))
          .filter((n) => n > 0);
      } catch {
        return [];
      }
    },
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
