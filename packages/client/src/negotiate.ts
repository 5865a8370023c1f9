import { NetworkError, RequestTimeoutError, UnsupportedVersionError, type MCPTransport } from "@mcp/jsonrpc";
import { InvalidInitializeResultError, UnsupportedProtocolVersionError } from "./errors.js";
import {
  choiceAfterRejection,
  isStatelessError,
  META,
  STATELESS_PROTOCOL_VERSIONS,
  withStatelessMeta,
} from "./stateless.js";
import type { ClientCapabilities, Implementation, InitializeResult, ServerCapabilities } from "./types.js";

// Which protocol era a server speaks, and on which version: `server/discover` (2026-07-28) first,
// `initialize` (2025 era) when the server does not know it.

/** The protocol version this client offers. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";
/** Every 2025-era protocol version this client accepts from a server (through `initialize`), newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/** Every version this client offers, in order: the stateless revision first, then the 2025 era. */
export const OFFERED_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28", ...SUPPORTED_PROTOCOL_VERSIONS];

/** What `server/discover` returns (MCP 2026-07-28); unknown fields kept, caching hints included. */
export interface DiscoverResult {
  supportedVersions: string[];
  capabilities?: ServerCapabilities | undefined;
  instructions?: string | undefined;
  ttlMs?: number | undefined;
  cacheScope?: "public" | "private" | undefined;
  _meta?: Record<string, unknown> | undefined;
  [key: string]: unknown;
}

/** What a negotiation needs: the transport, what the client says about itself, and the handshake's clock. */
export interface Negotiation {
  name: string;
  transport: MCPTransport;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  /** Aborts with the handshake (its timeout, or the caller's signal). */
  signal: AbortSignal;
  timeout: number;
  /** Whether `server/discover` gets the short probe bound (stdio, where a 2025 server may stay silent). */
  boundedProbe: boolean;
  /**
   * Settles at the server's first output (stdio: `StdioTransport.firstOutput`): the bounded probe's
   * short clock starts there. Without it the clock starts when the probe is sent.
   */
  serverOutput?: Promise<void> | undefined;
}

/**
 * The protocol family a connection speaks, named by the revision that began it:
 * - `"2025"`: a session opened with `initialize` (revisions 2024-11-05 through 2025-11-25);
 * - `"2026-07-28"`: the stateless revisions (2026-07-28 and later): `server/discover`, `_meta` on every request.
 * The exact revision is `connection.protocolVersion`.
 */
export type ProtocolEra = "2025" | "2026-07-28";

/** What the handshake learned, in either era. */
export type Handshake =
  | {
      era: "2025";
      protocolVersion: string;
      serverInfo: Implementation;
      capabilities: ServerCapabilities;
      instructions: string | undefined;
    }
  | {
      era: "2026-07-28";
      protocolVersion: string;
      serverInfo: Implementation;
      capabilities: ServerCapabilities;
      instructions: string | undefined;
      discover: DiscoverResult;
    };

/**
 * How long a stdio probe (`server/discover`) waits, once the server has shown a sign of life (its
 * first output), before taking it for a 2025-era one that ignores the method.
 */
export const DISCOVER_PROBE_MS = 2000;
/**
 * How long a stdio probe waits while the server has written nothing at all (it may still be loading:
 * an answer is the first thing a silent modern server writes) — at most half the connect timeout,
 * never less than the 2025 bound (`DISCOVER_PROBE_MS`, or the whole timeout when shorter).
 */
export const DISCOVER_SILENT_MS = 10_000;

/**
 * The bounded probe's clock: aborts at `DISCOVER_PROBE_MS` after the server's first output (or
 * after the probe was sent, if that is later), and at the silent bound in any case. A server that
 * starts slowly and silently is not mistaken for one that ignores `server/discover`: sending
 * `initialize` to a dual-era server pins its process to the 2025 era.
 */
function probeClock(n: Negotiation): { signal: AbortSignal; stop: () => void } {
  const { signal: handshake, timeout, serverOutput } = n;
  const controller = new AbortController();
  const sent = Date.now();
  const short = Math.min(DISCOVER_PROBE_MS, timeout);
  const silent = serverOutput ? Math.min(DISCOVER_SILENT_MS, Math.max(short, timeout / 2)) : short;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const abortAt = (at: number): void => {
    clearTimeout(timer);
    const waited = at - sent;
    timer = setTimeout(
      () => controller.abort(new RequestTimeoutError(waited, { method: "server/discover" })),
      Math.max(0, at - Date.now()),
    );
  };
  abortAt(sent + silent);
  void serverOutput?.then(() => {
    if (!stopped) abortAt(Math.min(sent + silent, Date.now() + short));
  });
  const onHandshakeAbort = (): void => controller.abort(handshake.reason);
  if (handshake.aborted) onHandshakeAbort();
  else handshake.addEventListener("abort", onHandshakeAbort, { once: true });
  return {
    signal: controller.signal,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      handshake.removeEventListener("abort", onHandshakeAbort);
    },
  };
}

function asDiscoverResult(value: unknown): DiscoverResult | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const result = value as Record<string, unknown>;
  if (!Array.isArray(result["supportedVersions"]) || !result["supportedVersions"].every((v) => typeof v === "string"))
    return undefined;
  if (
    result["capabilities"] !== undefined &&
    (typeof result["capabilities"] !== "object" || result["capabilities"] === null)
  )
    return undefined;
  return result as unknown as DiscoverResult;
}

