// Redirects: followed only within the configured origin, a POST only by 307/308, and what a refused
// one says. The policy is @mcp/jsonrpc/internal's (`judgeRedirect`, shared with @mcp/lite); the package README states it.
import { describe, expect, it } from "vitest";
import { HttpError } from "@mcp/jsonrpc";
import type { HttpTransportConfig } from "../src/index.js";
import { sendJson, sse, type Handler } from "./fixture-server.js";
import { fixture, transport } from "./harness.js";

const STATUSES = [301, 302, 303, 307, 308] as const;

/** Answers any request with where and how it arrived. */
const answer: Handler = (req, res) =>
  sendJson(res, { jsonrpc: "2.0", id: req.json?.id ?? 1, result: { at: req.url, method: req.method } });

/** Each way a secret can ride on a request: the config's headers, the auth provider's, the URL's user and password. */
const CREDENTIALS: {
  kind: string;
  secrets: string[];
  config: (url: string) => Partial<HttpTransportConfig> & { url: string };
}[] = [
  {
    kind: "config headers",
    secrets: ["h-bearer", "h-api-key", "h-x-api-key", "h-auth-token", "h-private-token", "h-cookie"],
    config: (url) => ({
      url,
      headers: {
        Authorization: "Bearer h-bearer",
        "Api-Key": "h-api-key",
        "X-Api-Key": "h-x-api-key",
        "X-Auth-Token": "h-auth-token",
        "Private-Token": "h-private-token",
        Cookie: "sid=h-cookie",
      },
    }),
  },
  {
    kind: "auth provider",
    secrets: ["p-bearer", "p-api-key", "p-proof"],
    config: (url) => ({
      url,
      authProvider: {
        headers: () => ({ Authorization: "Bearer p-bearer", "X-Api-Key": "p-api-key", DPoP: "p-proof" }),
      },
    }),
  },
  {
    kind: "URL credentials",
    secrets: [`Basic ${Buffer.from("user:u-password").toString("base64")}`],
    config: (url) => ({ url: url.replace("http://", "http://user:u-password@") }),
  },
];

/** Every header value a server saw, for looking for secrets. */
function headerValues(seen: { headers: Record<string, string | string[] | undefined> }[]): string {
  return JSON.stringify(seen.map((s) => s.headers));
}

describe("the redirect matrix: 5 statuses × same or other origin × where the credentials come from", () => {
  for (const status of STATUSES) {
    const followed = status === 307 || status === 308;
    it(`${status}: ${followed ? "followed within the origin with the body" : "a POST is not turned into a GET"}; to another origin never followed, nothing sent there`, async () => {
      for (const { kind, secrets, config } of CREDENTIALS) {
        const other = await fixture(answer);
        for (const origin of ["same", "other"] as const) {
          const f = await fixture((req, res) => {
            if (req.url !== "/mcp") return answer(req, res);
            res.writeHead(status, { location: origin === "same" ? "/moved" : other.url }).end();
          });
          const t = await transport(config(f.url));
          const outcome = await t.request("tools/call", { name: "send_email" }).catch((e: unknown) => e);
          const what = `${status}, ${origin} origin, ${kind}`;
          if (origin === "same" && followed) {
            expect(outcome, what).toEqual({ at: "/moved", method: "POST" });
            expect(
              f.seen.map((s) => [s.method, s.url]),
              what,
            ).toEqual([
              ["POST", "/mcp"],
              ["POST", "/moved"],
            ]);
            expect(f.seen[1]!.body, what).toBe(f.seen[0]!.body); // 307/308 re-send the body: the first was not processed
            for (const secret of secrets) expect(headerValues(f.seen.slice(1)), what).toContain(secret); // same origin: credentials go on
          } else {
            expect(outcome, what).toBeInstanceOf(HttpError);
            // Where it pointed (with a password from the configured URL shown as [redacted]).
            const target = new URL(origin === "same" ? `${f.origin}/moved` : other.url);
            const location = new URL((outcome as HttpError).location!);
            expect([location.origin, location.pathname], what).toEqual([target.origin, target.pathname]);
            expect(outcome, what).toMatchObject({ status });
            expect((outcome as Error).message, what).toContain(
              `HTTP ${status}: a redirect to ${location.href}, not followed: `,
            );
            expect((outcome as Error).message, what).toContain(
              origin === "other" ? "another origin" : "only 307 and 308 are followed for a POST",
            );
            expect(
              f.seen.map((s) => s.url),
              what,
            ).toEqual(["/mcp"]);
            for (const secret of secrets) expect(JSON.stringify(outcome) + String(outcome), what).not.toContain(secret);
          }
          expect(other.seen, what).toEqual([]); // not a request, so not a header, a credential or a session id
        }
      }
    });
  }

  it("a GET (the listener's stream) follows any redirect within the origin, and none to another", async () => {
    const other = await fixture((_req, res) => void sse(res));
    const f = await fixture((req, res) => {
      if (req.url === "/mcp") return void res.writeHead(302, { location: "/stream" }).end();
      if (req.url === "/stream") return void sse(res);
      res.writeHead(404).end();
    });
    const t = await transport({ url: f.url, headers: { "X-Api-Key": "get-secret" } });
    await t.startSSEListener();
    expect(f.seen.map((s) => [s.method, s.url])).toEqual([
      ["GET", "/mcp"],
      ["GET", "/stream"],
    ]);

    const g = await fixture((_req, res) => void res.writeHead(307, { location: other.url }).end());
    const u = await transport({ url: g.url, headers: { "X-Api-Key": "get-secret" } });
    await expect(u.startSSEListener()).rejects.toMatchObject({ status: 307, location: other.url });
    expect(other.seen).toEqual([]);
  });
});

