// The bash the light-shim suites run shim/mcp-shim with: `bash` from PATH, or the one MCP_SHIM_BASH
// names (an absolute path), e.g. a bash 3.2 build, to run the suites as macOS's /bin/bash would.
import { symlinkSync } from "node:fs";
import { join } from "node:path";

/** `bash`, or MCP_SHIM_BASH when set. */
export const shimBash = process.env["MCP_SHIM_BASH"] || "bash";

/** Where a test puts a folder of its own first on PATH: makes `bash` there MCP_SHIM_BASH, when set (`#!/usr/bin/env bash` then finds it). */
export function linkShimBash(bin: string): void {
  if (shimBash !== "bash") symlinkSync(shimBash, join(bin, "bash"));
}
