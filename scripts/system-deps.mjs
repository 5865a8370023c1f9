#!/usr/bin/env node
// Makes sure the tests have the programs they start from Debian's packages: Chromium at
// /usr/bin/chromium (or $CHROMIUM_PATH) for the browser tests, and redis-server at
// /usr/bin/redis-server (or $REDIS_SERVER_PATH) for the Redis store and gateway replica tests.
// Installs the missing packages in one apt-get when this user may (root, or sudo without a
// password); nothing downloads a program of its own.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const wanted = [
  {
    what: "Chromium for the browser tests",
    env: "CHROMIUM_PATH",
    path: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    pkg: "chromium",
  },
  {
    what: "redis-server for the Redis tests",
    env: "REDIS_SERVER_PATH",
    path: process.env.REDIS_SERVER_PATH ?? "/usr/bin/redis-server",
    pkg: "redis-server",
  },
];
const missing = [];
for (const item of wanted) {
  if (existsSync(item.path)) console.log(`${item.what}: ${item.path}`);
  else if (process.env[item.env]) {
    console.error(`${item.env}=${item.path} does not exist.`);
    process.exit(1);
  } else missing.push(item);
}
if (missing.length === 0) process.exit(0);
const root = typeof process.getuid === "function" && process.getuid() === 0;
const sudo = !root && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
if (!root && !sudo) {
  for (const item of missing)
    console.error(
      `The tests need ${item.what.split(" for ")[0]}: install Debian's ${item.pkg} package (sudo apt-get install ${item.pkg}), or set ${item.env}.`,
    );
  process.exit(1);
}
const run = (args) =>
  execFileSync(sudo ? "sudo" : args[0], sudo ? args : args.slice(1), {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
console.log(`Installing Debian's ${missing.map((m) => m.pkg).join(" and ")} for the tests (apt-get)…`);
run(["apt-get", "update", "-qq"]);
// redis-server's package starts a system service where there is an init system; the tests start their own on free ports.
run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", ...missing.map((m) => m.pkg)]);
for (const item of missing) {
  if (!existsSync(item.path)) {
    console.error(`apt-get installed ${item.pkg}, but ${item.path} is not there.`);
    process.exit(1);
  }
  console.log(`${item.what}: ${item.path}`);
}
