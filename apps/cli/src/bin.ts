#!/usr/bin/env node
// The `mcp` executable: runs `main` and exits with its code.
import { main } from "./main.js";
import { stdout } from "./ui.js";

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

process.exitCode = await main(process.argv);
