// Footprint: the minified + gzipped bundle of client + stdio + Streamable HTTP, built by esbuild with
// the same settings for every implementation, and the installed size of the production dependency
// tree (every package a user's `npm install` brings, deduplicated).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));

/** What each bundle exports: a client, the stdio transport and the Streamable HTTP transport. */
export const ENTRIES = {
  ours: `export { connectToServer, callTool, listTools, disconnectServer } from "@mcp/client";\nexport { createStdioTransport } from "@mcp/transport-stdio";\nexport { createHttpTransport } from "@mcp/transport-http";\n`,
  sdk1: `export { Client } from "@modelcontextprotocol/sdk/client/index.js";\nexport { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";\nexport { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";\n`,
  sdk2: `export { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";\nexport { StdioClientTransport } from "@modelcontextprotocol/client/stdio";\n`,
};

/** A web app's bundle: a client and the Streamable HTTP transport, for `platform: "browser"`. */
export const BROWSER_ENTRIES = {
  ours: `export { connectToServer, callTool, listTools, disconnectServer } from "@mcp/client";\nexport { createHttpTransport } from "@mcp/transport-http";\n`,
  sdk1: `export { Client } from "@modelcontextprotocol/sdk/client/index.js";\nexport { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";\n`,
  sdk2: `export { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";\n`,
};

/** The root packages whose production dependency tree a user installs. */
export const ROOTS = {
  ours: ["@mcp/client"],
  sdk1: ["@modelcontextprotocol/sdk"],
  sdk2: ["@modelcontextprotocol/client"],
};

/** The minified ESM bundle of `contents` (an entry module), with the settings every figure uses. */
export async function bundleCode(contents, options = {}) {
  const result = await build({
    external: options.external ?? [],
    stdin: { contents, resolveDir: here, sourcefile: "entry.mjs", loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // CommonJS packages inside an ESM bundle (undici) call require() for Node's built-ins.
    banner: {
      js: 'import { createRequire as __mcpCreateRequire } from "node:module"; const require = __mcpCreateRequire(import.meta.url);',
    },
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].contents;
}

/** Minified and gzipped bytes of one implementation's browser bundle (no Node built-in may enter it). */
export async function browserBundleSize(impl) {
  const result = await build({
    stdin: { contents: BROWSER_ENTRIES[impl], resolveDir: here, sourcefile: "entry.mjs", loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return { browserMinBytes: code.byteLength, browserGzipBytes: gzipSync(code, { level: 9 }).byteLength };
}

/** Minified and gzipped bytes of one implementation's bundle. */
export async function bundleSize(impl) {
  const code = await bundleCode(ENTRIES[impl]);
  // The same bundle with undici left to the installed package: our own code alone (the SDKs use
  // Node's built-in fetch and bundle no HTTP client, so theirs does not change).
  const own = await bundleCode(ENTRIES[impl], { external: ["undici"] });
  return {
    minBytes: code.byteLength,
    gzipBytes: gzipSync(code, { level: 9 }).byteLength,
    ownGzipBytes: gzipSync(own, { level: 9 }).byteLength,
  };
}

function dirSize(dir) {
  let total = 0;
  for (const name of readdirSync(dir)) {
    if (name === "node_modules") continue;
    const path = join(dir, name);
    const stat = statSync(path);
    total += stat.isDirectory() ? dirSize(path) : stat.size;
  }
  return total;
}

/** Node's lookup of package `name` from directory `from` (every `node_modules` up the tree). */
function findPackage(name, from) {
  for (let dir = from; ; dir = dirname(dir)) {
    if (basename(dir) !== "node_modules") {
      const candidate = join(dir, "node_modules", name);
      if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** A workspace package installs as its packed files; a registry package as the folder it unpacked to. */
function installedBytes(dir) {
  if (dir.split(sep).includes("node_modules")) return dirSize(dir);
  const [pack] = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }),
  );
  return pack.unpackedSize;
}

/** Every package of a production install of `roots`, with its size; deduplicated by real path. */
export function installedTree(impl) {
  const seen = new Map();
  const visit = (name, from) => {
    const dir = findPackage(name, from);
    if (dir === undefined) throw new Error(`cannot find ${name} from ${from}`);
    if (seen.has(dir)) return;
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    seen.set(dir, { name: manifest.name, version: manifest.version, bytes: installedBytes(dir) });
    for (const dep of Object.keys({ ...manifest.dependencies })) visit(dep, dir);
    for (const dep of Object.keys({ ...manifest.optionalDependencies })) if (findPackage(dep, dir)) visit(dep, dir);
  };
  for (const root of ROOTS[impl]) visit(root, here);
  const packages = [...seen.values()];
  return { packages: packages.length, bytes: packages.reduce((sum, p) => sum + p.bytes, 0), list: packages };
}

/** Both footprint figures of one implementation. */
export async function footprint(impl) {
  const tree = installedTree(impl);
  return {
    ...(await bundleSize(impl)),
    ...(await browserBundleSize(impl)),
    installedBytes: tree.bytes,
    packages: tree.packages,
  };
}

// Lets tests and the bench reach the package versions measured.
export function versionOf(name) {
  return JSON.parse(readFileSync(join(findPackage(name, here), "package.json"), "utf8")).version;
}
