#!/usr/bin/env node
import { main } from "./main.js";

// `mcp tools | head`: a reader that goes away is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await main(process.argv);
