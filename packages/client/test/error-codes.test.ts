// Each layer owns its error codes: @mcp/jsonrpc's `McpErrorCode` names only its own, each package
// above declares its own and composes the ones below (`ClientErrorCode` = the client's | both
// transports' | jsonrpc's). The runtime codes are unchanged; `instanceof` and `.code` narrow.
import { McpError, type McpErrorCode } from "@mcp/jsonrpc";
import { SseEndpointError, type TransportHttpErrorCode } from "@mcp/transport-http";
import { SpawnError, type TransportStdioErrorCode } from "@mcp/transport-stdio";
import { describe, expect, expectTypeOf, it } from "vitest";
import { UiResourceError } from "../src/apps.js";
import {
  CapabilityNotSupportedError,
  ConnectionTimeoutError,
  InvalidConfigError,
  InvalidInitializeResultError,
  NotInProtocolRevisionError,
  PaginationError,
  TransportClosedError,
  UnknownServerTypeError,
  UnsupportedProtocolVersionError,
  type ClientErrorCode,
} from "../src/index.js";
import { SkillNotFoundError, SkillVerificationError } from "../src/skills.js";

describe("error codes compose upward", () => {
  it("the lowest layer names none of the layers above it; each union holds its own and the ones below", () => {
    expectTypeOf<"spawn_failed">().not.toExtend<McpErrorCode>();
    expectTypeOf<"sse_endpoint">().not.toExtend<McpErrorCode>();
    expectTypeOf<"connection_timeout">().not.toExtend<McpErrorCode>();
    expectTypeOf<"spawn_failed">().toExtend<TransportStdioErrorCode>();
    expectTypeOf<"sse_endpoint">().not.toExtend<TransportStdioErrorCode>();
    expectTypeOf<McpErrorCode>().toExtend<TransportHttpErrorCode>();
    expectTypeOf<TransportStdioErrorCode | TransportHttpErrorCode>().toExtend<ClientErrorCode>();
    expectTypeOf<"connection_timeout">().toExtend<ClientErrorCode>();
  });

  it("each class keeps its runtime code, and instanceof narrows `.code` to it", () => {
    const errors: McpError[] = [
      new UnknownServerTypeError("websocket", "docs"),
      new ConnectionTimeoutError("docs", 5),
      new UnsupportedProtocolVersionError("docs", "2025-11-25", "1999-01-01", ["2025-11-25"]),
      new CapabilityNotSupportedError("docs", "tools", "tools/list"),
      new PaginationError("repeated cursor", "tools/list", 2),
      new InvalidInitializeResultError("docs", "no serverInfo"),
      new NotInProtocolRevisionError("docs", "ping", "2026-07-28"),
      new UiResourceError("docs", "ui://x", "not html"),
      new SkillVerificationError("docs", "skill://x/SKILL.md", "digest", "mismatch"),
      new SkillNotFoundError("docs", "x", [], []),
      new SpawnError("nope", Object.assign(new Error("spawn nope ENOENT"), { code: "ENOENT" })),
      new SseEndpointError("no endpoint event"),
    ];
    expect(errors.map((error) => error.code)).toEqual([
      "unknown_server_type",
      "connection_timeout",
      "unsupported_protocol_version",
      "capability_not_supported",
      "pagination_error",
      "invalid_initialize_result",
      "not_in_protocol_revision",
      "ui_resource",
      "skill_verification_failed",
      "skill_not_found",
      "spawn_failed",
      "sse_endpoint",
    ]);
    for (const error of errors) expect(error).toBeInstanceOf(McpError);
    const unknownType: unknown = errors[0];
    expect(unknownType instanceof InvalidConfigError).toBe(true); // an UnknownServerTypeError is an InvalidConfigError with its own code
    if (unknownType instanceof UnknownServerTypeError)
      expectTypeOf(unknownType.code).toEqualTypeOf<"unknown_server_type">();
    const closed: unknown = new TransportClosedError();
    if (closed instanceof TransportClosedError) expectTypeOf(closed.code).toEqualTypeOf<"transport_closed">();
    expect((closed as McpError).code).toBe("transport_closed");
  });
});
