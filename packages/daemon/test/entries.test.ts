// The light entries stay light: what `@mcp/daemon/client` (loaded by every `mcp call`) and
// `@mcp/daemon/shim` (the Node shim, one process per host session and server) load at run time,
// followed through the package's own files. Type-only imports load nothing and are not followed.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const src = new URL("../src/", import.meta.url);

/** The modules `file` loads at run time: its value imports and re-exports (not `import type` / `export type`). */
function runtimeImports(file: string): string[] {
  const code = readFileSync(new URL(file, src), "utf8");
  const found: string[] = [];
  for (const match of code.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)";/gms)) {
    if (match[2] === undefined) found.push(match[3]!);
  }
  return found;
}

/** Every module an entry loads: the package's own files followed, others as named. */
function closure(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of runtimeImports(file)) {
      if (specifier.startsWith("./")) visit(specifier.slice(2).replace(/\.js$/, ".ts"));
      else if (!specifier.startsWith("node:")) packages.add(specifier);
    }
  };
  visit(entry);
  return { files: [...files].sort(), packages: [...packages].sort() };
}

describe("the entries' run-time imports", () => {
  it("@mcp/daemon/shim: the relay, the wire, the socket check and the errors only", () => {
    expect(closure("shim.ts")).toEqual({
      files: ["errors.ts", "private.ts", "shim.ts", "wire.ts"],
      packages: [],
    });
  });

  it("@mcp/daemon/client: nothing of the pool, the managers or the daemon's server", () => {
    const { files, packages } = closure("client.ts");
    expect(packages).toEqual(["@mcp/transport-stdio"]);
    for (const heavy of ["server.ts", "views.ts", "pool-socket.ts", "light-relay.ts", "light-check.ts"])
      expect(files).not.toContain(heavy);
  });

  it("@mcp/daemon: the daemon itself (what the two above leave out is here), with the manager's config part only", () => {
    const { files, packages } = closure("index.ts");
    expect(files).toEqual(expect.arrayContaining(["server.ts", "views.ts", "pool-socket.ts", "light-relay.ts"]));
    expect(packages).toEqual(expect.arrayContaining(["@mcp/pool", "@mcp/manager/config"]));
    // The whole manager (clients, OAuth, HTTP) is loaded by the first call (views.ts), not at start.
    expect(packages).not.toContain("@mcp/manager");
    expect(readFileSync(new URL("views.ts", src), "utf8")).toContain('import("@mcp/manager")');
  });

  it("@mcp/pool loads the manager's config part only", () => {
    const pool = new URL("../../pool/src/", import.meta.url);
    for (const file of readdirSync(pool).filter((name) => name.endsWith(".ts"))) {
      const code = readFileSync(new URL(file, pool), "utf8");
      expect(code, file).not.toMatch(/from "@mcp\/manager";/);
    }
  });
});
