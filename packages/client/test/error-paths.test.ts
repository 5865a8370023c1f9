// Every error path over every response mode, against real servers, each in a child process whose
// exit code is checked: an error nobody listens to kills a host process, and only a process of its
// own can show that (vitest would catch it and carry on).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("./fixtures/error-matrix.mjs", import.meta.url));

interface CaseLine {
  case: string;
  outcome: { ok: boolean; isError?: boolean; name?: string; code?: unknown; status?: number; message?: string };
  after: string;
}

function run(mode: string): Promise<{ code: number | null; lines: CaseLine[]; done: boolean; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, mode], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      const parsed = stdout
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as CaseLine & { done?: boolean });
      resolve({ code, lines: parsed.filter((l) => !l.done), done: parsed.some((l) => l.done === true), stderr });
    });
  });
}

const modes = [
  { mode: "json", label: "JSON responses (official SDK server)", success: "5" },
  { mode: "sdk-sse", label: "SSE responses (official SDK server)", success: "5" },
  { mode: "sse", label: "SSE responses (server-everything streamableHttp)", success: "Echo: hi" },
  { mode: "http-sse", label: "HTTP+SSE (server-everything sse)", success: "Echo: hi" },
  { mode: "stdio", label: "stdio (server-everything)", success: "Echo: hi" },
] as const;

describe.concurrent("every outcome over every response mode leaves the host process alive", () => {
  for (const { mode, label, success } of modes) {
    it(label, { timeout: 90_000 }, async () => {
      const { code, lines, done, stderr } = await run(mode);
      expect(stderr, "the child wrote to stderr (a crash or a warning)").not.toMatch(/Unhandled|Error:|Warning/);
      expect(code).toBe(0);
      expect(done).toBe(true);
      const byCase = new Map(lines.map((l) => [l.case, l]));
      expect([...byCase.keys()]).toEqual(
        mode === "stdio"
          ? ["result", "rpc-error", "abort", "timeout"]
          : ["result", "rpc-error", "http-error", "abort", "timeout"],
      );
      expect(byCase.get("result")?.outcome).toEqual({ ok: true, isError: false });
      expect(byCase.get("rpc-error")?.outcome).toMatchObject({ ok: false, name: "InvalidParamsError", code: -32602 });
      if (mode !== "stdio")
        expect(byCase.get("http-error")?.outcome).toMatchObject({
          ok: false,
          name: "HttpError",
          code: "http_error",
          status: expect.any(Number) as number,
        });
      expect(byCase.get("abort")?.outcome).toMatchObject({ ok: false, message: "user abort" });
      expect(byCase.get("timeout")?.outcome).toMatchObject({
        ok: false,
        name: "RequestTimeoutError",
        code: "request_timeout",
      });
      // After each failure the same connection still works.
      for (const line of lines) expect(line.after, `the call after ${line.case}`).toBe(success);
    });
  }
});
