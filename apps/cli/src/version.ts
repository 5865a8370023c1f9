// The CLI's version and the log levels the entry needs, read without loading anything else.
import { readFileSync } from "node:fs";

/** The CLI's version, from its package.json (read once, without loading anything else). */
export const CLI_VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/**
 * The log levels `mcp watch --level` takes (MCP's, lowest first). The same list as
 * `@mcp/inspector`'s `LOG_LEVELS` (a test holds them equal); written here so that the entry does
 * not load the inspector.
 */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
