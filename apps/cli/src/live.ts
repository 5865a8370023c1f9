import { stderrCause } from "@mcp/manager";
import { NetworkError, NoResponseError, RequestTimeoutError, TransportClosedError } from "@mcp/client";
import type cliProgress from "cli-progress";
import { CliError, color, EXIT, openLine, replaceLine, statusLine } from "./ui.js";
import { stderrLines } from "./failure.js";
import { lazyRequire } from "./lazy-require.js";

// What a running command shows and hears: Ctrl-C, the progress bar, what a failure means.

/** The progress bars on screen, each by the function that stops it. */
const bars = new Set<() => void>();

/**
 * Ctrl-C: the first says so at once and aborts (a call under way is cancelled: the server gets
 * notifications/cancelled), and the command ends its servers and exits 130; a second one exits at once.
 */
export function interruptible(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(EXIT.cancelled);
    // The bar goes first, so it does not redraw itself over the line that says what happens.
    for (const stop of bars) stop();
    // On a terminal the line is left open: "Cancelled." replaces it (cancelledLine).
    openLine(`Cancelling… ${color.dim("(Ctrl-C again to quit now)")}`);
    controller.abort(new CliError("cancelled", EXIT.cancelled));
  };
  process.on("SIGINT", onSigint);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", onSigint) };
}

/** Writes "Cancelled.": on a terminal, in place of the "Cancelling…" line. */
export function cancelledLine(): void {
  replaceLine("Cancelled.");
}

export function progressReporter(name: string): {
  update: (p: { progress: number; total?: number | undefined; message?: string | undefined }) => void;
  stop: () => void;
} {
  if (!process.stderr.isTTY) {
    return {
      update: ({ progress, total, message }) =>
        process.stderr.write(
          `progress ${progress}${total === undefined ? "" : `/${total}`}${message ? ` ${message}` : ""}\n`,
        ),
      stop: () => undefined,
    };
  }
  // Loaded for a bar on a terminal only: a call with no terminal (a script, an agent) never needs it.
  const barModule = lazyRequire<typeof cliProgress>("cli-progress");
  const bar = new barModule.SingleBar(
    {
      stream: process.stderr,
      format: `${name} ${color.cyan("{bar}")} {value}/{total} {message}`,
      hideCursor: true,
      clearOnComplete: false,
      barsize: 30,
    },
    barModule.Presets.shades_classic,
  );
  let started = false;
  let stopped = false;
  const stop = (): void => {
    bars.delete(stop);
    if (started && !stopped) bar.stop();
    stopped = true;
  };
  return {
    update: ({ progress, total, message }) => {
      if (stopped) return;
      const payload = { message: message ?? "" };
      if (!started) {
        statusLine(undefined);
        bar.start(total ?? Math.max(progress, 1), progress, payload);
        started = true;
        bars.add(stop);
      } else {
        if (total !== undefined) bar.setTotal(total);
        bar.update(progress, payload);
      }
    },
    stop,
  };
}

/** A task's status, one line per change on stderr: `task working: Gathering sources...`. */
export function taskReporter(): (task: { status: string; statusMessage?: string | undefined }) => void {
  let last = "";
  return ({ status, statusMessage }) => {
    const line = `task ${status}${statusMessage ? `: ${statusMessage}` : ""}`;
    if (line === last) return;
    last = line;
    process.stderr.write(`${process.stderr.isTTY ? color.dim(line) : line}\n`);
  };
}

/**
 * A server whose process died under a request, in words: `the server stopped during <during>: <the
 * cause its stderr names> (the process exited with code 1)` (or `was killed by SIGKILL`), and
 * those stderr lines; undefined for any other error.
 */
export function crashOf(error: unknown, during: string): { headline: string; stderr: string } | undefined {
  if (
    !TransportClosedError.isInstance(error) ||
    !(error.signal || (error.exitCode !== undefined && error.exitCode !== null))
  )
    return undefined;
  const ended = error.signal
    ? `the process was killed by ${error.signal}`
    : `the process exited with code ${error.exitCode}`;
  const cause = stderrCause(error.stderrTail);
  return {
    headline: `the server stopped during ${during}: ${cause ? `${cause} (${ended})` : ended}`,
    stderr: stderrLines(error.stderrTail),
  };
}

/**
 * A failed call, for a person: a timeout says how long and how to raise it; a call the server may
 * have run (the connection broke after it was sent, or its answer held no response) says so, and
 * to check before calling it again; a server whose process died during it is headlined by the
 * cause its stderr names and how the process ended, never by `Transport closed`.
 */
export function failureHint(error: unknown, what: string): never {
  const crash = crashOf(error, "the call");
  if (crash)
    throw new CliError(
      `${what}: ${crash.headline}. Check whether it took effect before calling it again.${crash.stderr}`,
    );
  if (RequestTimeoutError.isInstance(error))
    throw new CliError(`${what} timed out after ${error.timeout}ms (raise the limit with --timeout <ms>)`);
  if (NetworkError.isInstance(error) && error.mayHaveRun)
    throw new CliError(`${what}: ${error.message}. Check whether it took effect before calling it again.`);
  // The server took the request and its answer held no response (a stream that broke and could not be resumed).
  if (NoResponseError.isInstance(error))
    throw new CliError(
      `${what}: ${error.message}; the server took the request, so it may have run. Check whether it took effect before calling it again.`,
    );
  throw error;
}
