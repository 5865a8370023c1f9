// Where the CLI benchmarks find what they run: our built CLI, the peer CLI (mcporter 0.12.3) and
// the Node 24 it needs, and server-everything.
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../../", import.meta.url));
export const cli = join(root, "apps/cli/dist/bin.js");
// Installed by `pnpm run runtimes` (tools/runtimes/binaries), not by the workspace's install.
const binaries = join(root, "tools/runtimes/binaries/node_modules");
export const node24 = join(binaries, "node24/bin/node");
export const mcporter = join(binaries, "mcporter/dist/cli.js");
export const everything = createRequire(join(root, "apps/cli/package.json")).resolve(
  "@modelcontextprotocol/server-everything/dist/index.js",
);
