// Each user's own consent upstream (credentials mode "consent"): an SDK v2 upstream protected by an
// authorization server of its own (a real oidc-provider, `idp`) that verifies every bearer token and
// records whose it was; callers sign in with access tokens of the organization's issuer (`org`, a
// second oidc-provider). A caller without a token for the upstream is answered with a URL
// elicitation — a URLElicitationRequiredError (-32042) for a 2025-era caller, an input_required
// round for a 2026-07-28 caller that declared URL elicitation, the link in an error otherwise. The
// link is the gateway's connect route: the browser (plain HTTP, a cookie jar) signs in at `org`
// first, and only as the caller the link was made for is it sent on to the upstream's pages, whose
// redirect to the gateway's callback must bring the connect step's cookie; the caller's retry then
// reaches the upstream as that user. A link forwarded to another user ends in 403 with nothing
// stored; two users never share a token; the callback refuses unknown, used or missing states, and
// a browser without the flow's cookie; the store holds only ciphertext.
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startIdp, startV2HttpServer, type TestIdp, type V2HttpServer } from "mcp-test-utils";
import { InvalidConfigError } from "@mcp/client";
import { MCPManager } from "@mcp/manager";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { createRemoteJWKSet, importJWK, jwtVerify, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, MemoryConsentStore } from "../src/index.js";
import { verifyIdToken } from "../src/connect.js";
import { oidcCallerId } from "../src/oidc.js";
import { callAdd, oidcGateway, type OidcGateway } from "./oidc-helpers.js";

/** The `_meta` of a 2026-07-28 caller that declared URL-mode elicitation. */
const URL_ELICITING_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

/** One round of `up__add(a, 1)` by such a caller, `more` added to its params; its answer, JSON or the last SSE event. */
async function urlElicitingRound(
  url: string,
  token: string,
  a: number,
  more: Record<string, unknown>,
): Promise<{ result?: Record<string, unknown>; error?: unknown }> {
  const text = await (await callAdd(url, token, a, 1, { meta: URL_ELICITING_META, params: more })).text();
  const json = text.startsWith("{")
    ? text
    : text
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .map((l) => l.slice(6))
        .at(-1)!;
  return JSON.parse(json) as { result?: Record<string, unknown>; error?: unknown };
}

/** A memory store that also keeps every value it was given (to check none is plaintext). */
class WatchedStore extends MemoryConsentStore {
  readonly written: string[] = [];
  override async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.written.push(value);
    await super.set(key, value, ttlMs);
  }
  override async setCapped(key: string, value: string, ttlMs: number, group: string, cap: number): Promise<string[]> {
    this.written.push(value);
    return super.setCapped(key, value, ttlMs, group, cap);
  }
}

const KEY = Buffer.alloc(32, 7).toString("base64");

/** The gateway's client at the organization's issuer, registered (RFC 7591) with its callback URL. */
async function registerAt(org: TestIdp, redirectUri: string): Promise<{ clientId: string; clientSecret: string }> {
  const { registration_endpoint: endpoint } = (await (
    await fetch(`${org.issuer}/.well-known/openid-configuration`)
  ).json()) as { registration_endpoint: string };
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    }),
  });
  const client = (await response.json()) as { client_id: string; client_secret: string };
  return { clientId: client.client_id, clientSecret: client.client_secret };
}

