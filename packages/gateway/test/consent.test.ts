// Each user's own consent upstream (credentials mode "consent"): an SDK v2 upstream protected by an
// authorization server of its own (a real oidc-provider, not the callers' issuer) that verifies every
// bearer token and records whose it was. A caller without a token for it is answered with a URL
// elicitation — a URLElicitationRequiredError (-32042) for a 2025-era caller, an input_required
// round for a 2026-07-28 caller that declared URL elicitation, the link in an error otherwise;
// following the URL signs in at that server (its login and consent pages,
// driven over plain HTTP), which redirects to the gateway's callback; the caller's retry then
// reaches the upstream as that user. Two users never share a token; the callback refuses unknown,
// used or missing states and stores nothing then; the store holds only ciphertext.
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startIdp, startV2HttpServer, type TestIdp, type V2HttpServer } from "mcp-test-utils";
import { InvalidConfigError } from "@mcp/client";
import { MCPManager } from "@mcp/manager";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, MemoryConsentStore } from "../src/index.js";
import { callAdd, oidcGateway, type OidcGateway } from "./oidc-helpers.js";

/** A memory store that also keeps every value it was given (to check none is plaintext). */
class WatchedStore extends MemoryConsentStore {
  readonly written: string[] = [];
  override async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.written.push(value);
    await super.set(key, value, ttlMs);
  }
}

const KEY = Buffer.alloc(32, 7).toString("base64");
const CALLERS = new Map([
  ["alice-static-token-0123456789", { id: "alice", name: "alice" }],
  ["bob-static-token-0123456789ab", { id: "bob", name: "bob" }],
  ["carol-static-token-0123456789", { id: "carol", name: "carol" }],
  ["dave-static-token-01234567890", { id: "dave", name: "dave" }],
  ["erin-static-token-01234567890", { id: "erin", name: "erin" }],
]);
const ALICE = "alice-static-token-0123456789";
const BOB = "bob-static-token-0123456789ab";
const CAROL = "carol-static-token-0123456789";

