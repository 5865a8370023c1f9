// Stored sign-ins, for a gateway several callers can use: an HTTP server with no credentials in its
// config and no `credentials` entry is still reached as one identity when the manager's token store
// holds an OAuth sign-in for it (`mcp auth <server>` saved one). The store is read asynchronously:
// createGateway (synchronous) starts the reads, each request first waits for those of the servers
// the manager holds then (a server added later is looked up at the first request after), and a
// server is not served until its read says there is no sign-in (see sharing.ts).

import type { MCPServerConfig } from "@mcp/client";
import { SharedCredentialsError, credentialsOf, manyCallers, type CallerSources } from "./sharing.js";

/** What {@link storedSignIns} gives the gateway. */
export interface StoredSignIns {
  /** Whether `server` may not be served (yet): its sign-in is being looked up, or it has one. */
  refuses(server: string): boolean;
  /**
   * Starts the look-up of each of `servers` not looked up yet; a promise that settles when none of
   * them is being looked up any more, or undefined when none is (a request waits for it first).
   */
  wait(servers: Iterable<string>): Promise<void> | undefined;
}

/**
 * For a gateway several callers can use (else undefined): looks up a stored sign-in for every plain
 * HTTP server (no credentials of its own, no `credentials` entry) in `configs`, and for servers the
 * manager gains later when first asked about; `warn` names each refused one once.
 */
export function storedSignIns(
  configs: Readonly<Record<string, MCPServerConfig>>,
  configOf: (server: string) => MCPServerConfig | undefined,
  hasSignIn: (config: MCPServerConfig) => Promise<boolean>,
  options: CallerSources & { credentials?: Readonly<Record<string, unknown>> | undefined },
  warn: (message: string) => void = () => {},
): StoredSignIns | undefined {
  if (!manyCallers(options)) return undefined;
  /** Per config object: "pending" while the store is read, then whether it holds a sign-in. */
  const state = new WeakMap<MCPServerConfig, "pending" | boolean>();
  const looking = new WeakMap<MCPServerConfig, Promise<void>>();
  const plain = (server: string, config: MCPServerConfig): boolean =>
    (config.type === "http" || config.type === "sse") &&
    options.credentials?.[server] === undefined &&
    credentialsOf(config).length === 0;
  const lookUp = (server: string, config: MCPServerConfig): Promise<void> => {
    state.set(config, "pending");
    const done = hasSignIn(config).then(
      (signedIn) => {
        state.set(config, signedIn);
        if (signedIn)
          warn(
            `${new SharedCredentialsError([server], { [server]: ["a stored OAuth sign-in"] }).message}. It is not served`,
          );
      },
      // A store that cannot be read: refuse, saying why, rather than serve on trust.
      (error: unknown) => {
        state.set(config, true);
        warn(`server "${server}" is not served: its stored sign-ins could not be read (${(error as Error).message})`);
      },
    );
    looking.set(config, done);
    return done;
  };
  for (const [server, config] of Object.entries(configs)) if (plain(server, config)) void lookUp(server, config);
  return {
    wait(servers) {
      let pending: Promise<void>[] | undefined;
      for (const server of servers) {
        const config = configOf(server);
        if (!config || !plain(server, config)) continue;
        if (state.get(config) === undefined) void lookUp(server, config);
        if (state.get(config) === "pending") (pending ??= []).push(looking.get(config)!);
      }
      return pending && Promise.all(pending).then(() => undefined);
    },
    refuses(server) {
      const config = configOf(server);
      if (!config || !plain(server, config)) return false;
      const known = state.get(config);
      if (known === undefined) {
        void lookUp(server, config);
        return true;
      }
      return known !== false;
    },
  };
}
