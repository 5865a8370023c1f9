// The ten npm stdio servers of the pool benchmark (pool-footprint.mjs): the four the repository
// installs, and six more of the most used npm MCP servers, installed for the benchmark only (not
// workspace dependencies: `npm install` of pinned versions, install scripts off, into a cache folder
// outside the repository, the first time the benchmark runs; the registry is needed then only).
//
// Each of the six starts and answers initialize and tools/list with no API key, and sends nothing off
// the machine doing so (checked with `strace -f -e trace=connect,sendto,sendmsg` on a session that
// lists their tools: no connect() at all; through npx only a netlink query of the own interfaces). Tool calls of
// the search and SaaS servers would call out, so the benchmark's first call on those is tools/list.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/**
 * name → [package, version (null: the repository's own install), arguments, environment, first call
 * ([tool, arguments], or null for tools/list)]. `files` and `dir` in arguments and environment are
 * replaced with the benchmark's folders.
 */
export const POOL_SERVERS = {
  everything: ["@modelcontextprotocol/server-everything", null, ["stdio"], {}, ["echo", { message: "hi" }]],
  filesystem: ["@modelcontextprotocol/server-filesystem", null, ["$files"], {}, ["list_allowed_directories", {}]],
  memory: [
    "@modelcontextprotocol/server-memory",
    null,
    [],
    { MEMORY_FILE_PATH: "$dir/memory.jsonl" },
    ["read_graph", {}],
  ],
  thinking: ["@modelcontextprotocol/server-sequential-thinking", null, [], {}, null],
  // Browser automation: no browser starts until a tool asks for one. (chrome-devtools-mcp 1.11.0 is
  // left out: it connected to an address off the machine on start, --no-usage-statistics or not.)
  playwright: ["@playwright/mcp", "0.0.83", ["--headless", "--isolated"], {}, null],
  // Web search: its key is asked for only when a tool is called.
  tavily: ["tavily-mcp", "0.2.22", [], {}, null],
  // Documentation and SaaS APIs: no key needed to list their tools.
  context7: ["@upstash/context7-mcp", "4.1.1", [], {}, null],
  notion: ["@notionhq/notion-mcp-server", "2.5.2", [], {}, null],
  github: ["@modelcontextprotocol/server-github", "2025.4.8", [], {}, null],
  // Connects to its database on a tool call only (loopback port 1 here: nothing listens).
  postgres: ["@modelcontextprotocol/server-postgres", "0.6.2", ["postgresql://127.0.0.1:1/bench"], {}, null],
};

/** Where the six are installed: `$XDG_CACHE_HOME/mcp-client-bench/pool-servers` (default ~/.cache). */
export function serversDir(env = process.env) {
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "mcp-client-bench", "pool-servers");
}

function installedVersion(dir, pkg) {
  try {
    return JSON.parse(readFileSync(join(dir, "node_modules", pkg, "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

/** Installs the pinned servers into `dir` unless they are there already (npm, no install scripts). */
export function installServers(dir) {
  const pinned = Object.values(POOL_SERVERS).filter(([, version]) => version !== null);
  if (pinned.every(([pkg, version]) => installedVersion(dir, pkg) === version)) return;
  mkdirSync(dir, { recursive: true });
  const dependencies = Object.fromEntries(pinned.map(([pkg, version]) => [pkg, version]));
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ private: true, description: "npm servers of apps/bench/src/pool-footprint.mjs", dependencies }, null, 2)}\n`,
  );
  process.stderr.write(`installing ${pinned.length} npm servers into ${dir}\n`);
  const npm = spawnSync("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--omit=dev"], {
    cwd: dir,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const wrong = pinned.filter(([pkg, version]) => installedVersion(dir, pkg) !== version);
  if (npm.status !== 0 || wrong.length > 0)
    throw new Error(
      `npm install in ${dir} failed (exit ${npm.status}); missing: ${wrong.map(([p, v]) => `${p}@${v}`).join(", ")}`,
    );
}

/** The bin script `npx <package>` runs, resolved from `from`'s node_modules. */
export function binOf(pkg, from) {
  const own = join(from, "node_modules", pkg, "package.json");
  const manifest = existsSync(own) ? own : createRequire(join(from, "package.json")).resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, "utf8"));
  // As npx picks it: the only bin, else the one named as the package (without its scope).
  const entries = typeof bin === "string" ? { [pkg.split("/").pop()]: bin } : (bin ?? {});
  const names = Object.keys(entries);
  const chosen = names.length === 1 ? entries[names[0]] : entries[pkg.split("/").pop()];
  if (chosen === undefined) throw new Error(`${pkg} has no bin npx would run (${names.join(", ") || "none"})`);
  const path = join(dirname(manifest), chosen);
  if (!existsSync(path)) throw new Error(`${pkg}'s bin ${path} is missing`);
  return path;
}

/**
 * The benchmark's servers, each as `node <bin>` (name) and as `npx --offline -y <package>`
 * (`npx-<name>`): { command, args, cwd, env?, tool, pkg, version }.
 */
export function poolServers({ root, files, dir, installed }) {
  const apps = join(root, "apps/cli");
  const fill = (value) => value.replace("$files", files).replace("$dir", dir);
  const servers = {};
  for (const [name, [pkg, pinned, rest, vars, tool]] of Object.entries(POOL_SERVERS)) {
    const cwd = pinned === null ? apps : installed;
    const args = rest.map(fill);
    const env = Object.keys(vars).length
      ? Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, fill(v)]))
      : undefined;
    const version = pinned ?? installedVersion(join(root, "apps/cli"), pkg) ?? "?";
    const common = { cwd, ...(env ? { env } : {}), tool, pkg, version };
    servers[name] = { command: process.execPath, args: [binOf(pkg, cwd), ...args], ...common };
    servers[`npx-${name}`] = { command: "npx", args: ["--offline", "-y", pkg, ...args], ...common };
  }
  return servers;
}