/** A person's access token of `org` for `resource` (their MCP client's sign-in: code + PKCE with `client`). */
async function userToken(
  org: TestIdp,
  client: { clientId: string; clientSecret: string; redirectUri: string },
  login: string,
  resource: string,
): Promise<string> {
  const verifier = randomBytes(32).toString("base64url");
  const { createHash } = await import("node:crypto");
  const url = new URL(`${org.issuer}/auth`);
  for (const [k, v] of Object.entries({
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    response_type: "code",
    scope: "openid",
    state: "s",
    resource,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }))
    url.searchParams.set(k, v);
  const code = (await org.signIn(login)(url)).searchParams.get("code")!;
  const response = await fetch(`${org.issuer}/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString("base64")}`,
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
      resource,
    }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token for ${login}: ${JSON.stringify(body)}`);
  return body.access_token;
}

describe("per-user upstream consent (URL elicitation, the gateway's callback, encrypted tokens)", () => {
  let idp: TestIdp;
  let org: TestIdp;
  let upstream: V2HttpServer;
  let front: OidcGateway;
  const store = new WatchedStore();
  let signIn: { clientId: string; clientSecret: string; redirectUri: string };
  /** Each person's access token of the organization's issuer for the gateway. */
  const tokens = new Map<string, string>();
  let ALICE: string, BOB: string, CAROL: string;
  /** An authorization header the upstream accepted → the subject of its token. */
  const verified = new Map<string, string>();

  beforeAll(async () => {
    idp = await startIdp({ clients: ["machine"] });
    org = await startIdp({ clients: [], ttlSeconds: 3600 });
    const keys = createRemoteJWKSet(new URL(`${idp.issuer}/jwks`));
    const self: { url?: string } = {};
    upstream = await startV2HttpServer({
      legacy: "reject",
      authorize: async (authorization) => {
        const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
        if (!token) return false;
        const { payload } = await jwtVerify(token, keys, { issuer: idp.issuer, audience: self.url! }).catch(() => ({
          payload: undefined,
        }));
        if (payload) verified.set(authorization!, payload.sub!);
        return Boolean(payload);
      },
    });
    self.url = upstream.url;
    // The gateway's own connection (its tool list) has a service token of its own.
    const service = await idp.clientToken("machine", upstream.url);
    front = await oidcGateway(
      upstream.url,
      async (origin) => {
        signIn = { ...(await registerAt(org, `${origin}/oauth/callback`)), redirectUri: `${origin}/oauth/callback` };
        return {
          oidc: { issuer: org.issuer, audience: `${origin}/mcp` },
          credentials: { up: { mode: "consent", issuer: idp.issuer, scope: "openid offline_access mcp:tools" } },
          consent: {
            redirectUri: `${origin}/oauth/callback`,
            key: KEY,
            store,
            signIn: { clientId: signIn.clientId, clientSecret: signIn.clientSecret },
          },
        };
      },
      { up: { type: "http", url: upstream.url, headers: { authorization: `Bearer ${service}` } } },
    );
    for (const login of ["alice", "bob", "carol", "dave", "heidi", "ivan", "frank", "grace", "mallory"])
      tokens.set(login, await userToken(org, signIn, login, front.url));
    [ALICE, BOB, CAROL] = [tokens.get("alice")!, tokens.get("bob")!, tokens.get("carol")!];
  }, 120_000);

  /** The browser opening a consent link: signs in at the organization's issuer as `login`; the gateway's answer to that sign-in, and the flow's cookie. */
  const open = async (link: URL, login: string): Promise<{ answer: Response; cookie: string }> => {
    const connect = await fetch(link, { redirect: "manual" });
    expect(connect.status).toBe(302);
    const cookie = connect.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/HttpOnly; SameSite=Lax$/);
    const to = new URL(connect.headers.get("location")!);
    expect(to.origin).toBe(org.issuer);
    expect(to.searchParams.get("nonce")).toEqual(expect.any(String));
    const back = await org.signIn(login)(to);
    expect(back.origin + back.pathname).toBe(`${front.origin}/oauth/callback`);
    return {
      answer: await fetch(back, { redirect: "manual", headers: { cookie: cookie.split(";")[0]! } }),
      cookie: cookie.split(";")[0]!,
    };
  };
  /** The whole consent of `login` in one browser: signed in at `org`, then at the upstream's server; its callback's answer. */
  const consent = async (
    link: URL,
    login: string,
  ): Promise<{ done: Response; callback: URL; cookie: string; authorize: URL }> => {
    const { answer, cookie } = await open(link, login);
    expect(answer.status).toBe(302);
    const authorize = new URL(answer.headers.get("location")!);
    expect(authorize.origin).toBe(idp.issuer);
    const callback = await idp.signIn(login)(authorize);
    return { done: await fetch(callback, { headers: { cookie } }), callback, cookie, authorize };
  };
  const idOf = (login: string): string => oidcCallerId(org.issuer, login);

  afterAll(async () => {
    await front?.stop();
    await upstream?.stop();
    await idp?.stop();
    await org?.stop();
  });

  /** The subject of the token the upstream's tools/call with argument `a` carried. */
  const subjectOf = (a: number): string | undefined => {
    for (const request of upstream.requests) {
      if (request.headers["mcp-method"] !== "tools/call") continue;
      if ((JSON.parse(request.body) as { params: { arguments: { a: number } } }).params.arguments.a === a)
        return verified.get(request.headers.authorization ?? "") ?? "(refused)";
    }
    return undefined;
  };

  type Answer = {
    result?: { content: { text: string }[] };
    error?: {
      code: number;
      message: string;
      data?: { elicitations?: { mode: string; url: string; elicitationId: string; message: string }[] };
    };
  };
  const call = async (token: string, a: number): Promise<Answer> =>
    (await (await callAdd(front.url, token, a, 1)).json()) as Answer;

  /** A 2026-07-28 call (no URL elicitation declared) answered with the link in an error: its URL. */
  const elicited = async (token: string, a: number): Promise<URL> => {
    const answer = await call(token, a);
    expect(answer.error?.code).toBe(-32603);
    expect(answer.error?.message).toMatch(/cannot be sent a link/);
    const [elicitation] = answer.error!.data!.elicitations!;
    expect(elicitation).toMatchObject({
      mode: "url",
      elicitationId: expect.any(String),
      message: expect.stringContaining("up"),
    });
    expect(subjectOf(a)).toBeUndefined();
    return new URL(elicitation!.url);
  };

  let aliceCallback: URL;
  let aliceCookie: string;

  it("a user without a token is sent the gateway's connect link; signed in there as themselves, then at the upstream, the retry reaches the upstream as that user", async () => {
    const url = await elicited(ALICE, 101);
    expect(url.origin + url.pathname).toBe(`${front.origin}/oauth/connect`);
    expect(url.searchParams.get("id")!.length).toBeGreaterThanOrEqual(43);
    const { done, callback, cookie, authorize } = await consent(url, "alice");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${front.origin}/oauth/callback`);
    expect(authorize.searchParams.get("resource")).toBe(upstream.url);
    [aliceCallback, aliceCookie] = [callback, cookie];
    expect(done.status).toBe(200);
    expect(done.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    expect(await done.text()).toMatch(/Authorized/);
    expect((await call(ALICE, 102)).result?.content[0]?.text).toBe("103");
    expect(subjectOf(102)).toBe("alice");
  });

  it("another user still gets an elicitation, and never carries the first user's token", async () => {
    await elicited(BOB, 201);
    const url = await elicited(BOB, 202);
    expect((await consent(url, "bob")).done.status).toBe(200);
    expect((await call(BOB, 203)).result?.content[0]?.text).toBe("204");
    expect((await call(ALICE, 204)).result?.content[0]?.text).toBe("205");
    expect(subjectOf(203)).toBe("bob");
    expect(subjectOf(204)).toBe("alice");
    const alices = upstream.requests
      .filter((r) => verified.get(r.headers.authorization ?? "") === "alice")
      .map((r) => r.headers.authorization);
    const bobs = upstream.requests
      .filter((r) => verified.get(r.headers.authorization ?? "") === "bob")
      .map((r) => r.headers.authorization);
    expect(alices.length).toBeGreaterThan(0);
    expect(bobs.filter((h) => alices.includes(h))).toEqual([]);
  });

  it("the callback refuses a used, unknown or missing state with 400 and stores nothing", async () => {
    const written = store.written.length;
    for (const url of [
      aliceCallback,
      new URL(`${front.origin}/oauth/callback?code=x&state=forged`),
      new URL(`${front.origin}/oauth/callback?code=x`),
    ]) {
      const response = await fetch(url, { headers: { cookie: aliceCookie } });
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/Unknown, expired or already used/);
    }
    expect(store.written.length).toBe(written);
    // A started consent the user declined at the server: 400, and the user is still asked.
    const url = await elicited(CAROL, 301);
    const { answer, cookie } = await open(url, "carol");
    const state = new URL(answer.headers.get("location")!).searchParams.get("state");
    const declined = new URL(`${front.origin}/oauth/callback?error=access_denied&state=${state}`);
    const refused = await fetch(declined, { headers: { cookie } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/did not authorize: access_denied/);
    expect(await store.get(`consent-token:up\n${idOf("carol")}`)).toBeUndefined();
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
      expect(value.includes(idOf("alice"))).toBe(false);
    }
  });

  it("an expired token is refreshed at the server, and the call goes on as the same user", async () => {
    // The test holds the key: it opens bob's record, dates its access token in the past, seals it again.
    const key = Buffer.from(KEY, "base64");
    const stored = (await store.get(`consent-token:up\n${idOf("bob")}`)) as string;
    const raw = Buffer.from(stored.slice(3), "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const record = JSON.parse(
      Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8"),
    ) as { access: string; refresh?: string; until?: number };
    expect(record.refresh).toBeTypeOf("string");
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const body = Buffer.concat([
      cipher.update(JSON.stringify({ ...record, until: Date.now() - 1000 }), "utf8"),
      cipher.final(),
    ]);
    await store.set(
      `consent-token:up\n${idOf("bob")}`,
      `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`,
      60_000,
    );
    expect((await call(BOB, 701)).result?.content[0]?.text).toBe("702");
    expect(subjectOf(701)).toBe("bob");
    const sent = upstream.requests.find((r) => r.headers["mcp-method"] === "tools/call" && r.body.includes('"a":701'))!
      .headers.authorization;
    expect(sent).not.toBe(`Bearer ${record.access}`);
  });

  it("a stored record that cannot be opened (damaged, or sealed under another key) is a miss: the user is asked again", async () => {
    await store.set(`consent-token:up\n${idOf("alice")}`, "v1.AAAA", 60_000);
    await elicited(ALICE, 401);
  });

  it("a 2025-era caller gets URLElicitationRequiredError (-32042) with the link, and its retry after consenting succeeds", async () => {
    const c = new Client1({ name: "legacy", version: "1" });
    await c.connect(new Http1(new URL(front.url), { requestInit: { headers: { authorization: `Bearer ${CAROL}` } } }));
    try {
      const refused = (await c
        .callTool({ name: "up__add", arguments: { a: 501, b: 1 } })
        .catch((error: unknown) => error)) as {
        code?: number;
        data?: { elicitations?: { mode: string; url: string }[] };
      };
      expect(refused.code).toBe(-32042);
      expect(refused.data?.elicitations?.[0]?.mode).toBe("url");
      expect(subjectOf(501)).toBeUndefined();
      expect((await consent(new URL(refused.data!.elicitations![0]!.url), "carol")).done.status).toBe(200);
      const result = (await c.callTool({ name: "up__add", arguments: { a: 502, b: 1 } })) as {
        content: { text: string }[];
      };
      expect(result.content[0]?.text).toBe("503");
      expect(subjectOf(502)).toBe("carol");
    } finally {
      await c.close();
    }
  });

  it("a 2025-11-25 caller that declared URL elicitation is sent notifications/elicitation/complete with the link's elicitationId once its consent completes, on its own session", async () => {
    const { ElicitationCompleteNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
    const c = new Client1({ name: "legacy-url", version: "1" }, { capabilities: { elicitation: { url: {} } } });
    const completed: string[] = [];
    let told!: () => void;
    const notified = new Promise<void>((resolve) => (told = resolve));
    c.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
      completed.push(notification.params.elicitationId);
      told();
    });
    const grace = tokens.get("grace")!;
    await c.connect(new Http1(new URL(front.url), { requestInit: { headers: { authorization: `Bearer ${grace}` } } }));
    try {
      const refused = (await c
        .callTool({ name: "up__add", arguments: { a: 551, b: 1 } })
        .catch((error: unknown) => error)) as {
        code?: number;
        data?: { elicitations?: { url: string; elicitationId: string }[] };
      };
      expect(refused.code).toBe(-32042);
      const [elicitation] = refused.data!.elicitations!;
      expect(completed).toEqual([]);
      expect((await consent(new URL(elicitation!.url), "grace")).done.status).toBe(200);
      await notified;
      expect(completed).toEqual([elicitation!.elicitationId]);
      const result = (await c.callTool({ name: "up__add", arguments: { a: 552, b: 1 } })) as {
        content: { text: string }[];
      };
      expect(result.content[0]?.text).toBe("553");
      expect(subjectOf(552)).toBe("grace");
    } finally {
      await c.close();
    }
  });

  it("a 2026-07-28 caller that declared URL elicitation is asked in an input_required round; its answer's retry waits for the consent and succeeds", async () => {
    // dave: a fourth user, never asked before.
    const ask = async (more: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const body = await urlElicitingRound(front.url, tokens.get("dave")!, 601, more);
      expect(body.error).toBeUndefined();
      return body.result!;
    };
    const first = await ask({});
    expect(first["resultType"]).toBe("input_required");
    const [key, request] = Object.entries(
      first["inputRequests"] as Record<string, { method: string; params: { mode: string; url: string } }>,
    )[0]!;
    expect(request).toMatchObject({ method: "elicitation/create", params: { mode: "url" } });
    expect(subjectOf(601)).toBeUndefined();
    // The retry (the user said yes) is sent before the browser is done: it waits for the callback.
    const retry = ask({ requestState: first["requestState"], inputResponses: { [key]: { action: "accept" } } });
    expect((await consent(new URL(request.params.url), "dave")).done.status).toBe(200);
    const done = await retry;
    expect((done["content"] as { text: string }[])[0]!.text).toBe("602");
    expect(subjectOf(601)).toBe("dave");
  });

  it("two replicas sharing the store and key: a consent started on one completes on the other's callback, and the waiting call on the first goes on", async () => {
    const service = await idp.clientToken("machine", upstream.url);
    const servers = {
      up: { type: "http" as const, url: upstream.url, headers: { authorization: `Bearer ${service}` } },
    };
    // Replica B serves the connect and callback URLs (the load balancer's); replica A starts the consent.
    let client!: { clientId: string; clientSecret: string; redirectUri: string };
    const b = await oidcGateway(
      upstream.url,
      async (origin) => {
        client = { ...(await registerAt(org, `${origin}/oauth/callback`)), redirectUri: `${origin}/oauth/callback` };
        return {
          oidc: { issuer: org.issuer, audience: `${origin}/mcp` },
          credentials: { up: { mode: "consent", issuer: idp.issuer, scope: "mcp:tools" } },
          consent: { redirectUri: client.redirectUri, key: KEY, store, signIn: client },
        };
      },
      servers,
    );
    const a = await oidcGateway(
      upstream.url,
      (origin) => ({
        oidc: { issuer: org.issuer, audience: `${origin}/mcp` },
        credentials: { up: { mode: "consent", issuer: idp.issuer, scope: "mcp:tools" } },
        consent: { redirectUri: client.redirectUri, key: KEY, store, signIn: client },
      }),
      servers,
    );
    const erinAtA = await userToken(org, client, "erin", a.url);
    try {
      const ask = async (more: Record<string, unknown>): Promise<Record<string, unknown>> =>
        (await urlElicitingRound(a.url, erinAtA, 801, more)).result!;
      const first = await ask({});
      const [key, request] = Object.entries(first["inputRequests"] as Record<string, { params: { url: string } }>)[0]!;
      const retry = ask({ requestState: first["requestState"], inputResponses: { [key]: { action: "accept" } } });
      retry.catch(() => undefined);
      const link = new URL(request.params.url);
      expect(link.origin).toBe(b.origin);
      // The browser, at B: its connect route finds A's link in the shared store.
      const connect = await fetch(link, { redirect: "manual" });
      const cookie = connect.headers.getSetCookie()[0]!.split(";")[0]!;
      const back = await fetch(await org.signIn("erin")(new URL(connect.headers.get("location")!)), {
        redirect: "manual",
        headers: { cookie },
      });
      const callback = await idp.signIn("erin")(new URL(back.headers.get("location")!));
      expect(callback.origin).toBe(b.origin);
      const done = await fetch(callback, { headers: { cookie } });
      expect(`${done.status} ${await done.text()}`).toMatch(/^200 Authorized/);
      // A learns of B's callback from the store (it looks every second while a call waits).
      expect(((await retry)["content"] as { text: string }[])[0]!.text).toBe("802");
      expect(subjectOf(801)).toBe("erin");
      expect(
        ((await (await callAdd(b.url, await userToken(org, client, "erin", b.url), 803, 1)).json()) as Answer).result
          ?.content[0]?.text,
      ).toBe("804");
      expect(subjectOf(803)).toBe("erin");
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("one caller flooding consent flows evicts only its own: another caller completes its consent meanwhile, and a full store refuses rather than evicts", async () => {
    const service = await idp.clientToken("machine", upstream.url);
    // A store with room for 12 flows in all: before, its 13th flow pushed out the oldest, whoever's.
    const small = new WatchedStore({ maxFlows: 12 });
    let client!: { clientId: string; clientSecret: string; redirectUri: string };
    const gw = await oidcGateway(
      upstream.url,
      async (origin) => {
        client = { ...(await registerAt(org, `${origin}/oauth/callback`)), redirectUri: `${origin}/oauth/callback` };
        return {
          oidc: { issuer: org.issuer, audience: `${origin}/mcp` },
          credentials: { up: { mode: "consent", issuer: idp.issuer, scope: "mcp:tools" } },
          consent: { redirectUri: client.redirectUri, key: KEY, store: small, signIn: client },
        };
      },
      { up: { type: "http", url: upstream.url, headers: { authorization: `Bearer ${service}` } } },
    );
    try {
      const [grace, mallory] = [
        await userToken(org, client, "grace", gw.url),
        await userToken(org, client, "mallory", gw.url),
      ];
      const linkOf = async (token: string, a: number): Promise<URL> => {
        const answer = (await (await callAdd(gw.url, token, a, 1)).json()) as Answer;
        return new URL(answer.error!.data!.elicitations![0]!.url);
      };
      const graceLink = await linkOf(grace, 1101);
      const malloryLinks: URL[] = [];
      for (let i = 0; i < 20; i++) malloryLinks.push(await linkOf(mallory, 1200 + i));
      // mallory keeps her latest 8 links; her first ones are gone.
      expect((await fetch(malloryLinks[0]!, { redirect: "manual" })).status).toBe(404);
      // grace's link still opens, and her consent completes.
      const connect = await fetch(graceLink, { redirect: "manual" });
      expect(connect.status).toBe(302);
      const cookie = connect.headers.getSetCookie()[0]!.split(";")[0]!;
      const back = await fetch(await org.signIn("grace")(new URL(connect.headers.get("location")!)), {
        redirect: "manual",
        headers: { cookie },
      });
      const done = await fetch(await idp.signIn("grace")(new URL(back.headers.get("location")!)), {
        headers: { cookie },
      });
      expect(`${done.status} ${await done.text()}`).toMatch(/^200 Authorized/);
      expect(((await (await callAdd(gw.url, grace, 1102, 1)).json()) as Answer).result?.content[0]?.text).toBe("1103");
      expect(subjectOf(1102)).toBe("grace");
      // Three more callers fill the store (8 of mallory's + 3 = 11, then 12): the next caller's flow is refused, nobody's evicted.
      for (const login of ["alice", "bob", "carol", "dave"])
        await linkOf(await userToken(org, client, login, gw.url), 1300);
      const refused = (await (
        await callAdd(gw.url, await userToken(org, client, "heidi", gw.url), 1301, 1)
      ).json()) as Answer;
      expect(refused.error?.message).toMatch(/authorizations under way, its most: try again in a few minutes/);
      expect((await fetch(malloryLinks[19]!, { redirect: "manual" })).status).toBe(302);
    } finally {
      await gw.stop();
    }
  });

  it("refuses consent without its options, with a bad key, a non-https callback, no issuer for its callers or no client there", () => {
    const manager = new MCPManager({ cache: false });
    const credentials = { up: { mode: "consent" as const } };
    const oidc = { issuer: "https://id.example", audience: "https://gw.example/mcp" };
    const signIn = { clientId: "gateway" };
    expect(() => createGateway(manager, { oidc, credentials })).toThrow(InvalidConfigError);
    expect(() =>
      createGateway(manager, {
        oidc,
        credentials,
        consent: { redirectUri: "https://gw.example/cb", key: "c2hvcnQ=", signIn },
      }),
    ).toThrow(/32 bytes/);
    expect(() =>
      createGateway(manager, { oidc, credentials, consent: { redirectUri: "http://gw.example/cb", key: KEY, signIn } }),
    ).toThrow(/https/);
    expect(() =>
      createGateway(manager, {
        oidc,
        credentials: { up: { mode: "consent", clientSecret: "s" } },
        consent: { redirectUri: "https://gw.example/cb", key: KEY, signIn },
      }),
    ).toThrow(/clientId/);
    expect(() =>
      createGateway(manager, { credentials, consent: { redirectUri: "https://gw.example/cb", key: KEY, signIn } }),
    ).toThrow(/signed in at an issuer/);
    expect(() =>
      createGateway(manager, {
        oidc,
        credentials,
        consent: { redirectUri: "https://gw.example/cb", key: KEY } as never,
      }),
    ).toThrow(/signIn\.clientId/);
  });

  it("THE ATTACK: a link forwarded to another user, who signs in as themselves, ends in 403; nothing is stored for either, and the first user is still asked", async () => {
    const heidi = tokens.get("heidi")!;
    const link = await elicited(heidi, 901);
    const written = store.written.length;
    const { answer } = await open(link, "ivan");
    expect(answer.status).toBe(403);
    expect(answer.headers.get("location")).toBeNull();
    expect(await answer.text()).toMatch(/made for another user/);
    // Only the sign-in record was written (by the connect step), no state for the upstream, no tokens.
    expect(store.written.length).toBe(written + 1);
    expect(await store.get(`consent-token:up\n${idOf("heidi")}`)).toBeUndefined();
    expect(await store.get(`consent-token:up\n${idOf("ivan")}`)).toBeUndefined();
    expect(subjectOf(901)).toBeUndefined();
    // The forwarded link is used up; heidi's retry gets a new one, which she completes herself.
    expect((await fetch(link, { redirect: "manual" })).status).toBe(404);
    const again = await elicited(heidi, 902);
    expect((await consent(again, "heidi")).done.status).toBe(200);
    expect((await call(heidi, 903)).result?.content[0]?.text).toBe("904");
    expect(subjectOf(903)).toBe("heidi");
  });

  it("a browser without the flow's cookie is refused with 400: at the sign-in's return, and at the upstream's callback; nothing is stored", async () => {
    const frank = tokens.get("frank")!;
    // The sign-in at the organization's issuer, brought back without the connect step's cookie.
    const first = await fetch(await elicited(frank, 1001), { redirect: "manual" });
    const back = await fetch(await org.signIn("frank")(new URL(first.headers.get("location")!)), {
      redirect: "manual",
    });
    expect(back.status).toBe(400);
    expect(await back.text()).toMatch(/not started in this browser/);
    // The upstream's callback replayed without the cookie (or with another flow's).
    const { answer, cookie } = await open(await elicited(frank, 1002), "frank");
    const callback = await idp.signIn("frank")(new URL(answer.headers.get("location")!));
    const replayed = await fetch(callback, { headers: { cookie: `${cookie.split("=")[0]}=another-value` } });
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toMatch(/not started in this browser/);
    expect(await store.get(`consent-token:up\n${idOf("frank")}`)).toBeUndefined();
    await elicited(frank, 1003);
  });

  it("a forged, overlong or already used link id is refused (404) and starts nothing", async () => {
    const written = store.written.length;
    for (const id of ["forged", "x".repeat(43), "y".repeat(129), ""]) {
      const response = await fetch(`${front.origin}/oauth/connect?id=${id}`, { redirect: "manual" });
      expect(response.status).toBe(404);
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    expect((await fetch(`${front.origin}/oauth/connect?id=x`, { method: "POST" })).status).toBe(405);
    expect(store.written.length).toBe(written);
  });

  it("an ID token is accepted only for this issuer, the gateway's client id and this sign-in's nonce, unexpired (checked against the issuer's keys)", async () => {
    const keys = createRemoteJWKSet(new URL(`${org.issuer}/jwks`));
    const key = await importJWK(org.key, org.key.alg);
    const now = Math.floor(Date.now() / 1000);
    const token = (claims: Record<string, unknown>, exp = now + 300): Promise<string> =>
      new SignJWT({ sub: "alice", nonce: "n-1", ...claims })
        .setProtectedHeader({ alg: org.key.alg, kid: org.key.kid })
        .setIssuer(org.issuer)
        .setAudience((claims["aud"] as string | undefined) ?? signIn.clientId)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(key);
    const expected = { issuer: org.issuer, clientId: signIn.clientId, nonce: "n-1" };
    expect((await verifyIdToken(await token({}), keys, expected)).sub).toBe("alice");
    await expect(verifyIdToken(await token({ nonce: "n-2" }), keys, expected)).rejects.toThrow(/nonce/);
    await expect(verifyIdToken(await token({ aud: "another-client" }), keys, expected)).rejects.toThrow(/aud/);
    await expect(verifyIdToken(await token({}, now - 120), keys, expected)).rejects.toThrow(/exp/);
    await expect(verifyIdToken(await token({}), keys, { ...expected, issuer: idp.issuer })).rejects.toThrow(/iss/);
  });
});
