// The shapes the pool's parts share (what an upstream needs of a host session, and what they report).

/** The protocol era an upstream was opened in: `"2025"` (with `initialize`) or `"2026-07-28"` (stateless, `server/discover`). */
export type Era = "2025" | "2026-07-28";

/** `"shared"`: any host that asks no questions of servers; `"dedicated"`: one host session's own (see the README). */
export type Sharing = "shared" | "dedicated";

/** What the pool tells about one upstream ({@link ServerPool.statuses}). */
export interface UpstreamStatus {
  /** The server's name as the first host named it. */
  name: string;
  /** The configuration's fingerprint (see {@link fingerprintOf}): no secret in it. */
  fingerprint: string;
  /** Where the configuration came from, as the first host said (a file path, or how it was given). */
  source: string | undefined;
  sharing: Sharing;
  era: Era | undefined;
  /** `"cached"`: hosts were answered from the tool cache and no process runs yet (it starts on the first call that needs it). */
  state: "cached" | "starting" | "ready" | "failed" | "closed";
  pid: number | undefined;
  /** The server's resident memory in bytes (Linux: `/proc/<pid>/status`), undefined where unknown. */
  rssBytes: number | undefined;
  /** CPU seconds the server's processes have used (Linux), undefined where unknown. */
  cpuSeconds: number | undefined;
  /** Requests served for hosts (all methods the pool forwards). */
  calls: number;
  /** Requests in flight now, and waiting for the concurrent-call cap. */
  inFlight: number;
  queued: number;
  restarts: number;
  /** Since the last request, or since the last host left (ms). */
  idleMs: number;
  hosts: HostStatus[];
}

/** One attached host session, as {@link UpstreamStatus.hosts} lists it. */
export interface HostStatus {
  /** The host session's id in the pool. */
  id: number;
  /** What the host told when it attached (the shim's pid, its parent's, …). */
  info: Record<string, unknown>;
  /** The `clientInfo` of the host's `initialize` (2025), when it sent one. */
  clientInfo: unknown;
  calls: number;
  /** Bytes of this host's requests the pool holds now (received, not answered yet). */
  queuedBytes: number;
  /** The most `queuedBytes` has been in this session (the pool's `maxQueuedBytes` bounds it, plus one request). */
  peakQueuedBytes: number;
  /** Bytes of this host's requests held unstarted now (past `maxQueuedBytes` in service; the pool's `maxHeldBytes` bounds it, plus one request). */
  heldBytes: number;
  /** The most `heldBytes` has been in this session. */
  peakHeldBytes: number;
}

/** How a pool opens an upstream: the params of its `initialize`, or of its `server/discover`. */
export type Opening =
  { era: "2025"; params: Record<string, unknown> } | { era: "2026-07-28"; params: Record<string, unknown> };

/** What an upstream needs of a host session attached to it. */
export interface PoolHost {
  /** Host requests now being served. */
  readonly inFlight: number;
  /** The level of logs the host asked for, if it did. */
  readonly level: string | undefined;
  /** A server's question for this host (a dedicated upstream's only). */
  ask(method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
  /** A server notification for this host (`level`: a log's, to filter by). */
  deliver(method: string, params: unknown, level?: unknown): void;
  /** The pool ends the session and tells the host why. */
  end(reason: string): void;
  status(): HostStatus;
}
