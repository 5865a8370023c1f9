import { InvalidConfigError, McpError } from "@mcp/jsonrpc";
import type { HttpAuthProvider } from "@mcp/client";
import { headerProblem, isReservedHeader } from "@mcp/transport-http";
import { spawn } from "node:child_process";

/**
 * `headersHelper`, as Claude Code defines it for HTTP servers: a command (run by the shell) that
 * prints a JSON object of headers — short-lived tokens from a company's SSO, a vault, `gcloud auth
 * print-access-token` wrapped in JSON. It runs at connect, its headers are kept for
 * `headersHelperTtlMs`, and it runs again on a `401` before any OAuth flow. Its output is checked
 * (string values, no line injection, not the MCP headers) and never logged.
 */

/** How long a helper may run. */
export const HEADERS_HELPER_TIMEOUT_MS = 10_000;
/** How long a helper's headers are used before it runs again, unless the config says otherwise. */
export const DEFAULT_HEADERS_HELPER_TTL_MS = 5 * 60_000;
/** How much of a failing helper's stderr its error quotes. */
const STDERR_TAIL_CHARS = 1000;
const MAX_OUTPUT_BYTES = 64 * 1024;

/** A `headersHelper` failed: it exited non-zero, timed out, or printed something that is not a JSON object of headers. */
export class HeadersHelperError extends McpError<"invalid_config"> {
  static override readonly brand: string = "HeadersHelperError";
  declare readonly serverName: string;
  /** The last lines the helper wrote to stderr. */
  declare readonly stderrTail: string;

  constructor(serverName: string, problem: string, stderrTail: string) {
    const tail = stderrTail.trim();
    super("invalid_config", `MCP server "${serverName}": headersHelper ${problem}${tail ? `\nstderr:\n${tail}` : ""}`);
    this.serverName = serverName;
    this.stderrTail = tail;
  }
}

/** The helper's output as headers, or what is wrong with it (never quoting a value). */
export function parseHelperOutput(stdout: string): Record<string, string> | string {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    return "did not print JSON (it must print one JSON object of header names to string values)";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "must print a JSON object of header names to string values";
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(value as Record<string, unknown>)) {
    if (typeof header !== "string")
      return `printed a ${header === null ? "null" : typeof header} for header ${JSON.stringify(name)}; values must be strings`;
    // The transport's own checks, in the words they use for a config's headers (never the value).
    const problem = headerProblem(name, header);
    if (problem !== undefined) return `printed header ${JSON.stringify(name)}, which ${problem}`;
    if (isReservedHeader(name)) return `printed header ${JSON.stringify(name)}, which the transport sets itself`;
    headers[name] = header;
  }
  return headers;
}

/** Runs `command` with the shell; resolves with the headers it printed. */
export function runHeadersHelper(
  serverName: string,
  command: string,
  url: string,
  options: {
    cwd?: string | undefined;
    timeoutMs?: number | undefined;
    env?: Record<string, string | undefined> | undefined;
  } = {},
): Promise<Record<string, string>> {
  const timeoutMs = options.timeoutMs ?? HEADERS_HELPER_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(command, {
      shell: true,
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      // The names Claude Code gives its helpers, so one script serves both.
      env: {
        ...(options.env ?? process.env),
        CLAUDE_CODE_MCP_SERVER_NAME: serverName,
        CLAUDE_CODE_MCP_SERVER_URL: url,
        MCP_SERVER_NAME: serverName,
        MCP_SERVER_URL: url,
      },
      windowsHide: true,
    });
    let stdout = "";
    let stderr = "";
    let settled = false;
    const fail = (problem: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill("SIGKILL");
      reject(new HeadersHelperError(serverName, problem, stderr.slice(-STDERR_TAIL_CHARS)));
    };
    const timer = setTimeout(() => fail(`did not finish within ${timeoutMs}ms`), timeoutMs);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.length > MAX_OUTPUT_BYTES) fail(`printed more than ${MAX_OUTPUT_BYTES} bytes`);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4 * STDERR_TAIL_CHARS);
    });
    child.on("error", (error) => fail(`could not be started: ${error.message}`));
    child.on("close", (code, signal) => {
      if (settled) return;
      if (code !== 0) return fail(signal ? `was killed by ${signal}` : `exited with code ${code}`);
      const parsed = parseHelperOutput(stdout);
      if (typeof parsed === "string") return fail(parsed);
      settled = true;
      clearTimeout(timer);
      resolve(parsed);
    });
  });
}

/** Options of {@link headersHelperProvider}. */
export interface HeadersHelperOptions {
  serverName: string;
  command: string;
  url: string;
  /** How long its headers are used. Default 5 minutes. */
  ttlMs?: number | undefined;
  /** The provider behind it (OAuth), asked after the helper on a `401`. */
  inner?: HttpAuthProvider | undefined;
  cwd?: string | undefined;
  /** The environment it runs with. Default: this process's. */
  env?: Record<string, string | undefined> | undefined;
}

/**
 * An auth provider whose headers come from a `headersHelper` (and, merged after them, from
 * `inner`, the helper's winning). One run serves concurrent requests. On a `401` the helper runs
 * again first: when it gives other headers the request is retried with them; when it gives the
 * same, `inner` (OAuth) is asked.
 */
export function headersHelperProvider(options: HeadersHelperOptions): HttpAuthProvider {
  const ttl = options.ttlMs ?? DEFAULT_HEADERS_HELPER_TTL_MS;
  if (!(ttl >= 0))
    throw new InvalidConfigError(
      '"headersHelperTtlMs" must be a number of milliseconds (0 runs the helper for every connection and 401)',
      { serverName: options.serverName, field: "headersHelperTtlMs" },
    );
  let current: { headers: Record<string, string>; at: number } | undefined;
  let running: Promise<Record<string, string>> | undefined;
  const run = (): Promise<Record<string, string>> => {
    running ??= runHeadersHelper(options.serverName, options.command, options.url, {
      cwd: options.cwd,
      env: options.env,
    }).then(
      (headers) => {
        current = { headers, at: Date.now() };
        running = undefined;
        return headers;
      },
      (error: unknown) => {
        running = undefined;
        throw error;
      },
    );
    return running;
  };
  const helperHeaders = async (): Promise<Record<string, string>> => {
    if (current !== undefined && Date.now() - current.at < ttl) return current.headers;
    return run();
  };
  return {
    // The helper's headers win over the inner provider's: a user who wrote a helper meant them.
    headers: async () => ({ ...(options.inner ? await options.inner.headers() : {}), ...(await helperHeaders()) }),
    onUnauthorized: async (context) => {
      // Run it again (concurrent refusals share one run): new headers are worth one more try.
      const fresh = await run();
      if (Object.entries(fresh).some(([name, value]) => context.sent[name] !== value)) return true;
      return options.inner?.onUnauthorized ? options.inner.onUnauthorized(context) : false;
    },
  };
}
