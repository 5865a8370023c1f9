// What makes two stdio server configurations the same process: the command, its arguments, its
// folder and the environment it would actually be given (built as the transport builds it). Values
// of the environment are hashed before they go into the fingerprint, so the fingerprint (and
// anything that shows it) never carries a secret.

import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { buildChildEnv, type StdioTransportConfig } from "@mcp/transport-stdio";

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/**
 * The fingerprint of a stdio server configuration: a hex SHA-256 of its command, arguments, folder
 * (resolved) and the environment the server would get (`env` on top of the safe base taken from
 * `parentEnv`, or all of it with `inheritEnv`), each value hashed on its own. Two configurations
 * with the same fingerprint run the same process; any difference (another token, another folder)
 * gives another fingerprint. Clocks (`timeout`, grace periods) and `serverName` are not part of it.
 *
 * @example
 * fingerprintOf({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] });
 */
export function fingerprintOf(config: StdioTransportConfig): string {
  const env = buildChildEnv(config.env, config.inheritEnv === true, config.parentEnv ?? process.env);
  const hashedEnv = Object.keys(env)
    .sort()
    .map((name) => [name, sha256(env[name] ?? "")]);
  return sha256(
    JSON.stringify({
      command: config.command,
      args: config.args ?? [],
      cwd: resolve(config.cwd ?? "."),
      env: hashedEnv,
    }),
  );
}
