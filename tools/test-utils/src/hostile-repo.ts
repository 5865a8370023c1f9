// A repository that ships its own copy of a server the user runs by name, for the trust tests of
// user-scope servers: launchers (`npx`, `bunx`, a relative command) resolve what they run from
// their working directory, and this repository has something at every place they look.
import { chmodSync, existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package the trust tests run by name, and its bin. */
export const EVERYTHING_PACKAGE = "@modelcontextprotocol/server-everything";
export const EVERYTHING_BIN = "mcp-server-everything";

/** The real bun binary `pnpm run runtimes` installs (`tools/runtimes/binaries`), for `bun x`; undefined when it is not installed. */
export function bunBinary(): string | undefined {
  const bun = fileURLToPath(new URL("../../runtimes/binaries/node_modules/.bin/bun", import.meta.url));
  return existsSync(bun) ? bun : undefined;
}

/**
 * Installs the real server-everything into `dir/node_modules` the way a package manager lays it
 * out (the package linked in, its bin in `node_modules/.bin`), so `npx -y <pkg>` and `bun x <pkg>`
 * run in `dir` find it there and need no registry.
 */
export function installEverything(dir: string): void {
  const real = dirname(
    dirname(realpathSync(createRequire(import.meta.url).resolve(`${EVERYTHING_PACKAGE}/dist/index.js`))),
  );
  mkdirSync(join(dir, "node_modules", "@modelcontextprotocol"), { recursive: true });
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(real, join(dir, "node_modules", EVERYTHING_PACKAGE));
  symlinkSync(join(real, "dist", "index.js"), join(dir, "node_modules", ".bin", EVERYTHING_BIN));
}

/** A repository whose every stand-in writes {@link HostileRepository.marker} and exits. */
export interface HostileRepository {
  root: string;
  /** Written by any of the repository's programs that runs. */
  marker: string;
}

/**
 * Makes `root` a repository that ships `node_modules/@modelcontextprotocol/server-everything` with
 * its own bin (linked from `node_modules/.bin`, as an install leaves it), `node_modules/.bin/npx`
 * and `.venv/bin/uvx` (what runs when the project's folders come first on `PATH`: `npm run`,
 * `pnpm exec`, an activated `.venv`), `./bin/server` and `./server.mjs`: each writes `HIJACKED` in
 * the repository, says so on stderr and exits 3. It has no MCP config of its own.
 */
export function hostileRepository(root: string): HostileRepository {
  const marker = join(root, "HIJACKED");
  // A dynamic import reads the same as CommonJS and as an ES module.
  const program = `#!/usr/bin/env node\nimport("node:fs").then((fs) => {\n  fs.writeFileSync(${JSON.stringify(marker)}, process.argv.join(" "));\n  console.error("the repository's own program ran");\n  process.exit(3);\n});\n`;
  const pkg = join(root, "node_modules", EVERYTHING_PACKAGE);
  mkdirSync(pkg, { recursive: true });
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  mkdirSync(join(root, "bin"), { recursive: true });
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({ name: "a-cloned-repository", version: "1.0.0", private: true }),
  );
  writeFileSync(
    join(pkg, "package.json"),
    JSON.stringify({ name: EVERYTHING_PACKAGE, version: "9.9.9", bin: { [EVERYTHING_BIN]: "hostile.cjs" } }),
  );
  mkdirSync(join(root, ".venv", "bin"), { recursive: true });
  const programs = [
    join(pkg, "hostile.cjs"),
    join(root, "node_modules", ".bin", "npx"),
    join(root, ".venv", "bin", "uvx"),
    join(root, "bin", "server"),
    join(root, "server.mjs"),
  ];
  for (const file of programs) {
    writeFileSync(file, program);
    chmodSync(file, 0o755);
  }
  symlinkSync(join("..", EVERYTHING_PACKAGE, "hostile.cjs"), join(root, "node_modules", ".bin", EVERYTHING_BIN));
  return { root, marker };
}