/**
 * `server/discover` with a 2026-07-28 version: the handshake, or `"2025"` for a server of the 2025 era,
 * or a clear error. A version the server refuses is retried once with one it names.
 */
export async function discover(n: Negotiation, bounded = n.boundedProbe): Promise<Handshake | "2025"> {
  const { name, transport, capabilities, clientInfo, signal } = n;
  let version = STATELESS_PROTOCOL_VERSIONS[0]!;
  let retried = false;
  for (;;) {
    transport.setProtocolVersion?.(version);
    // A 2025-era stdio server may ignore an unknown method: the probe has its own clock.
    const clock = bounded ? probeClock(n) : undefined;
    let raw: unknown;
    try {
      raw = await transport.request(
        "server/discover",
        withStatelessMeta({}, { version, capabilities, clientInfo, logLevel: undefined }),
        { signal: clock?.signal ?? signal, timeout: Infinity },
      );
    } catch (error) {
      if (signal.aborted) throw error;
      if (UnsupportedVersionError.isInstance(error)) {
        const next = choiceAfterRejection(error, retried, SUPPORTED_PROTOCOL_VERSIONS);
        if ("retry" in next) {
          version = next.retry;
          retried = true;
          continue;
        }
        if ("initialize" in next) return "2025";
        throw new UnsupportedProtocolVersionError(
          name,
          OFFERED_PROTOCOL_VERSIONS.join(", "),
          error.supported,
          OFFERED_PROTOCOL_VERSIONS,
        );
      }
      if (isStatelessError(error)) throw error; // a 2026-07-28 server refused us: falling back would hide why
      if (NetworkError.isInstance(error)) throw error;
      return "2025"; // a 4xx without a 2026-07-28 error body, any other JSON-RPC error, or silence
    } finally {
      clock?.stop();
    }
    // Something that is not a DiscoverResult comes from a server that does not know the method.
    const result = asDiscoverResult(raw);
    if (!result) return "2025";
    const mutual = STATELESS_PROTOCOL_VERSIONS.find((v) => result.supportedVersions.includes(v));
    if (mutual === undefined) {
      if (result.supportedVersions.some((v) => SUPPORTED_PROTOCOL_VERSIONS.includes(v))) return "2025";
      throw new UnsupportedProtocolVersionError(
        name,
        OFFERED_PROTOCOL_VERSIONS.join(", "),
        result.supportedVersions,
        OFFERED_PROTOCOL_VERSIONS,
      );
    }
    if (mutual !== version && !retried) {
      version = mutual;
      retried = true;
      continue;
    }
    const serverInfo = (result._meta?.[META.serverInfo] as Implementation | undefined) ??
      (result["serverInfo"] as Implementation | undefined) ?? { name, version: "" };
    return {
      era: "2026-07-28",
      protocolVersion: version,
      serverInfo,
      capabilities: result.capabilities ?? {},
      instructions: result.instructions,
      discover: result,
    };
  }
}

/** `initialize` (2025 era): the negotiated version, or a clear error. */
export async function initialize(n: Negotiation): Promise<Handshake> {
  const { name, transport, capabilities, clientInfo, signal } = n;
  transport.setProtocolVersion?.(undefined);
  let raw: unknown;
  try {
    raw = await transport.request(
      "initialize",
      { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities, clientInfo },
      { signal: signal, timeout: Infinity },
    );
  } catch (error) {
    // A 2026-07-28-only server that was too slow for the probe refuses initialize naming its
    // versions: it is a 2026-07-28 server after all, so ask it properly, with no probe bound.
    if (
      UnsupportedVersionError.isInstance(error) &&
      STATELESS_PROTOCOL_VERSIONS.some((v) => error.supported.includes(v))
    ) {
      const stateless = await discover(n, false);
      if (stateless !== "2025") return stateless;
    }
    throw error;
  }
  const result = validateInitializeResult(name, raw);
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
    throw new UnsupportedProtocolVersionError(
      name,
      LATEST_PROTOCOL_VERSION,
      result.protocolVersion,
      SUPPORTED_PROTOCOL_VERSIONS,
    );
  }
  return {
    era: "2025",
    protocolVersion: result.protocolVersion,
    serverInfo: result.serverInfo,
    capabilities: result.capabilities,
    instructions: result.instructions,
  };
}

function validateInitializeResult(name: string, value: unknown): InitializeResult {
  if (typeof value !== "object" || value === null) throw new InvalidInitializeResultError(name, "not an object");
  const result = value as Record<string, unknown>;
  if (typeof result["protocolVersion"] !== "string")
    throw new InvalidInitializeResultError(name, "protocolVersion is missing or not a string");
  const serverInfo = result["serverInfo"] as Record<string, unknown> | undefined;
  if (typeof serverInfo !== "object" || serverInfo === null || typeof serverInfo["name"] !== "string") {
    throw new InvalidInitializeResultError(name, "serverInfo.name is missing");
  }
  if (
    result["capabilities"] !== undefined &&
    (typeof result["capabilities"] !== "object" || result["capabilities"] === null)
  ) {
    throw new InvalidInitializeResultError(name, "capabilities is not an object");
  }
  return {
    ...(result as unknown as InitializeResult),
    capabilities: (result["capabilities"] as ServerCapabilities | undefined) ?? {},
  };
}
