#!/usr/bin/env node
// The `mcp` executable: runs `main` and exits with its code.
import { failed, stdout } from "./ui.js";

// `mcp tools | head`: a reader that goes away is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") {
      // Unless what goes to stdout is a log the command goes on without (`mcp serve --audit -`).
      if (stream === process.stdout && !stdout.exitWhenClosed) return;
      process.exit(process.exitCode ?? 0);
    }
    throw error;
  });
}

/**
 * `mcp daemon stdio <server> [--config <file>]…` stays with its host for the whole session, one per
 * server and session: it goes straight to the relay, without the command parser, to stay small
 * (see daemon/shim-relay.ts; every other form goes through `main`).
 */
async function shim(argv: string[]): Promise<number | undefined> {
  const [daemon, stdio, server] = argv.slice(2);
  if (daemon !== "daemon" || stdio !== "stdio" || server === undefined || server.startsWith("-")) return undefined;
  return import("./daemon/shim-relay.js").then((relay) => relay.daemonStdio(server)).catch(failed);
}

process.exitCode = (await shim(process.argv)) ?? (await (await import("./main.js")).main(process.argv));
