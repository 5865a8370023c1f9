#!/usr/bin/env node
// Writes src/version.ts from package.json, so the client's default `clientInfo.version` is a
// constant in the code (no `node:module` or JSON import: the package bundles for browsers as it
// is). Run by `build` and by the root `version-packages`; a test checks the two agree.
import { readFileSync, writeFileSync } from "node:fs";

const root = new URL("../", import.meta.url);
const { version } = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
const text = `// \`CLIENT_VERSION\`, written by scripts/version.mjs from package.json; do not edit.\n\n/** This package's version, sent in \`clientInfo\` by default. */\nexport const CLIENT_VERSION = ${JSON.stringify(version)};\n`;
const target = new URL("src/version.ts", root);
let current = "";
try {
  current = readFileSync(target, "utf8");
} catch {
  // first run
}
if (current !== text) writeFileSync(target, text);
