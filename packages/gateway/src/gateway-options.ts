// What the gateway's core (gateway.ts) is made with and works in: its options, the scope one
// server instance serves, what forwarded work gets, and the limits and names both share.

import type { ConnectOptions, LoggingLevel, MCPServerConnection, RequestOptions } from "@mcp/client";
import type { ServerContext } from "@modelcontextprotocol/server";
import type { AuditSink } from "./audit.js";
import type { PerUserAuth } from "./lanes.js";
import type { RateLimitStore } from "./limits.js";
import type { Outbox } from "./outbox.js";
import type { Caller } from "./policy.js";
import type { GatewayTracing } from "./spans.js";
import type { View } from "./views.js";

/** Options of {@link Gateway}. */
export interface GatewayOptions {
  /** `serverInfo` of the aggregate server. */
  name?: string | undefined;
  version?: string | undefined;
  /** Problems worth a line on stderr (a resource URI two servers claim, a question no caller can answer). */
  warn?: ((message: string) => void) | undefined;
  /**
   * Every caller the gateway serves. With exactly one, what the upstream servers send that no
   * request ties (a 2025-era stdio server's questions and logs) is that caller's. With several,
   * nobody's: each caller then gets its own connection to such a server (see `lanes.ts`).
   */
  callers?: readonly Caller[] | undefined;
  /** The options of a caller's own upstream connections, as the manager's (`clientInfo`, …). */
  connect?:
    | Omit<
        ConnectOptions,
        | "signal"
        | "onClose"
        | "onNotification"
        | "onLog"
        | "onError"
        | "transport"
        | "onSampling"
        | "onElicitation"
        | "roots"
      >
    | undefined;
  /** How long a caller's own upstream connection stays open with nothing in flight (ms). */
  laneIdleMs?: number | undefined;
  /** Most requests one caller may have in flight upstream at once when there are several callers (a 2026-07-28 call waiting for its caller's answer counts), so one caller cannot take every connection to a shared server. Default 16. */
  maxInFlightPerCaller?: number | undefined;
  /** Views by name (see `views.ts`): served at `<path>/view/<name>`, and to callers whose `view` names them. */
  views?: ReadonlyMap<string, View> | undefined;
  /** Offer `search_tools` on every endpoint: it finds tools among those the caller may use there. */
  toolSearch?: boolean | undefined;
  /** Where audit entries go, one per request handled (see `audit.ts`); none: no audit, at no cost. */
  audit?: AuditSink | undefined;
  /** The key of the audit log's `argsHash` (an HMAC): the same for every replica. Default: a random one (hashes compare within this process). */
  auditKey?: string | Uint8Array | undefined;
  /** Where callers' rate-limit buckets live (default: this process's memory; share one store between replicas). */
  rateLimits?: RateLimitStore | undefined;
  /** Serve the hottest requests on paths of the gateway's own, with the SDK server's answer byte for byte, instead of the SDK server's pipeline: the plainest 2026-07-28 `tools/call` (fast.ts), and a plain `tools/list`, `ping` or (when its caller can be asked nothing) `tools/call` of a 2025 session (session-fast.ts). Default true; false sends every request through the SDK server. */
  fastPath?: boolean | undefined;
  /** Servers reached with each user's own credentials (exchanged, or consented), on that user's own connection (see exchange.ts, consent.ts). */
  upstreamAuth?: PerUserAuth | undefined;
  /** Whether a server of the manager may be served (createGateway's sharing check of servers added later). Default: all. */
  servable?: ((server: string) => boolean) | undefined;
  /** An OpenTelemetry API (`@opentelemetry/api`, or one of its shape): a server span per tool call, the caller's trace continued (see spans.ts). */
  tracing?: GatewayTracing | undefined;
}

/** Default of {@link GatewayOptions.maxInFlightPerCaller}. */
export const MAX_IN_FLIGHT_PER_CALLER = 16;

/** How long an upstream request, or a question to a caller, may take unless the caller says: long (progress resets the clock; the caller can cancel). */
export const UPSTREAM_TIMEOUT_MS = 600_000;

/** The protocol era a server instance serves (the SDK tells the factory). */
export type Era = "legacy" | "modern";

/** What one server instance serves: every server (`undefined`), one, or a view; for whom, where. */
export interface Scope {
  server: string | undefined;
  caller: Caller;
  era: Era;
  /** Where the caller came: `/mcp`, `/mcp/<server>`, `/mcp/view/<name>`, `stdio` (for the audit log). */
  endpoint?: string | undefined;
  /** The view served (its tools only). */
  view?: View | undefined;
  /** The caller's W3C trace context of this request (HTTP, 2026-07-28): sent on with its tool call's upstream requests. */
  trace?: { traceparent: string; tracestate?: string } | undefined;
}

/** What {@link Gateway.forward} gives the work it runs upstream. */
export interface Upstream {
  /** Aborted when the caller cancels (or, for 2026-07-28, never comes back to answer). */
  signal: AbortSignal;
  /** The caller's round now being served: progress and logs go to it. */
  round: () => ServerContext;
  /** The caller's connection of its own to the server, when it needs one; else the manager's is used. */
  lane: MCPServerConnection | undefined;
  /** Options every upstream request of this work carries: its signal, and `relatedTo` (whose it is). */
  options: RequestOptions;
  /** The log level the caller asked for (see asking.ts `logLevelOf`): a tool call carries it upstream. */
  logLevel: LoggingLevel | undefined;
  /** Where what the server sends about this work goes, in its order: progress is sent through it (questions and logs are already). */
  outbox: Outbox;
}

/** The SDK server's method that tells its caller a list changed. */
export const LIST_CHANGED = {
  tools: "sendToolListChanged",
  prompts: "sendPromptListChanged",
  resources: "sendResourceListChanged",
} as const;
