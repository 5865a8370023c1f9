// The fast path (fast.ts) against the SDK server's: two gateways over one manager, one with the
// fast path and one without, get the same raw 2026-07-28 requests; their answers — status,
// content type, every byte of the body — and their audit entries must be the same.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "../src/index.js";
import { startParityPair, TOKENS, type ParityPair } from "./parity.js";
import { postCall } from "./raw-call.js";

describe("the fast path answers as the SDK server does", () => {
  let pair: ParityPair;
  let urls: ParityPair["urls"];
  let audits: ParityPair["audits"];

  beforeAll(async () => {
    pair = await startParityPair();
    ({ urls, audits } = pair);
  });

  afterAll(async () => {
    await pair.stop();
  });

  /** One raw tools/call to a gateway: what came back on the wire. */
  async function raw(
    kind: "fast" | "sdk",
    path: string,
    caller: string,
    name: string,
    args: unknown,
    id: string | number = 1,
  ): Promise<string> {
    const token = [...TOKENS].find(([, c]) => c.name === caller)![0];
    const got = await postCall({
      url: `${urls[kind]}${path}`,
      headers: { authorization: `Bearer ${token}` },
      name,
      args,
      id,
    });
    return `${got.status} ${got.contentType} retry-after=${got.retryAfter}\n${got.text}`;
  }

  const cases: [string, string, string, string, unknown, (string | number)?][] = [
    ["a 2025 upstream's result", "", "alice", "p1h__flood", { count: 1 }],
    ["a 2026-07-28 upstream's result (its serverInfo not passed on)", "", "alice", "v2__add", { a: 2, b: 40 }],
    ["a tool error", "", "alice", "v2__add", { a: "x" }],
    ["no arguments", "", "alice", "odd__echo", undefined],
    ["a result with _meta of its own", "", "alice", "odd__echo", { text: "hi" }, "string-id"],
    ["structured content that is no object", "", "alice", "odd__listy", {}],
    ["structured content and text", "", "alice", "odd__texty", {}],
    ["a tool that throws upstream", "", "alice", "odd__failing", {}],
    ["an unknown tool", "", "alice", "p1h__nope", {}],
    ["a tool the caller may not call", "", "bob", "v2__add", { a: 1, b: 1 }],
    ["search_tools", "", "alice", "search_tools", { query: "add numbers", limit: 2 }],
    ["a view's renamed tool", "/view/ops", "alice", "emit_logs", { count: 2 }],
    ["a view's tool by its real name", "/view/ops", "alice", "p1h__flood", { count: 2 }],
    ["a server's endpoint", "/v2", "alice", "add", { a: 1, b: 2 }],
  ];

  it.each(cases)("%s", async (_label, path, caller, name, args, id) => {
    const [fast, sdk] = [
      await raw("fast", path, caller, name, args, id),
      await raw("sdk", path, caller, name, args, id),
    ];
    expect(fast).toBe(sdk);
  });

  it("a caller's rate: the same answers call by call, 429 with Retry-After past it", async () => {
    for (let i = 0; i < 4; i++) {
      const [fast, sdk] = [
        await raw("fast", "", "bob", "p1h__flood", { count: 1 }),
        await raw("sdk", "", "bob", "p1h__flood", { count: 1 }),
      ];
      expect(
        fast
          .replace(/try again in \d+ s/, "")
          .replace(/retryAfterMs":\d+/, "")
          .replace(/retry-after=\d+/, ""),
      ).toBe(
        sdk
          .replace(/try again in \d+ s/, "")
          .replace(/retryAfterMs":\d+/, "")
          .replace(/retry-after=\d+/, ""),
      );
      if (i === 3) expect(fast).toMatch(/^429 /);
    }
  });

  it("the same audit entries, but for their times", () => {
    const strip = (entries: AuditEntry[]): unknown[] =>
      entries.filter((e) => e.method === "tools/call").map(({ time: _time, durationMs: _durationMs, ...rest }) => rest);
    expect(strip(audits.fast).length).toBeGreaterThan(10);
    expect(strip(audits.fast)).toEqual(strip(audits.sdk));
    // No caller went away: a call that failed is an rpc-error, never "cancelled" (its response closing afterwards aborts its signal too).
    for (const kind of ["fast", "sdk"] as const) {
      expect(
        audits[kind].filter((e) => e.outcome === "cancelled"),
        kind,
      ).toEqual([]);
      expect(
        audits[kind].some((e) => e.outcome === "rpc-error"),
        kind,
      ).toBe(true);
    }
  });
});
