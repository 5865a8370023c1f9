// The gateway's policy engine on its own: tool patterns, rate strings, the memory bucket, bearer
// tokens and loopback checks. The end-to-end tests (features, gateway) show them wired; these pin
// each rule's edges, which a whole gateway cannot reach one at a time.
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseCallers, parseRate } from "../src/callers.js";
import { bearerTokens, hostnameOf, isLoopback, sameOrigin } from "../src/http.js";
import { MemoryRateLimits, RateLimiter } from "../src/limits.js";
import { allowed, callerId, matches, type Caller } from "../src/policy.js";

describe("allowed(): <server>__<tool> patterns", () => {
  it("no lists: everything", () => {
    expect(allowed({}, "crm", "delete")).toBe(true);
  });

  it("an allow list admits only what one of its patterns matches, case-sensitively", () => {
    const caller = { allow: ["crm__read*", "docs"] };
    expect(allowed(caller, "crm", "readNote")).toBe(true);
    expect(allowed(caller, "crm", "write")).toBe(false);
    expect(allowed(caller, "docs", "anything")).toBe(true); // a pattern without __ names a whole server
    expect(allowed(caller, "CRM", "readNote")).toBe(false);
    expect(allowed(caller, "crm", "ReadNote")).toBe(false);
    expect(allowed({ allow: [] }, "crm", "read")).toBe(false); // an empty allow list admits nothing
  });

  it("patterns match a segment at a time: * never crosses the separator", () => {
    expect(matches("a__*", "a", "b__c", false)).toBe(true); // the tool's own name may hold __
    expect(matches("a__*", "a__b", "c", false)).toBe(false);
    expect(matches("*", "a", "anything", false)).toBe(true);
    expect(matches("*__x", "any", "x", false)).toBe(true);
    expect(matches("*__x", "any", "xy", false)).toBe(false);
    expect(matches("a*", "ab", "t", false)).toBe(true);
    expect(matches("a", "ab", "t", false)).toBe(false); // anchored: a server pattern is the whole name
    expect(matches("c.m__t", "crm", "t", false)).toBe(false); // regex characters are literal
    expect(matches("c.m__t", "c.m", "t", false)).toBe(true);
  });

  it("a deny wins over an allow and ignores case", () => {
    const caller = { allow: ["crm__*"], deny: ["crm__delete*"] };
    expect(allowed(caller, "crm", "read")).toBe(true);
    expect(allowed(caller, "crm", "delete")).toBe(false);
    expect(allowed(caller, "crm", "DeleteAll")).toBe(false);
    expect(allowed({ deny: ["CRM"] }, "crm", "read")).toBe(false);
    expect(allowed({ deny: ["crm__delete"] }, "crm", "deleted")).toBe(true);
  });
});

describe("parseRate()", () => {
  it.each([
    ["100/min", 100, 100 / 60],
    ["10/s", 10, 10],
    [" 5 / second ", 5, 5],
    ["2/sec", 2, 2],
    ["60/minutes", 60, 1],
    ["3600/h", 3600, 1],
    ["7200/hours", 7200, 2],
    ["86400/day", 86400, 1],
    ["1.5/s", 1.5, 1.5],
    ["10/MIN", 10, 10 / 60],
  ])("%j is %d at %d per second", (text, count, perSecond) => {
    const rate = parseRate(text)!;
    expect(rate.count).toBe(count);
    expect(rate.perSecond).toBeCloseTo(perSecond, 10);
  });

  it.each(["", "100", "/min", "0/min", "-1/min", "100/week", "100 per min", "100/min/s", "1e3/s", "ten/s", "100/"])(
    "%j is not a rate",
    (text) => {
      expect(parseRate(text)).toBeUndefined();
    },
  );

  it("a callers file with a bad rate is refused, naming the caller and the field", () => {
    const file = (entry: object): string => JSON.stringify({ ops: { token: "ops-token-0123456789", ...entry } });
    expect(() => parseCallers(file({ rate: "lots" }), "callers.json")).toThrow(
      'callers.json: caller "ops": "rate" must be a rate like "100/min"',
    );
    expect(() => parseCallers(file({ rates: { "crm__*": "5/fortnight" } }), "callers.json")).toThrow(
      'caller "ops": "rates.crm__*" must be a rate',
    );
    expect(() => parseCallers(file({ burst: 3 }), "callers.json")).toThrow('"burst" needs a "rate"');
    expect(() => parseCallers(file({ rate: "1/s", burst: 0 }), "callers.json")).toThrow(
      '"burst" must be a whole number of 1 or more',
    );
    const [caller] = parseCallers(file({ rate: "120/min", rates: { "crm__*": "10/min" } }), "callers.json").values();
    expect(caller!.rates).toEqual([
      { pattern: "*", perSecond: 2, burst: 120, text: "120/min" },
      { pattern: "crm__*", perSecond: 10 / 60, burst: 10, text: "10/min" },
    ]);
  });
});

