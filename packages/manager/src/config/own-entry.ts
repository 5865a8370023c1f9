// An entry of our own file from a command line's flags (`mcp config add`), and the values in it
// that look like secrets written in the clear.
import type { MCPServerConfig } from "@mcp/client";
import { isCredentialHeader } from "@mcp/jsonrpc/internal";
import { splitCommandLine } from "./command-line.js";
import { looksLikeSecret } from "./own-file.js";

/** What {@link ownEntry} makes an entry of: one of `stdio`, `http`, `sse`, and its environment or headers. */
export interface OwnEntryFlags {
  /** A command line, split as a shell would (`node server.js --port 3`). */
  stdio?: string | undefined;
  http?: string | undefined;
  sse?: string | undefined;
  /** For a stdio server. */
  env?: Record<string, string> | undefined;
  /** For an HTTP server. */
  headers?: Record<string, string> | undefined;
}

/**
 * The entry these flags describe: `{ command, args, env }` for `stdio`, else `{ type, url, headers }`
 * (`stdio` wins over `http`, `http` over `sse`; empty `args`, `env` and `headers` are left out).
 * It is not checked: `serverConfigProblems` of `@mcp/client` says what is wrong with it.
 */
export function ownEntry(flags: OwnEntryFlags): MCPServerConfig & { env?: Record<string, string> } {
  if (flags.stdio) {
    const [command, ...args] = splitCommandLine(flags.stdio);
    return { command: command ?? "", ...(args.length ? { args } : {}), ...(flags.env ? { env: flags.env } : {}) };
  }
  return {
    type: flags.http ? "http" : "sse",
    url: (flags.http ?? flags.sse) as string,
    ...(flags.headers ? { headers: flags.headers } : {}),
  };
}

/** A value of an entry that looks like a secret written in the clear. */
export interface ClearSecret {
  /** `header` (any header), or `env` (a variable whose name says credential: `API_KEY`, `TOKEN`, …). */
  kind: "header" | "env";
  key: string;
  value: string;
}

/**
 * The headers, and the environment variables named like credentials, whose value looks like a
 * secret ({@link looksLikeSecret}: a token, not a `${VAR}` reference), headers first: what a file
 * would hold in every copy of it (a project's is often committed).
 */
export function clearSecrets(config: MCPServerConfig): ClearSecret[] {
  const entry = config as { headers?: Record<string, string>; env?: Record<string, string> };
  return [
    ...Object.entries(entry.headers ?? {}).map(([key, value]) => ({ kind: "header" as const, key, value })),
    ...Object.entries(entry.env ?? {})
      .filter(([key]) => isCredentialHeader(key))
      .map(([key, value]) => ({ kind: "env" as const, key, value })),
  ].filter(({ value }) => looksLikeSecret(value));
}