describe("redirects that cannot be followed", () => {
  for (const [location, why] of [
    ["ftp://127.0.0.1/mcp", "it is not an http or https URL (ftp:)"],
    ["http://[::1", "it is not a valid URL"],
  ] as const) {
    it(`Location ${location}: an HttpError naming it, not a TypeError`, async () => {
      const f = await fixture((_req, res) => void res.writeHead(307, { location }).end());
      const t = await transport({ url: f.url });
      const error = await t.request("tools/list").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ status: 307, message: expect.stringContaining(why) as string });
    });
  }

  it("more than 5 in a row: an HttpError naming the last Location", async () => {
    const f = await fixture((_req, res) => void res.writeHead(307, { location: `/hop${f.seen.length}` }).end());
    const t = await transport({ url: f.url });
    const error = await t.request("tools/list").catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 307,
      location: `${f.origin}/hop6`,
      message: expect.stringContaining("more than 5 redirects") as string,
    });
    expect(f.seen).toHaveLength(6); // the request and 5 redirects
  });
});

describe("only the configured origin sets the session", () => {
  it("a redirect target's Mcp-Session-Id is never stored nor sent to the configured server", async () => {
    const other = await fixture((req, res) =>
      sendJson(res, { jsonrpc: "2.0", id: req.json.id, result: { fixated: true } }, 200, {
        "mcp-session-id": "attacker-session",
      }),
    );
    const f = await fixture((req, res) => {
      if (req.json?.method === "initialize")
        return sendJson(res, { jsonrpc: "2.0", id: req.json.id, result: {} }, 200, {
          "mcp-session-id": "real-session",
        });
      if (req.json?.method === "tools/list") return void res.writeHead(307, { location: other.url }).end();
      sendJson(res, { jsonrpc: "2.0", id: req.json?.id ?? null, result: {} });
    });
    const t = await transport({ url: f.url });
    await t.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "0" },
    });
    await expect(t.request("tools/list")).rejects.toBeInstanceOf(HttpError);
    expect(t.sessionId).toBe("real-session");
    await t.request("ping");
    expect(f.seen.at(-1)!.headers["mcp-session-id"]).toBe("real-session");
    expect(other.seen).toEqual([]);
  });
});

// One redirect policy for @mcp/transport-http and @mcp/lite (@mcp/jsonrpc/internal): the same
// refusals in the same words; lite's redirect.test.ts asserts these strings too.
describe("a refused redirect says what @mcp/lite says", () => {
  it("another origin, and a 302 of a POST, word for word", async () => {
    const other = await fixture(answer);
    const away = await fixture((_req, res) => void res.writeHead(307, { location: other.url }).end());
    const refused = async (url: string): Promise<string> =>
      (await transport({ url })).request("tools/list").then(
        () => "followed",
        (e: unknown) => (e as Error).message,
      );
    expect(await refused(away.url)).toBe(
      `HTTP 307: a redirect to ${other.url}, not followed: it points to another origin (${other.origin}), and redirects are followed only within ${away.origin}; if you trust the new address, use it as the server's URL`,
    );
    const found = await fixture((_req, res) => void res.writeHead(302, { location: "/moved" }).end());
    expect(await refused(found.url)).toBe(
      `HTTP 302: a redirect to ${found.origin}/moved, not followed: a 302 would turn the POST into a GET without its body; only 307 and 308 are followed for a POST`,
    );
    expect(other.seen).toEqual([]);
  });
});

describe("a browser's manual redirect", () => {
  // Under `redirect: "manual"` a browser's fetch answers a redirect with an opaque response: status
  // 0, no headers, so nowhere to follow. Node's fetch shows the real 3xx, so the browser's answer is
  // made by hand here (Chromium itself runs the bundle in apps/example/web).
  const opaque = {
    type: "opaqueredirect",
    status: 0,
    statusText: "",
    headers: new Headers(),
    body: null,
    ok: false,
    redirected: false,
    url: "",
  } as unknown as Response;

  it("is refused as a redirect that hides where it points, not reported as HTTP 0", async () => {
    let calls = 0;
    const t = await transport({
      url: "http://127.0.0.1:9/mcp",
      fetch: () => {
        calls++;
        return Promise.resolve(opaque);
      },
    });
    const error = await t.request("tools/list", {}).catch((caught: unknown) => caught);
    expect(HttpError.isInstance(error)).toBe(true);
    expect((error as HttpError).message).toBe(
      "HTTP redirect (the browser hides its status): a redirect, not followed: it does not say where it points (an opaque redirect)",
    );
    expect((error as HttpError).message).not.toContain("HTTP 0");
    expect(calls).toBe(1);
    await t.close();
  });
});
