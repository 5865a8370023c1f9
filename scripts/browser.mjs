#!/usr/bin/env node
// Makes sure the browser tests have their browser: Debian's Chromium at /usr/bin/chromium (or
// $CHROMIUM_PATH). Installs Debian's `chromium` package when it is missing and this user may
// (root, or sudo without a password); nothing downloads a browser of its own.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (existsSync(path)) {
  console.log(`Chromium for the browser tests: ${path}`);
  process.exit(0);
}
if (process.env.CHROMIUM_PATH) {
  console.error(`CHROMIUM_PATH=${path} does not exist.`);
  process.exit(1);
}
const root = typeof process.getuid === "function" && process.getuid() === 0;
const sudo = !root && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
if (!root && !sudo) {
  console.error("The browser tests need Chromium: install Debian's chromium package (sudo apt-get install chromium), or set CHROMIUM_PATH to a Chromium binary.");
  process.exit(1);
}
const run = (args) => execFileSync(sudo ? "sudo" : args[0], sudo ? args : args.slice(1), { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
console.log("Installing Debian's chromium for the browser tests (apt-get)…");
run(["apt-get", "update", "-qq"]);
run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"]);
if (!existsSync(path)) {
  console.error(`apt-get installed chromium, but ${path} is not there.`);
  process.exit(1);
}
console.log(`Chromium for the browser tests: ${path}`);
