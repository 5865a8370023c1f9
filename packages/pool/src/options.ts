// The options of a ServerPool and of a host's attach, and the pool's event names.

import type { StdioTransportConfig } from "@mcp/transport-stdio";
import type { ToolCache } from "@mcp/manager/config";
import type { PoolApprovals } from "./approvals.js";

/** Options of {@link ServerPool}. */
export interface ServerPoolOptions {
  /** How long an upstream with no host attached is kept before it is ended (ms). Default 10 minutes. */
  idleMs?: number | undefined;
  /** Concurrent `tools/call` requests per upstream; more wait in line (first come, first served). Default 16. */
  maxConcurrentCalls?: number | undefined;
  /** The `clientInfo` the pool opens shared upstreams with. Default `{ name: "mcp-pool", version: "0.1.0" }`. */
  clientInfo?: { name: string; version: string } | undefined;
  /**
   * Resident memory a server's process tree may use (bytes, Linux): one over it is ended and its
   * hosts are told why. Default: no cap.
   */
  maxRssBytes?: number | undefined;
  /**
   * Bytes of one host session's requests in service (started, not answered) past which its further
   * requests are held unstarted; its notifications (a cancellation) and answers still go through.
   * Default 1 MiB.
   */
  maxQueuedBytes?: number | undefined;
  /**
   * Bytes of one host session's requests held unstarted past which {@link HostSession.receive}
   * returns false: stop reading that host until `onDrain` (nothing is dropped). Default: `maxQueuedBytes`.
   */
  maxHeldBytes?: number | undefined;
  /** How often the memory cap is checked (ms). Default 5000. */
  rssCheckMs?: number | undefined;
  /**
   * Whether a host may be served the server it attached for, asked once per session before
   * anything starts. Default: {@link managerApprovals}`()`, the manager's approvals (a project
   * file's entry runs only once approved, as it is now). To serve everything, say so:
   * `approvals: () => ({ approved: true })`.
   */
  approvals?: PoolApprovals | undefined;
  /**
   * Where a shared server's `initialize` answer and whole tool list are remembered (the manager's
   * `ToolCache`, e.g. `new FileToolCache()`): with one, a host's `initialize` and `tools/list` are
   * answered from a list this pool read from the live server, and the process starts on the
   * host's first request that needs it. Default: none (every opening starts the server).
   */
  toolCache?: ToolCache | undefined;
}

/** What a host says when it attaches: the server, where its configuration came from, and who it is. */
export interface AttachOptions {
  /** The server's name (as the host's configuration names it). */
  name: string;
  /** The resolved stdio configuration (command, args, env, cwd, parentEnv …). */
  config: StdioTransportConfig;
  /** Where the configuration came from (shown by `mcp ps`; a file in the project folder the approval check does not know is refused). */
  source?: string | undefined;
  /** The folder the host works in, whose project files the approval check reads. Default: `config.cwd`, else the pool's own folder. */
  project?: string | undefined;
  /**
   * The values the host expanded `${VAR}` in its config files with, when they are not the pool's
   * own process environment (a daemon started elsewhere): the approval check reads the files with
   * them on top of its own. Used for the check only, not kept. Default: none.
   */
  env?: Record<string, string> | undefined;
  /** Anything that identifies the host to a person (the shim's pid and its parent's). */
  info?: Record<string, unknown> | undefined;
  /** Every message for the host (responses, notifications, the server's questions), as JSON-RPC objects. */
  send: (message: unknown) => void;
  /** After `receive` returned false, the host may be read again (its held requests back under `maxHeldBytes`). */
  onDrain?: (() => void) | undefined;
  /** The pool ended the session (its server failed twice, or was killed): tell the host and close. */
  onEnd?: ((reason: string) => void) | undefined;
}

/**
 * Events a {@link ServerPool} emits, each with one object argument: `"spawned"` (`{ name, key, pid }`),
 * `"crashed"` (`{ name, key, restarting }`), `"reaped"` (`{ name, key, pid, reason: "idle" | "session ended" | "killed" | "over memory cap" }`).
 */
export type PoolEventName = "spawned" | "crashed" | "reaped";