describe("MemoryRateLimits: a token bucket per key", () => {
  afterEach(() => void vi.useRealTimers());

  it("gives `burst` at once, then refuses with when to retry, and refills at the rate", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000 });
    const limits = new MemoryRateLimits();
    for (let i = 0; i < 3; i++) expect(await limits.take("k", 2, 3)).toEqual({ ok: true });
    expect(await limits.take("k", 2, 3)).toEqual({ ok: false, retryAfterMs: 500 }); // one token at 2/s
    expect(await limits.take("other", 2, 3)).toEqual({ ok: true }); // each key its own bucket
    vi.setSystemTime(1_000_000 + 250);
    expect(await limits.take("k", 2, 3)).toEqual({ ok: false, retryAfterMs: 250 }); // half a token so far
    vi.setSystemTime(1_000_000 + 500);
    expect(await limits.take("k", 2, 3)).toEqual({ ok: true });
    expect(await limits.take("k", 2, 3)).toMatchObject({ ok: false });
    // A long pause refills to the burst, no further.
    vi.setSystemTime(1_000_000 + 60_000);
    for (let i = 0; i < 3; i++) expect(await limits.take("k", 2, 3)).toEqual({ ok: true });
    expect(await limits.take("k", 2, 3)).toMatchObject({ ok: false });
  });

  it("RateLimiter applies every rule that matches the target, and refuses with a 429 naming the rate", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000 });
    const limiter = new RateLimiter(new MemoryRateLimits(), () => undefined);
    const caller: Caller = {
      id: "c1",
      name: "ops",
      rates: [
        { pattern: "*", perSecond: 10, burst: 10, text: "10/s" },
        { pattern: "crm__*", perSecond: 1, burst: 1, text: "1/s" },
      ],
    };
    await limiter.check(caller, { server: "crm", name: "read" });
    await expect(limiter.check(caller, { server: "crm", name: "read" })).rejects.toMatchObject({
      code: 429,
      message: expect.stringContaining('Rate limit of caller "ops" reached (1/s for crm__*); try again in 1 s'),
    });
    await limiter.check(caller, { server: "docs", name: "read" }); // crm__* does not apply; * has tokens left
    await limiter.check(caller, undefined);
  });

  it("a store that cannot be reached lets requests through and warns once", async () => {
    const warnings: string[] = [];
    const down = Object.assign(new Error("down"), { unreachable: true });
    const limiter = new RateLimiter({ take: () => Promise.reject(down) }, (m) => void warnings.push(m));
    const caller: Caller = { id: "c1", name: "ops", rates: [{ pattern: "*", perSecond: 1, burst: 1, text: "1/s" }] };
    for (let i = 0; i < 3; i++) await limiter.check(caller, undefined);
    expect(warnings).toEqual([
      "rate limits: the store cannot be reached (down); requests go through unlimited until it answers",
    ]);
  });

  it("a store that answers with an error refuses the request (fail open only when unreachable)", async () => {
    const warnings: string[] = [];
    const limiter = new RateLimiter(
      { take: () => Promise.reject(new Error("WRONGTYPE")) },
      (m) => void warnings.push(m),
    );
    const caller: Caller = { id: "c1", name: "ops", rates: [{ pattern: "*", perSecond: 1, burst: 1, text: "1/s" }] };
    for (let i = 0; i < 2; i++)
      await expect(limiter.check(caller, undefined)).rejects.toMatchObject({
        code: -32603,
        message: 'Rate limit of caller "ops" could not be checked; try again later',
      });
    expect(warnings[0]).toBe("rate limits: the store answered with an error (WRONGTYPE); the request is refused");
  });
});

