// MCP 2026-07-28's Mcp-Param-* headers (x-mcp-header) and their value encoding.
import { encodeHeaderValue } from "@mcp/transport-http";
import { describe, expect, it } from "vitest";
import { headerParamsOf, headersFor } from "../src/stateless.js";
import type { Tool } from "../src/index.js";

const tool = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): Tool => ({
  name: "t",
  inputSchema: { type: "object", properties, ...extra },
});

describe("x-mcp-header", () => {
  it("collects annotated string, integer and boolean properties, nested through properties only", () => {
    const checked = headerParamsOf(
      tool({
        region: { type: "string", "x-mcp-header": "Region" },
        opts: { type: "object", properties: { level: { type: "integer", "x-mcp-header": "Level" } } },
        query: { type: "string" },
      }),
    );
    expect(checked).toEqual({
      params: [
        { path: ["region"], header: "Mcp-Param-Region" },
        { path: ["opts", "level"], header: "Mcp-Param-Level" },
      ],
    });
  });

  it.each([
    ["an empty name", tool({ v: { type: "string", "x-mcp-header": "" } })],
    ["a space in the name", tool({ v: { type: "string", "x-mcp-header": "My Region" } })],
    ["a non-ASCII name", tool({ v: { type: "string", "x-mcp-header": "Région" } })],
    ["a number property", tool({ v: { type: "number", "x-mcp-header": "Score" } })],
    ["an object property", tool({ v: { type: "object", "x-mcp-header": "Data" } })],
    [
      "a duplicate, ignoring case",
      tool({ a: { type: "string", "x-mcp-header": "MyField" }, b: { type: "string", "x-mcp-header": "myfield" } }),
    ],
    [
      "an annotation inside items",
      tool({ list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } }),
    ],
    ["an annotation under $defs", tool({}, { $defs: { x: { type: "string", "x-mcp-header": "X" } } })],
  ])("refuses the tool for %s", (_why, t) => {
    expect(headerParamsOf(t)).toHaveProperty("invalid");
  });

  it("mirrors present values; omits null and missing ones", () => {
    const params = [
      { path: ["region"], header: "Mcp-Param-Region" },
      { path: ["priority"], header: "Mcp-Param-Priority" },
      { path: ["verbose"], header: "Mcp-Param-Verbose" },
      { path: ["gone"], header: "Mcp-Param-Gone" },
    ];
    expect(headersFor(params, { region: "us-west1", priority: 42, verbose: false, gone: null })).toEqual({
      "Mcp-Param-Region": "us-west1",
      "Mcp-Param-Priority": "42",
      "Mcp-Param-Verbose": "false",
    });
    expect(headersFor(params, {})).toBeUndefined();
  });

  it.each([
    ["us-west1", "us-west1"],
    ["us west 1", "us west 1"],
    ["", ""],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
  ])("encodes %j as %j (the spec's table)", (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
  });
});
