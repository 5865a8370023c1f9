#!/usr/bin/env node
// The layer check: every package imports only packages below it in the package graph (ALLOWED,
// drawn in the README), an app imports packages but never another app, and each imports only what
// its own package.json declares. Run by CI; exits 1 on any violation.
import { builtinModules } from "node:module";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** What each package may depend on (its layers below, transitively). Apps may use any package, and no other app. */
export const ALLOWED = {
  "@mcp/jsonrpc": [],
  "@mcp/transport-stdio": ["@mcp/jsonrpc"],
  "@mcp/transport-http": ["@mcp/jsonrpc"],
  "@mcp/oauth": ["@mcp/jsonrpc"],
  "@mcp/client": ["@mcp/jsonrpc", "@mcp/transport-stdio", "@mcp/transport-http", "@mcp/oauth"],
  "@mcp/manager": ["@mcp/jsonrpc", "@mcp/transport-stdio", "@mcp/transport-http", "@mcp/oauth", "@mcp/client"],
  "@mcp/lite": ["@mcp/jsonrpc"],
  // Above the manager, for its types only (an MCPTool's shape): nothing of it runs in an adapter.
  "@mcp/adapters": ["@mcp/manager"],
  // Implements the manager's ToolCache and @mcp/oauth's TokenStore (their types only) on Redis.
  "@mcp/store-redis": ["@mcp/manager", "@mcp/oauth"],
  // Many servers as one, for many callers: the manager below it, the client for its calls.
  "@mcp/gateway": [
    "@mcp/jsonrpc",
    "@mcp/transport-stdio",
    "@mcp/transport-http",
    "@mcp/oauth",
    "@mcp/client",
    "@mcp/manager",
  ],
  // Tools → a typed module on the client: the client's types only (Tool, Implementation).
  "@mcp/codegen": ["@mcp/client"],
  // A web inspector on a manager, page and server: the manager it inspects, the client's requests
  // (resources, prompts, completions, MCP Apps) and config type.
  "@mcp/inspector": [
    "@mcp/jsonrpc",
    "@mcp/transport-stdio",
    "@mcp/transport-http",
    "@mcp/oauth",
    "@mcp/client",
    "@mcp/manager",
  ],
  // Recordings served again: the client's connection (in-process) and its record listener, JSON-RPC for the wire.
  "@mcp/replay": ["@mcp/jsonrpc", "@mcp/transport-stdio", "@mcp/transport-http", "@mcp/oauth", "@mcp/client"],
  // The MCP registry's client: the manager for its own file's `registry` field, the client's config
  // checks, the HTTP transport's fetch (proxies, CAs) and header rules.
  "@mcp/registry": [
    "@mcp/jsonrpc",
    "@mcp/transport-stdio",
    "@mcp/transport-http",
    "@mcp/oauth",
    "@mcp/client",
    "@mcp/manager",
  ],
  // One stdio server process for many host sessions: the stdio transport for the process, JSON-RPC for the errors,
  // the manager for who may be served (its approvals and config discovery) and its tool cache.
  "@mcp/pool": [
    "@mcp/jsonrpc",
    "@mcp/transport-stdio",
    "@mcp/transport-http",
    "@mcp/oauth",
    "@mcp/client",
    "@mcp/manager",
  ],
  // The user's daemon, the socket front of the pool: the pool it runs for hosts, the manager for the
  // servers it keeps between commands (and approvals, tool cache), the client's config types, the
  // stdio transport's environment rules for a call written as its shell runs it.
  "@mcp/daemon": [
    "@mcp/jsonrpc",
    "@mcp/transport-stdio",
    "@mcp/transport-http",
    "@mcp/oauth",
    "@mcp/client",
    "@mcp/manager",
    "@mcp/pool",
  ],
};

/**
 * A package above that a package's tests may read types from, and nothing else: a devDependency,
 * imported with `import type` only from test files, never from src (so it neither runs in nor ships
 * with the package). Each entry says why.
 */
export const TEST_TYPES_ONLY = {
  // The gateway's RateLimitStore and SessionStore, which store-redis implements: its contract test
  // (test/contracts.test.ts) makes the compiler check the Redis stores still fit them.
  "@mcp/store-redis": ["@mcp/gateway"],
};

const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const builtins = new Set(builtinModules);

