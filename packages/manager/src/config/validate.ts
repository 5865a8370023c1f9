import { serverConfigProblems } from "@mcp/client";

/**
 * Every problem with one server config, as sentences; empty when it is valid (`command` xor
 * `url`, a known `type`, the URL, and the shapes of `args`, `env`, `headers` and `timeout`). The
 * same checks `connectToServer` makes, all of them at once.
 */
export function validateServerConfig(_name: string, config: unknown): string[] {
  return serverConfigProblems(config).map((problem) => problem.message);
}
