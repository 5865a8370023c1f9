#!/usr/bin/env node
// One gateway measurement for `pnpm bench:ab`: `mcp serve --http` of the given CLI in front of an
// upstream Streamable HTTP server, called by this tree's client with `concurrency` calls in flight
// for `seconds` after a second of warm-up. Prints one JSON line: { rate (calls/s), p50 (ms) }.
//   node gateway-cell.mjs <cli bin.js> <upstream url> <options as JSON: { seconds, concurrency, roots? }>
// With `roots: true` the caller is what Claude Code, VS Code and Cursor are: a 2025 session (2025-11-25)
// whose client declares roots; with `capable: true`, a 2026-07-28 caller declaring roots and
// sampling in each request's envelope; with `progress: true`, a 2026-07-28 caller whose calls carry a
// progress token and ask for logs at "info"; else this stack's default, 2026-07-28 declaring nothing.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callTool, connectToServer, setLoggingLevel } from "@mcp/client";
import { start, TOKEN } from "./gateway-throughput.mjs";
import { median } from "./scenarios.mjs";

const [cli, upstream, options] = process.argv.slice(2);
const { seconds, concurrency, roots, capable, progress } = JSON.parse(options);
const dir = mkdtempSync(join(tmpdir(), "mcp-gateway-cell-"));
let replica;
try {
  const config = join(dir, "config.json");
  writeFileSync(config, JSON.stringify({ servers: { up: { type: "http", url: upstream } } }));
  const env = {
    ...process.env,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, ".config"),
    XDG_CACHE_HOME: join(dir, ".cache"),
    MCP_SERVE_TOKEN: TOKEN,
    NO_COLOR: "1",
  };
  replica = await start(process.execPath, [cli, "--json", "--config", config, "serve", "--http"], env, /^\{/);
  const url = `${JSON.parse(replica.line).url}/up`;
  const connection = await connectToServer(
    "gateway",
    { type: "http", url, headers: { authorization: `Bearer ${TOKEN}` } },
    roots
      ? { protocol: "2025", roots: [{ uri: "file:///bench", name: "bench" }] }
      : capable
        ? {
            roots: [{ uri: "file:///bench", name: "bench" }],
            onSampling: () => Promise.reject(new Error("no sampling here")),
          }
        : {},
  );
  if (roots && connection.era !== "2025") throw new Error(`a roots caller spoke ${connection.era}, not 2025`);
  if (capable && connection.era === "2025") throw new Error("a capable caller spoke 2025, not 2026-07-28");
  if (progress) {
    if (connection.era === "2025") throw new Error("a progress caller spoke 2025, not 2026-07-28");
    // At 2026-07-28 the level travels in each later request's `_meta`.
    await setLoggingLevel(connection, "info");
  }
  const call = async () => {
    const result = await callTool(connection, "echo", { text: "hi" }, progress ? { onProgress: () => {} } : undefined);
    if (result.content[0]?.text !== "hi") throw new Error(`wrong answer: ${JSON.stringify(result)}`);
  };
  const warm = performance.now() + 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warm) await call();
    }),
  );
  const latencies = [];
  const began = performance.now();
  const deadline = began + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        await call();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const rate = latencies.length / ((performance.now() - began) / 1000);
  await connection.transport.close();
  process.stdout.write(`${JSON.stringify({ rate, p50: median(latencies) })}\n`);
} finally {
  replica?.child.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