/** Every source file under `dir` (no `node_modules`, `dist`, dot folders or `.d.ts`). */
export function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The module specifiers a source file imports, with their line numbers. */
export function importsOf(code) {
  const found = [];
  const stripped = code
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, " "))
    .replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of stripped.matchAll(pattern)) {
      const line = stripped.slice(0, match.index).split("\n").length;
      found.push({ specifier: match[1], line, typeOnly: /^(?:import|export)\s+type\b/.test(match[0]) });
    }
  }
  return found;
}

function packageNameOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** Checks a workspace; returns a list of human-readable violations (empty when clean). */
export function checkLayers(root) {
  const violations = [];
  const rootPkg = existsSync(join(root, "package.json")) ? readJson(join(root, "package.json")) : {};
  const rootDev = new Set(Object.keys(rootPkg.devDependencies ?? {}));
  const dirs = [];
  for (const group of ["packages", "apps"]) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) {
      if (existsSync(join(base, name, "package.json"))) dirs.push({ group, dir: join(base, name) });
    }
  }
  // The apps' package names: no app may depend on one of them (an app is a leaf of the graph).
  const apps = new Set(dirs.filter((d) => d.group === "apps").map((d) => readJson(join(d.dir, "package.json")).name));
  for (const { group, dir } of dirs) {
    const pkg = readJson(join(dir, "package.json"));
    const name = pkg.name;
    const isApp = group === "apps";
    const allowed = isApp ? null : ALLOWED[name];
    if (!isApp && !allowed) {
      violations.push(`${relative(root, dir)}: package ${name} is not in the layer graph (scripts/check-layers.mjs)`);
      continue;
    }
    const runtime = new Set([
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}),
      ...Object.keys(pkg.optionalDependencies ?? {}),
    ]);
    const dev = new Set([...runtime, ...Object.keys(pkg.devDependencies ?? {}), ...rootDev]);
    const layerOk = (dep) => (isApp ? !apps.has(dep) : !dep.startsWith("@mcp/") || allowed.includes(dep));
    const notBelow = (dep) =>
      isApp && apps.has(dep)
        ? `which is an app: an app may import packages, never another app`
        : "which is not below it";
    const testTypesOnly = isApp ? [] : (TEST_TYPES_ONLY[name] ?? []);

    for (const field of ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"]) {
      for (const dep of Object.keys(pkg[field] ?? {})) {
        if (!layerOk(dep) && !(field === "devDependencies" && testTypesOnly.includes(dep)))
          violations.push(`${relative(root, dir)}/package.json: ${name} declares ${dep} in ${field}, ${notBelow(dep)}`);
      }
    }
    for (const file of walk(dir)) {
      const rel = relative(dir, file);
      const isTest = !rel.startsWith(`src${sep}`) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(rel);
      const declared = isTest ? dev : runtime;
      for (const { specifier, line, typeOnly } of importsOf(readFileSync(file, "utf8"))) {
        const where = `${relative(root, file)}:${line}`;
        if (specifier.startsWith(".")) {
          const target = resolve(dir, rel, "..", specifier);
          if (!target.startsWith(dir + sep))
            violations.push(`${where}: relative import "${specifier}" reaches outside ${name}`);
          continue;
        }
        if (specifier.startsWith("node:") || builtins.has(specifier) || specifier.startsWith("#")) continue;
        const dep = packageNameOf(specifier);
        if (dep === name) continue;
        if (!layerOk(dep) && testTypesOnly.includes(dep)) {
          if (!isTest || !typeOnly)
            violations.push(
              `${where}: ${name} may read ${dep}'s types only, with \`import type\` in a test (TEST_TYPES_ONLY)`,
            );
          else if (!declared.has(dep))
            violations.push(`${where}: ${name} imports ${dep}, which its package.json does not declare`);
        } else if (!layerOk(dep)) {
          violations.push(
            `${where}: ${name} imports ${dep}, ${isApp ? notBelow(dep) : "which is not below it in the package graph"}`,
          );
        } else if (!declared.has(dep)) {
          violations.push(
            `${where}: ${name} imports ${dep}, which its package.json does not declare${isTest ? "" : " in dependencies"}`,
          );
        }
      }
    }
  }
  return violations;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(fileURLToPath(import.meta.url), "..", ".."));
  const violations = checkLayers(root);
  if (violations.length > 0) {
    console.error(`Layer check failed (${violations.length}):\n${violations.map((v) => `  - ${v}`).join("\n")}`);
    process.exit(1);
  }
  console.log(
    "Layer check passed: every import points down the package graph (no app imports another app) and is declared.",
  );
}
