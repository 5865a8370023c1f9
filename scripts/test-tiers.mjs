// The test tiers: which test file runs in which tier, by what it needs. The root vitest.config.ts
// reads this table (`vitest run --mode <tier>`); the README lists the tiers and their commands.
//
//   unit    `pnpm test`: the packages' code from `src` (no build), in-process or against real
//           peers (server-everything, SDK servers) on 127.0.0.1; no system package, no registry.
//   e2e     `pnpm test:e2e`: needs a build (the CLI's `dist/bin.js` as a subprocess, a child
//           process or script that imports a package's `dist`), Chromium, redis-server or tmux;
//           and the gateway's suites once more through the SDK server path.
//   matrix  `pnpm test:matrix`: Node 22/24, Bun and Deno (tools/runtimes/bin, installed by that
//           tier), the packages packed as npm publishes them.
//   soak    `pnpm test:soak`: the soak and the benchmark smoke runs.
//
// The first rule whose pattern matches a file's path (from the repository root) gives its tier;
// a file no rule names is `unit`. So a new test lands in `pnpm test` unless it needs more, and
// scripts/test/test-tiers.test.ts fails when a `unit` file names a `dist/`, a browser, Redis or
// tmux. Patterns: `*` is any run of characters but `/`, `**/` any run of folders.

/** Every tier, in the order `pnpm run ci` runs them. */
export const TIERS = ["unit", "e2e", "matrix", "soak"];

/** @type {{ tier: string, pattern: string, why: string }[]} */
export const RULES = [
  { tier: "matrix", pattern: "tools/runtimes/test/**", why: "Node 22/24, Bun, Deno; npm pack and install" },
  { tier: "matrix", pattern: "scripts/test/packages.test.ts", why: "npm pack of each built package" },
  { tier: "matrix", pattern: "packages/gateway/test/mcporter.test.ts", why: "mcporter on Node 24, from the runtimes" },
  { tier: "soak", pattern: "tools/reliability/test/soak.test.ts", why: "the soak run" },
  { tier: "soak", pattern: "apps/bench/test/**", why: "the benchmark smoke runs (built CLI, mcporter)" },
  { tier: "e2e", pattern: "apps/cli/test/**", why: "the built CLI as a subprocess; Chromium, Redis, tmux" },
  { tier: "e2e", pattern: "apps/example/test/**", why: "the built example, bundled and run in Chromium" },
  { tier: "e2e", pattern: "apps/example-agent/test/**", why: "the built agent as a subprocess" },
  { tier: "e2e", pattern: "packages/store-redis/test/**", why: "redis-server" },
  { tier: "e2e", pattern: "**/test/*-browser.test.ts", why: "Chromium" },
  { tier: "e2e", pattern: "**/test/*-terminal.test.ts", why: "tmux" },
  { tier: "e2e", pattern: "packages/client/test/tracing.test.ts", why: "a child process imports the built client" },
  { tier: "e2e", pattern: "packages/client/test/error-paths.test.ts", why: "a child process imports the built client" },
  { tier: "e2e", pattern: "packages/jsonrpc/test/errors.test.ts", why: "reads the built files" },
  {
    tier: "e2e",
    pattern: "packages/oauth/test/shared-tokens.test.ts",
    why: "a child process imports the built package",
  },
  {
    tier: "e2e",
    pattern: "packages/transport-http/test/tls.test.ts",
    why: "a child process imports the built package",
  },
  { tier: "e2e", pattern: "scripts/test/exports.test.ts", why: "imports each package's dist" },
  {
    tier: "e2e",
    pattern: "packages/manager/test/user-servers.test.ts",
    why: "a child process imports the built manager; bun from the runtimes",
  },
  {
    tier: "e2e",
    pattern: "scripts/test/readme-code.test.ts",
    why: "compiles the READMEs' examples against the built packages",
  },
  {
    tier: "e2e",
    pattern: "packages/gateway/test/readme-example.test.ts",
    why: "the README's example as a program, on the built gateway",
  },
  {
    tier: "e2e",
    pattern: "**/inspector/test/start.test.ts",
    why: "serves the built page (dist/web, the inspector's bundle)",
  },
  {
    tier: "e2e",
    pattern: "packages/daemon/test/run-daemon.test.ts",
    why: "a child process runs the built daemon (runDaemon from dist/)",
  },
  {
    tier: "e2e",
    pattern: "packages/codegen/test/generate.test.ts",
    why: "compiles and runs generated code against the built client",
  },
];

/** Projects that run whole in one tier: the gateway's suites again with the fast path off. */
export const PROJECT_TIERS = { "gateway-sdk-path": "e2e" };

/** A glob pattern as a regular expression over a `/`-separated path. */
export function globRegExp(pattern) {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (pattern.startsWith("**/", i)) {
      source += "(?:.*/)?";
      i += 2;
    } else if (pattern.startsWith("**", i)) {
      source += ".*";
      i += 1;
    } else if (c === "*") source += "[^/]*";
    else source += c.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

const compiled = RULES.map((rule) => ({ ...rule, regexp: globRegExp(rule.pattern) }));

/** The tier of a test file, by its path from the repository root. */
export function tierOf(path) {
  return compiled.find((rule) => rule.regexp.test(path))?.tier ?? "unit";
}
