import { callFailure } from "@mcp/manager/config";
import type cliProgress from "cli-progress";
import { CliError, color, EXIT, HINT, openLine, statusLine } from "./ui.js";
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
    // On a terminal the line is left open: "Cancelled." replaces it (main).
    openLine(`Cancelling… ${color.dim("(Ctrl-C again to quit now)")}`);
    controller.abort(new CliError("cancelled", EXIT.cancelled));
  };
  process.on("SIGINT", onSigint);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", onSigint) };
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

/** A failed request, for a person (@mcp/manager's callFailure, with how to raise the timeout); any other error as it is. */
export function failureHint(error: unknown, what: string): never {
  const failure = callFailure(error, what);
  if (!failure) throw error;
  throw new CliError(failure.message + (failure.kind === "timeout" ? HINT.timeout : ""));
}