describe("per-user upstream consent (URL elicitation, the gateway's callback, encrypted tokens)", () => {
  let idp: TestIdp;
  let upstream: V2HttpServer;
  let front: OidcGateway;
  const store = new WatchedStore();
  /** An authorization header the upstream accepted → the subject of its token. */
  const verified = new Map<string, string>();

  beforeAll(async () => {
    idp = await startIdp({ clients: ["machine"] });
    const keys = createRemoteJWKSet(new URL(`${idp.issuer}/jwks`));
    const self: { url?: string } = {};
    upstream = await startV2HttpServer({
      legacy: "reject",
      authorize: async (authorization) => {
        const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
        if (!token) return false;
        const { payload } = await jwtVerify(token, keys, { issuer: idp.issuer, audience: self.url! }).catch(() => ({ payload: undefined }));
        if (payload) verified.set(authorization!, payload.sub!);
        return Boolean(payload);
      },
    });
    self.url = upstream.url;
    // The gateway's own connection (its tool list) has a service token of its own.
    const service = await idp.clientToken("machine", upstream.url);
    front = await oidcGateway(
      upstream.url,
      (origin) => ({
        tokens: CALLERS,
        credentials: { up: { mode: "consent", issuer: idp.issuer, scope: "openid offline_access mcp:tools" } },
        consent: { redirectUri: `${origin}/oauth/callback`, key: KEY, store },
      }),
      { up: { type: "http", url: upstream.url, headers: { authorization: `Bearer ${service}` } } },
    );
  }, 60_000);

  afterAll(async () => {
    await front?.stop();
    await upstream?.stop();
    await idp?.stop();
  });

  /** The subject of the token the upstream's tools/call with argument `a` carried. */
  const subjectOf = (a: number): string | undefined => {
    for (const request of upstream.requests) {
      if (request.headers["mcp-method"] !== "tools/call") continue;
      if ((JSON.parse(request.body) as { params: { arguments: { a: number } } }).params.arguments.a === a) return verified.get(request.headers.authorization ?? "") ?? "(refused)";
    }
    return undefined;
  };

  type Answer = { result?: { content: { text: string }[] }; error?: { code: number; message: string; data?: { elicitations?: { mode: string; url: string; elicitationId: string; message: string }[] } } };
  const call = async (token: string, a: number): Promise<Answer> => (await (await callAdd(front.url, token, a, 1)).json()) as Answer;

  /** A 2026-07-28 call (no URL elicitation declared) answered with the link in an error: its URL. */
  const elicited = async (token: string, a: number): Promise<URL> => {
    const answer = await call(token, a);
    expect(answer.error?.code).toBe(-32603);
    expect(answer.error?.message).toMatch(/cannot be sent a link/);
    const [elicitation] = answer.error!.data!.elicitations!;
    expect(elicitation).toMatchObject({ mode: "url", elicitationId: expect.any(String), message: expect.stringContaining("up") });
    expect(subjectOf(a)).toBeUndefined();
    return new URL(elicitation!.url);
  };

  let aliceCallback: URL;

  it("a user without a token is sent the authorization URL; after consenting, the retry reaches the upstream as that user", async () => {
    const url = await elicited(ALICE, 101);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("redirect_uri")).toBe(`${front.origin}/oauth/callback`);
    expect(url.searchParams.get("resource")).toBe(upstream.url);
    aliceCallback = await idp.signIn("alice")(url);
    expect(aliceCallback.origin + aliceCallback.pathname).toBe(`${front.origin}/oauth/callback`);
    const done = await fetch(aliceCallback);
    expect(done.status).toBe(200);
    expect(await done.text()).toMatch(/Authorized/);
    expect((await call(ALICE, 102)).result?.content[0]?.text).toBe("103");
    expect(subjectOf(102)).toBe("alice");
  });

  it("another user still gets an elicitation, and never carries the first user's token", async () => {
    await elicited(BOB, 201);
    const url = await elicited(BOB, 202);
    const callback = await idp.signIn("bob")(url);
    expect((await fetch(callback)).status).toBe(200);
    expect((await call(BOB, 203)).result?.content[0]?.text).toBe("204");
    expect((await call(ALICE, 204)).result?.content[0]?.text).toBe("205");
    expect(subjectOf(203)).toBe("bob");
    expect(subjectOf(204)).toBe("alice");
    const alices = upstream.requests.filter((r) => verified.get(r.headers.authorization ?? "") === "alice").map((r) => r.headers.authorization);
    const bobs = upstream.requests.filter((r) => verified.get(r.headers.authorization ?? "") === "bob").map((r) => r.headers.authorization);
    expect(alices.length).toBeGreaterThan(0);
    expect(bobs.filter((h) => alices.includes(h))).toEqual([]);
  });

  it("the callback refuses a used, unknown or missing state with 400 and stores nothing", async () => {
    const written = store.written.length;
    for (const url of [aliceCallback, new URL(`${front.origin}/oauth/callback?code=x&state=forged`), new URL(`${front.origin}/oauth/callback?code=x`)]) {
      const response = await fetch(url);
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/Unknown, expired or already used/);
    }
    expect(store.written.length).toBe(written);
    // A started consent the user declined at the server: 400, and the user is still asked.
    const url = await elicited(CAROL, 301);
    const declined = new URL(`${front.origin}/oauth/callback?error=access_denied&state=${url.searchParams.get("state")}`);
    const refused = await fetch(declined);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/did not authorize: access_denied/);
    expect(store.written.length).toBe(written + 1);
    await elicited(CAROL, 302);
    expect((await call(ALICE, 303)).result?.content[0]?.text).toBe("304");
  });

  it("the store holds only ciphertext: no token, no user name in what was written", () => {
    const bearers = [...verified.keys()].map((h) => h.slice(7));
    expect(bearers.length).toBeGreaterThan(1);
    expect(store.written.length).toBeGreaterThan(0);
    for (const value of store.written) {
      expect(value).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
      for (const token of bearers) expect(value.includes(token)).toBe(false);
      expect(value.includes("alice")).toBe(false);
    }
  });

  it("an expired token is refreshed at the server, and the call goes on as the same user", async () => {
    // The test holds the key: it opens bob's record, dates its access token in the past, seals it again.
    const key = Buffer.from(KEY, "base64");
    const stored = (await store.get("consent-token:up\nbob")) as string;
    const raw = Buffer.from(stored.slice(3), "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const record = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8")) as { access: string; refresh?: string; until?: number };
    expect(record.refresh).toBeTypeOf("string");
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify({ ...record, until: Date.now() - 1000 }), "utf8"), cipher.final()]);
    await store.set("consent-token:up\nbob", `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`, 60_000);
    expect((await call(BOB, 701)).result?.content[0]?.text).toBe("702");
    expect(subjectOf(701)).toBe("bob");
    const sent = upstream.requests.find((r) => r.headers["mcp-method"] === "tools/call" && r.body.includes('"a":701'))!.headers.authorization;
    expect(sent).not.toBe(`Bearer ${record.access}`);
  });

  it("a stored record that cannot be opened (damaged, or sealed under another key) is a miss: the user is asked again", async () => {
    await store.set("consent-token:up\nalice", "v1.AAAA", 60_000);
    await elicited(ALICE, 401);
  });

  it("a 2025-era caller gets URLElicitationRequiredError (-32042) with the link, and its retry after consenting succeeds", async () => {
    const c = new Client1({ name: "legacy", version: "1" });
    await c.connect(new Http1(new URL(front.url), { requestInit: { headers: { authorization: `Bearer ${CAROL}` } } }));
    try {
      const refused = (await c.callTool({ name: "up__add", arguments: { a: 501, b: 1 } }).catch((error: unknown) => error)) as { code?: number; data?: { elicitations?: { mode: string; url: string }[] } };
      expect(refused.code).toBe(-32042);
      expect(refused.data?.elicitations?.[0]?.mode).toBe("url");
      expect(subjectOf(501)).toBeUndefined();
      const callback = await idp.signIn("carol")(new URL(refused.data!.elicitations![0]!.url));
      expect((await fetch(callback)).status).toBe(200);
      const result = (await c.callTool({ name: "up__add", arguments: { a: 502, b: 1 } })) as { content: { text: string }[] };
      expect(result.content[0]?.text).toBe("503");
      expect(subjectOf(502)).toBe("carol");
    } finally {
      await c.close();
    }
  });

  it("a 2026-07-28 caller that declared URL elicitation is asked in an input_required round; its answer's retry waits for the consent and succeeds", async () => {
    // dave: a fourth user, never asked before.
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } }, "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" } };
    const ask = async (more: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const answer = await fetch(front.url, { method: "POST", headers: { authorization: "Bearer dave-static-token-01234567890", "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "up__add" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "up__add", arguments: { a: 601, b: 1 }, _meta: meta, ...more } }) });
      const text = await answer.text();
      const json = text.startsWith("{") ? text : text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).at(-1)!;
      const body = JSON.parse(json) as { result?: Record<string, unknown>; error?: unknown };
      expect(body.error).toBeUndefined();
      return body.result!;
    };
    const first = await ask({});
    expect(first["resultType"]).toBe("input_required");
    const [key, request] = Object.entries(first["inputRequests"] as Record<string, { method: string; params: { mode: string; url: string } }>)[0]!;
    expect(request).toMatchObject({ method: "elicitation/create", params: { mode: "url" } });
    expect(subjectOf(601)).toBeUndefined();
    // The retry (the user said yes) is sent before the browser is done: it waits for the callback.
    const retry = ask({ requestState: first["requestState"], inputResponses: { [key]: { action: "accept" } } });
    const callback = await idp.signIn("dave")(new URL(request.params.url));
    expect((await fetch(callback)).status).toBe(200);
    const done = await retry;
    expect((done["content"] as { text: string }[])[0]!.text).toBe("602");
    expect(subjectOf(601)).toBe("dave");
  });

  it("two replicas sharing the store and key: a consent started on one completes on the other's callback, and the waiting call on the first goes on", async () => {
    const service = await idp.clientToken("machine", upstream.url);
    const servers = { up: { type: "http" as const, url: upstream.url, headers: { authorization: `Bearer ${service}` } } };
    // Replica B serves the callback URL (the load balancer's); replica A starts the consent.
    const b = await oidcGateway(upstream.url, (origin) => ({ tokens: CALLERS, credentials: { up: { mode: "consent", issuer: idp.issuer, scope: "mcp:tools" } }, consent: { redirectUri: `${origin}/oauth/callback`, key: KEY, store } }), servers);
    const a = await oidcGateway(upstream.url, () => ({ tokens: CALLERS, credentials: { up: { mode: "consent", issuer: idp.issuer, scope: "mcp:tools" } }, consent: { redirectUri: `${b.origin}/oauth/callback`, key: KEY, store } }), servers);
    try {
      const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } }, "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" } };
      const ask = async (more: Record<string, unknown>): Promise<Record<string, unknown>> => {
        const answer = await fetch(a.url, { method: "POST", headers: { authorization: "Bearer erin-static-token-01234567890", "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "up__add" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "up__add", arguments: { a: 801, b: 1 }, _meta: meta, ...more } }) });
        const text = await answer.text();
        const json = text.startsWith("{") ? text : text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).at(-1)!;
        return (JSON.parse(json) as { result: Record<string, unknown> }).result;
      };
      const first = await ask({});
      const [key, request] = Object.entries(first["inputRequests"] as Record<string, { params: { url: string } }>)[0]!;
      const retry = ask({ requestState: first["requestState"], inputResponses: { [key]: { action: "accept" } } });
      retry.catch(() => undefined);
      const callback = await idp.signIn("erin")(new URL(request.params.url));
      expect(callback.origin).toBe(b.origin);
      const done = await fetch(callback);
      expect(`${done.status} ${await done.text()}`).toMatch(/^200 Authorized/);
      // A learns of B's callback from the store (it looks every second while a call waits).
      expect(((await retry)["content"] as { text: string }[])[0]!.text).toBe("802");
      expect(subjectOf(801)).toBe("erin");
      expect(((await (await callAdd(b.url, "erin-static-token-01234567890", 803, 1)).json()) as Answer).result?.content[0]?.text).toBe("804");
      expect(subjectOf(803)).toBe("erin");
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("refuses consent without its options, with a bad key, or a non-https callback", () => {
    const manager = new MCPManager({ cache: false });
    const credentials = { up: { mode: "consent" as const } };
    expect(() => createGateway(manager, { credentials })).toThrow(InvalidConfigError);
    expect(() => createGateway(manager, { credentials, consent: { redirectUri: "https://gw.example/cb", key: "c2hvcnQ=" } })).toThrow(/32 bytes/);
    expect(() => createGateway(manager, { credentials, consent: { redirectUri: "http://gw.example/cb", key: KEY } })).toThrow(/https/);
    expect(() => createGateway(manager, { credentials: { up: { mode: "consent", clientSecret: "s" } }, consent: { redirectUri: "https://gw.example/cb", key: KEY } })).toThrow(/clientId/);
  });
});
