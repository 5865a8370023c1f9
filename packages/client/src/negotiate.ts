import { NetworkError, UnsupportedVersionError, type MCPTransport } from "@mcp/jsonrpc";
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

/** How long a stdio probe (`server/discover`) waits before taking the server for a 2025-era one. */
export const DISCOVER_PROBE_MS = 2000;

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
  const { name, transport, capabilities, clientInfo, signal, timeout } = n;
  let version = STATELESS_PROTOCOL_VERSIONS[0]!;
  let retried = false;
  for (;;) {
    transport.setProtocolVersion?.(version);
    let raw: unknown;
    try {
      raw = await transport.request(
        "server/discover",
        withStatelessMeta({}, { version, capabilities, clientInfo, logLevel: undefined }),
        {
          signal: signal,
          // A 2025-era stdio server may ignore an unknown method: the probe has its own short bound.
          timeout: bounded ? Math.min(DISCOVER_PROBE_MS, timeout) : Infinity,
        },
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
