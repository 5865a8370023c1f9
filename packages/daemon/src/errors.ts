// The daemon's errors: each says what went wrong, and carries the exit code a command line would end
// with (1 a failure, 2 a request or an option of the wrong shape), as the daemon's answers do.

/** Exit codes of the daemon's answers: 1 a failure, 2 a usage error (a request of the wrong shape). */
export const EXIT = { failure: 1, usage: 2 } as const;

/**
 * A failure the daemon (or this side of it) reports: its answer to a request (`exitCode` as it sent
 * it), a daemon gone in the middle of a call it may have run, a socket folder that is not private.
 */
export class DaemonError extends Error {
  override readonly name: string = "DaemonError";
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
  }
}

/** The daemon did not take the request: nothing was run, the caller may do it itself. */
export class DaemonUnavailable extends Error {
  override readonly name: string = "DaemonUnavailable";
}

/** The socket is not this user's (its owner, or its folder's owner or mode): nothing was sent to it. */
export class DaemonUntrusted extends DaemonUnavailable {
  override readonly name = "DaemonUntrusted";
}

/** The exit code an error carries (`exitCode`, as `DaemonError` and the `mcp` CLI's errors have), else 1. */
export function exitCodeOf(error: unknown): number {
  const code = (error as { exitCode?: unknown } | null)?.exitCode;
  return typeof code === "number" && Number.isSafeInteger(code) ? code : EXIT.failure;
}