describe("bearer tokens", () => {
  const reader: Caller = { id: callerId("reader-token-0123456789"), name: "reader" };
  const admin: Caller = { id: callerId("admin-token-0123456789ab"), name: "admin" };
  const authenticate = bearerTokens(
    new Map([
      ["reader-token-0123456789", reader],
      ["admin-token-0123456789ab", admin],
    ]),
  );
  const as = (authorization?: string): unknown =>
    authenticate({ headers: authorization === undefined ? {} : { authorization } } as IncomingMessage);

  it("finds the caller whose token the header carries; the scheme's case does not matter", () => {
    expect(as("Bearer reader-token-0123456789")).toBe(reader);
    expect(as("bearer admin-token-0123456789ab")).toBe(admin);
    expect(as("BEARER   reader-token-0123456789")).toBe(reader);
  });

  it("anything else is no caller: no header, another scheme, a prefix, a longer or differently cased token, two tokens", () => {
    for (const header of [
      undefined,
      "",
      "Bearer",
      "Bearer ",
      "Basic reader-token-0123456789",
      "reader-token-0123456789",
      "Bearer reader-token-012345678",
      "Bearer reader-token-01234567890",
      "Bearer READER-TOKEN-0123456789",
      "Bearer reader-token-0123456789 admin-token-0123456789ab",
    ]) {
      expect(as(header), String(header)).toBeUndefined();
    }
  });

  it("a caller's id is a hash of its token: stable, distinct per token, and not the token", () => {
    expect(callerId("reader-token-0123456789")).toBe(reader.id);
    expect(reader.id).not.toBe(admin.id);
    expect(reader.id).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("loopback and origin checks", () => {
  it("isLoopback: the loopback names and addresses, in any case; nothing else", () => {
    for (const host of ["127.0.0.1", "localhost", "LocalHost", "::1", "[::1]"])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "127.0.0.2", "localhost.example.com", "example.com", "192.168.1.1", ""])
      expect(isLoopback(host), host).toBe(false);
  });

  it("hostnameOf drops the port and keeps an IPv6 address bracketed", () => {
    expect(hostnameOf("127.0.0.1:8080")).toBe("127.0.0.1");
    expect(hostnameOf("localhost")).toBe("localhost");
    expect(hostnameOf("[::1]:8080")).toBe("[::1]");
    expect(isLoopback(hostnameOf("evil.example:80"))).toBe(false);
  });

  it("sameOrigin: the host and port the request was sent to, whatever the scheme; a bad origin is not", () => {
    expect(sameOrigin("http://127.0.0.1:8080", "127.0.0.1:8080")).toBe(true);
    expect(sameOrigin("https://LOCALHOST:8080", "localhost:8080")).toBe(true);
    expect(sameOrigin("http://127.0.0.1:8081", "127.0.0.1:8080")).toBe(false);
    expect(sameOrigin("http://evil.example", "127.0.0.1:8080")).toBe(false);
    expect(sameOrigin("null", "127.0.0.1:8080")).toBe(false);
    expect(sameOrigin("", "127.0.0.1:8080")).toBe(false);
  });
});
