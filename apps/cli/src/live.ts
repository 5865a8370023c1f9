import { createRequire } from "node:module";
import { NetworkError, RequestTimeoutError } from "@mcp/client";
import type cliProgress from "cli-progress";
import { CliError, color, EXIT } from "./ui.js";

// What a running command shows and hears: Ctrl-C, the progress bar, what a failure means.

/**
 * Ctrl-C: the first says so at once and aborts (a call under way is cancelled: the server gets
 * notifications/cancelled), and the command ends its servers and exits 130; a second one exits at once.
 */
export function interruptible(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(EXIT.cancelled);
    process.stderr.write(`\nCancelling… ${color.dim("(Ctrl-C again to quit now)")}\n`);
    controller.abort(new CliError("cancelled", EXIT.cancelled));
  };
  process.on("SIGINT", onSigint);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", onSigint) };
}

export function progressReporter(name: string): { update: (p: { progress: number; total?: number | undefined; message?: string | undefined }) => void; stop: () => void } {
  if (!process.stderr.isTTY) {
    return {
      update: ({ progress, total, message }) => process.stderr.write(`progress ${progress}${total === undefined ? "" : `/${total}`}${message ? ` ${message}` : ""}\n`),
      stop: () => undefined,
    };
  }
  // Loaded for a bar on a terminal only: a call with no terminal (a script, an agent) never needs it.
  const progress = createRequire(import.meta.url)("cli-progress") as typeof cliProgress;
  const bar = new progress.SingleBar(
    { stream: process.stderr, format: `${name} ${color.cyan("{bar}")} {value}/{total} {message}`, hideCursor: true, clearOnComplete: false, barsize: 30 },
    progress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: ({ progress, total, message }) => {
      const payload = { message: message ?? "" };
      if (!started) {
        bar.start(total ?? Math.max(progress, 1), progress, payload);
        started = true;
      } else {
        if (total !== undefined) bar.setTotal(total);
        bar.update(progress, payload);
      }
    },
    stop: () => {
      if (started) bar.stop();
    },
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
 * A failed call, for a person: a timeout says how long and how to raise it; a call the server may
 * have run (the connection broke after it was sent) says so, and to check before calling it again.
 */
export function failureHint(error: unknown, what: string): never {
  if (RequestTimeoutError.isInstance(error)) throw new CliError(`${what} timed out after ${error.timeout}ms (raise the limit with --timeout <ms>)`);
  if (NetworkError.isInstance(error) && error.mayHaveRun) throw new CliError(`${what}: ${error.message}. Check whether it took effect before calling it again.`);
  throw error;
}
