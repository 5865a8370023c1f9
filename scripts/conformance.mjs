#!/usr/bin/env node
// Runs the official MCP conformance suite's client scenarios (those needing no OAuth) against
// apps/conformance-client and prints "N passed, N failed". A scenario passes only with zero
// failures and zero warnings. The suite's CLI needs Node >= 22 (fs.globSync): the `node` npm
// package, a dev dependency of the app, brings that binary from the registry.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "..", "..");
const app = join(root, "apps", "conformance-client");
const node22 = join(app, "node_modules", ".bin", "node");
const cli = join(app, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
// The 0.2.0 line (revision 2026-07-28), installed under an alias beside 0.1.16.
const cliNext = join(app, "node_modules", "conformance-next", "dist", "index.js");
const client = join(app, "dist", "index.js");
const LEGACY = ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"].map((scenario) => ({ scenario, cli, args: [], label: `0.1.16 ${scenario}` }));
const MODERN = ["tools_call", "request-metadata", "sep-2322-client-request-state", "http-standard-headers", "http-custom-headers", "http-invalid-tool-headers", "json-schema-ref-no-deref"].map((scenario) => ({
  scenario,
  cli: cliNext,
  args: ["--spec-version", "2026-07-28"],
  label: `0.2.0 (2026-07-28) ${scenario}`,
}));
// Authorization (@mcp/oauth through the conformance client): every auth scenario of 0.1.16, and
// those the 0.2.0 line adds for 2026-07-28.
const AUTH_0_1 = [
  "metadata-default", "metadata-var1", "metadata-var2", "metadata-var3", "basic-cimd",
  "scope-from-www-authenticate", "scope-from-scopes-supported", "scope-omitted-when-undefined", "scope-step-up", "scope-retry-limit",
  "token-endpoint-auth-basic", "token-endpoint-auth-post", "token-endpoint-auth-none", "pre-registration",
  "2025-03-26-oauth-metadata-backcompat", "2025-03-26-oauth-endpoint-fallback",
  "resource-mismatch", "offline-access-scope", "offline-access-not-supported", "client-credentials-jwt", "client-credentials-basic", "cross-app-access-complete-flow",
].map((name) => ({ scenario: `auth/${name}`, cli, args: [], label: `0.1.16 auth/${name}` }));
const AUTH_0_2 = ["resource-mismatch", "offline-access-scope", "iss-supported", "iss-not-advertised", "iss-supported-missing", "iss-wrong-issuer", "iss-unexpected", "iss-normalized", "metadata-issuer-mismatch", "authorization-server-migration"].map((name) => ({
  scenario: `auth/${name}`,
  cli: cliNext,
  args: ["--spec-version", "2026-07-28"],
  label: `0.2.0 (2026-07-28) auth/${name}`,
}));
// The 0.2.0 line's extension scenarios take no --spec-version.
const AUTH_0_2_EXTENSIONS = ["client-credentials-jwt", "client-credentials-basic", "enterprise-managed-authorization"].map((name) => ({ scenario: `auth/${name}`, cli: cliNext, args: [], label: `0.2.0 (extension) auth/${name}` }));
const ALL = [...LEGACY, ...MODERN, ...AUTH_0_1, ...AUTH_0_2, ...AUTH_0_2_EXTENSIONS];
const only = process.argv.slice(2);
const runs = only.length > 0 ? ALL.filter((r) => only.some((o) => r.scenario === o || (o.endsWith("*") && r.scenario.startsWith(o.slice(0, -1))))) : ALL;

for (const [what, path] of [["Node 22 binary", node22], ["conformance CLI", cli], ["conformance CLI 0.2.0", cliNext], ["built client (run `pnpm build`)", client]]) {
  if (!existsSync(path)) {
    console.error(`conformance: missing ${what}: ${path}`);
    process.exit(1);
  }
}

const out = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
let passed = 0;
let failed = 0;
try {
  for (const { scenario, cli: suite, args, label } of runs) {
    const dir = join(out, label.replace(/[^a-z0-9-]+/gi, "_"));
    // `exec` so that the suite's timeout kills the client itself, not just a shell wrapper.
    const command = `exec "${process.execPath}" "${client}"`;
    const run = spawnSync(node22, [suite, "client", "--command", command, "--scenario", scenario, ...args, "--timeout", "30000", "-o", dir], {
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, NO_COLOR: "1" },
    });
    // Results are in DIR/<scenario>-<time>/checks.json; a scenario named auth/x nests one deeper.
    const results = existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith("checks.json")).map((f) => join(dir, String(f))) : [];
    const checks = results.flatMap((f) => JSON.parse(readFileSync(f, "utf8")));
    const bad = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
    const ok = run.status === 0 && checks.length > 0 && bad.length === 0;
    if (ok) passed++;
    else failed++;
    const counts = ["SUCCESS", "FAILURE", "WARNING"].map((s) => `${checks.filter((c) => c.status === s).length} ${s.toLowerCase()}`).join(", ");
    console.log(`${ok ? "PASS" : "FAIL"} ${label} (${counts}; exit ${run.status})`);
    if (!ok) {
      for (const c of bad) console.log(`    ${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
      if (checks.length === 0 || run.status !== 0) console.log((run.stdout + run.stderr).split("\n").slice(-30).map((l) => `    | ${l}`).join("\n"));
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
console.log(`conformance: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
