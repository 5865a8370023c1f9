// A stdio server's configuration and what can be wrong with it.
import { InvalidConfigError } from "@mcp/jsonrpc";

/** Configuration of a stdio server. */
export interface StdioTransportConfig {
  type?: "stdio" | undefined;
  /** Program to run (looked up on `PATH`). */
  command: string;
  args?: string[] | undefined;
  /** Added on top of the safe base environment (or the whole parent environment with `inheritEnv`). */
  env?: Record<string, string> | undefined;
  /** Pass the parent's whole environment to the server. Default `false`: only a safe base (see README). */
  inheritEnv?: boolean | undefined;
  /**
   * The environment that counts as the parent's: the safe base is taken from it (all of it with
   * `inheritEnv`), and `command` is looked up on its `PATH`. Default `process.env`. A process that
   * starts servers on behalf of another (a daemon serving a CLI) passes that one's, so nothing of
   * its own environment reaches the server.
   */
  parentEnv?: Readonly<Record<string, string | undefined>> | undefined;
  cwd?: string | undefined;
  /** Default request timeout in ms: a positive number, or `Infinity` for none. Default 30000. */
  timeout?: number | undefined;
  /** What to do with the child's stderr. Default `"pipe"`: kept in a ring buffer, see `stderrTail`. */
  stderr?: "pipe" | "inherit" | "ignore" | undefined;
  /** Largest stdout line accepted, in bytes. Default 64 MiB. Longer lines are dropped and reported. */
  maxLineBytes?: number | undefined;
  /**
   * Bytes written to the server that may wait for it to read its stdin. Past half of it the
   * transport's `writable` is false (a writer that can wait should, `whenWritable()`); a message
   * written while more than this waits is refused with a `WriteQueueFullError`. Default 16 MiB;
   * `Infinity`: no bound.
   */
  maxWriteQueueBytes?: number | undefined;
  /** How much of stderr to keep, in bytes. Default 64 KiB. */
  stderrTailBytes?: number | undefined;
  /** How long `close()` waits after ending stdin before SIGTERM. Default 2000 ms. */
  closeGraceMs?: number | undefined;
  /** How long `close()` waits after SIGTERM before SIGKILL. Default 2000 ms. */
  killGraceMs?: number | undefined;
  /** Receives each stderr chunk as text (in `"pipe"` mode), e.g. to forward it to a log. */
  onStderr?: ((text: string) => void) | undefined;
  /** Names the server in error messages (the client sets it from the server's name). */
  serverName?: string | undefined;
}

/**
 * What is wrong with a stdio server config's `command` and `args`: each problem a field and a
 * sentence, none when both are fine. The transport throws the first; `@mcp/client`'s config check
 * lists them all, so a config file and code hear the same words.
 */
export function stdioCommandProblems(config: {
  readonly command?: unknown;
  readonly args?: unknown;
}): { field: "command" | "args"; message: string }[] {
  const problems: { field: "command" | "args"; message: string }[] = [];
  const { command, args } = config;
  if (command === undefined) problems.push({ field: "command", message: 'stdio server requires "command" field' });
  else if (typeof command !== "string" || command.trim() === "")
    problems.push({ field: "command", message: '"command" must be a non-empty string' });
  if (args !== undefined && !(Array.isArray(args) && args.every((arg) => typeof arg === "string")))
    problems.push({ field: "args", message: '"args" must be an array of strings' });
  return problems;
}

/** Throws {@link InvalidConfigError} for a grace, line or tail size that is not a non-negative number. */
export function checkStdioNumbers(config: StdioTransportConfig): void {
  for (const field of ["closeGraceMs", "killGraceMs", "maxLineBytes", "stderrTailBytes"] as const) {
    const value = config[field];
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value >= 0)) {
      throw new InvalidConfigError(`"${field}" must be a non-negative number; got ${String(value)}`, {
        serverName: config.serverName,
        field,
      });
    }
  }
  const bound = config.maxWriteQueueBytes;
  if (bound !== undefined && !(typeof bound === "number" && bound > 0)) {
    throw new InvalidConfigError(
      `"maxWriteQueueBytes" must be a positive number of bytes (or Infinity); got ${String(bound)}`,
      { serverName: config.serverName, field: "maxWriteQueueBytes" },
    );
  }
}
