import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { CLIENT_VERSION } from "../src/internal.js";

it("CLIENT_VERSION is package.json's version (src/version.ts is written by scripts/version.mjs on build)", () => {
  const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  expect(CLIENT_VERSION).toBe(version);
});
