// Bundles the page (web/) into dist/web/app.js and app.css: one minified ES module, Preact inside.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
mkdirSync(join(root, "dist/web"), { recursive: true });
await build({
  entryPoints: [join(root, "web/main.tsx")],
  outfile: join(root, "dist/web/app.js"),
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2022",
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "none",
  supported: { "inline-script": false },
  logLevel: "warning",
});
// The MCP Apps sandbox proxy: a page of its own, on its own origin (see web/sandbox.ts).
await build({
  entryPoints: [join(root, "web/sandbox.ts")],
  outfile: join(root, "dist/web/sandbox.js"),
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2022",
  legalComments: "none",
  supported: { "inline-script": false },
  logLevel: "warning",
});
copyFileSync(join(root, "web/app.css"), join(root, "dist/web/app.css"));
