// Attacks on issue 52's per-user upstream credentials, by a hostile peer a real issuer cannot be
// made to be: a token endpoint (loopback) answering an exchange with a token that is not a bearer
// access token, a huge body, or an overlong error. The gateway must send nothing upstream, read
// a bounded amount, and fail with a short error.
import { createCipheriv, randomBytes } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamAuth } from "../src/exchange.js";
import { MemoryConsentStore } from "../src/index.js";
import { MAX_FLOWS_PER_CALLER } from "../src/consent-store.js";
import { UpstreamConsent, type ConsentCredentials } from "../src/consent.js";

describe("a hostile token endpoint answering an exchange", () => {
  let server: Server;
  let endpoint: string;
  /** What the endpoint answers next, and how many bytes of a huge answer it managed to write. */
  let next: (res: ServerResponse) => void = () => undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => next(res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function auth(): UpstreamAuth {
    const upstream = new UpstreamAuth(
      { crm: { mode: "exchange", clientId: "gw", clientSecret: "s3cret", audience: "crm", tokenEndpoint: endpoint } },
      () => Promise.resolve(endpoint),
    );
    upstream.note("alice", "alice-own-token");
    return upstream;
  }
  const json =
    (body: unknown, status = 200) =>
    (res: ServerResponse) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

  it("an ID token, a DPoP-bound token or token_type N_A is never sent upstream as a bearer token", async () => {
    for (const answer of [
      {
        access_token: "an-id-token",
        token_type: "N_A",
        issued_token_type: "urn:ietf:params:oauth:token-type:id_token",
      },
      {
        access_token: "dpop-bound",
        token_type: "DPoP",
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
      },
      { access_token: "no-type" },
    ]) {
      next = json(answer);
      const upstream = auth();
      await expect(upstream.token("crm", "alice")).rejects.toThrow(/no bearer access token/);
      expect(upstream.held).toBe(0);
    }
    next = json({
      access_token: "fine",
      token_type: "bearer",
      issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
      expires_in: 60,
    });
    await expect(auth().token("crm", "alice")).resolves.toBe("fine");
  });

  it("an overlong error_description is cut short in the caller's error", async () => {
    next = json({ error: "invalid_grant", error_description: "x".repeat(50_000) }, 400);
    const failure = await auth()
      .token("crm", "alice")
      .catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/invalid_grant/);
    expect((failure as Error).message.length).toBeLessThan(400);
  });

  it("a huge answer is not read to its end: the exchange fails once 64 KiB were read", async () => {
    let written = 0;
    let stopped!: () => void;
    const ended = new Promise<void>((resolve) => (stopped = resolve));
    next = (res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`{"access_token":"`);
      const chunk = "a".repeat(64 * 1024);
      const pump = (): void => {
        while (!res.destroyed && written < 256 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        stopped();
      };
      res.on("close", stopped);
      pump();
    };
    await expect(auth().token("crm", "alice")).rejects.toThrow(/refused to exchange/);
    await ended;
    // Read: the first 64 KiB and what sockets buffered; far from the 256 MiB the endpoint would send.
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });
});

describe("one caller flooding the memory consent store", () => {
  it("10,001 flows started by one caller (each call makes a link) never push another user's stored tokens out", async () => {
    const store = new MemoryConsentStore();
    await store.set("consent-token:crm\nbob", "v1.bobs-sealed-tokens", 60_000);
    // What UpstreamConsent writes for each call of a caller without tokens: a new link (connect.ts), in the caller's group.
    for (let i = 0; i <= 10_000; i++)
      await store.setCapped(
        `consent-link:mallory-${i}`,
        "v1.sealed-link",
        60_000,
        "flows:mallory",
        MAX_FLOWS_PER_CALLER,
      );
    expect(await store.get("consent-token:crm\nbob")).toBe("v1.bobs-sealed-tokens");
    // The flows themselves stay bounded: the caller's own oldest went.
    expect(await store.get("consent-link:mallory-0")).toBeUndefined();
    expect(await store.get(`consent-link:mallory-${10_000 - MAX_FLOWS_PER_CALLER}`)).toBeUndefined();
    expect(await store.get(`consent-link:mallory-${10_001 - MAX_FLOWS_PER_CALLER}`)).toBe("v1.sealed-link");
    expect(await store.get("consent-link:mallory-10000")).toBe("v1.sealed-link");
  });

  it("one caller's flood evicts only its own flows; a full store refuses a new flow instead of evicting anyone's", async () => {
    const store = new MemoryConsentStore({ maxFlows: MAX_FLOWS_PER_CALLER + 2 });
    await store.setCapped("consent-link:bob-1", "v1.bob", 60_000, "flows:bob", MAX_FLOWS_PER_CALLER);
    const evicted: string[] = [];
    for (let i = 0; i < 50; i++)
      evicted.push(
        ...(await store.setCapped(`consent-link:m-${i}`, "v1.m", 60_000, "flows:mallory", MAX_FLOWS_PER_CALLER)),
      );
    expect(evicted).toHaveLength(50 - MAX_FLOWS_PER_CALLER);
    expect(evicted.every((key) => key.startsWith("consent-link:m-"))).toBe(true);
    expect(await store.get("consent-link:bob-1")).toBe("v1.bob");
    // A flow moving on (link → sign-in) stays in its caller's group: bob still has one.
    await store.delete("consent-link:bob-1");
    await store.setCapped("consent-login:bob-1", "v1.bob", 60_000, "flows:bob", MAX_FLOWS_PER_CALLER);
    // Full (8 + 1 + 1): carol's flow fits, dave's is refused, and nobody's was evicted for it.
    await store.setCapped("consent-link:carol-1", "v1.carol", 60_000, "flows:carol", MAX_FLOWS_PER_CALLER);
    await expect(
      store.setCapped("consent-link:dave-1", "v1.dave", 60_000, "flows:dave", MAX_FLOWS_PER_CALLER),
    ).rejects.toThrow(/authorizations under way, its most: try again/);
    await expect(store.set("consent-link:eve-1", "v1.eve", 60_000)).rejects.toThrow(/under way/);
    expect(await store.get("consent-login:bob-1")).toBe("v1.bob");
    expect(await store.get("consent-link:carol-1")).toBe("v1.carol");
    expect(await store.get("consent-link:dave-1")).toBeUndefined();
    // Once a flow ends, there is room again; expired flows make room too.
    await store.delete("consent-link:carol-1");
    await store.setCapped("consent-link:dave-2", "v1.dave", 1, "flows:dave", MAX_FLOWS_PER_CALLER);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store.setCapped("consent-link:frank-1", "v1.frank", 60_000, "flows:frank", MAX_FLOWS_PER_CALLER);
    expect(await store.get("consent-link:frank-1")).toBe("v1.frank");
  });
});

describe("a hostile authorization server of a consent upstream", () => {
  let as: Server;
  let origin: string;
  /** The endpoints its metadata names next. */
  let endpoints: { authorization_endpoint: string; token_endpoint: string } = {
    authorization_endpoint: "",
    token_endpoint: "",
  };

  beforeAll(async () => {
    as = createServer((req, res) => {
      if (!(req.url ?? "").startsWith("/.well-known/")) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          issuer: origin,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
          ...endpoints,
        }),
      );
    });
    await new Promise<void>((resolve) => as.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    as.closeAllConnections();
    await new Promise((resolve) => as.close(resolve));
  });

  it("a javascript:, data: or plain-http (off loopback) authorization or token endpoint is never where a user's browser, or the code, is sent", async () => {
    const store = new MemoryConsentStore();
    const credentials: Record<string, ConsentCredentials> = {
      up: { mode: "consent", issuer: origin, clientId: "gw", clientSecret: "gw-secret" },
    };
    const consent = new UpstreamConsent(
      credentials,
      Buffer.alloc(32, 1),
      { redirectUri: "http://127.0.0.1:1/oauth/callback", key: "", store, signIn: { clientId: "org-gw" } },
      { issuer: "http://127.0.0.1:2" },
    );
    const shared = { type: "http" as const, url: "http://127.0.0.1:3/mcp" };
    for (const bad of [
      { authorization_endpoint: "javascript:alert(document.cookie)//", token_endpoint: `${origin}/token` },
      { authorization_endpoint: "data:text/html,<script>alert(1)</script>", token_endpoint: `${origin}/token` },
      { authorization_endpoint: "http://evil.example/authorize", token_endpoint: `${origin}/token` },
      { authorization_endpoint: `${origin}/authorize`, token_endpoint: "http://evil.example/token" },
    ]) {
      endpoints = bad;
      const failure = await consent.ready("up", "alice", shared).catch((error: Error) => error);
      expect(failure).toBeInstanceOf(Error);
      // Not a URL elicitation (-32042) with a link leading there: a plain error naming the endpoint's fault.
      expect((failure as { code?: unknown }).code).toBeUndefined();
      expect((failure as Error).message).toMatch(/must be https/);
    }
    endpoints = { authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token` };
    const fine = await consent.ready("up", "alice", shared).catch((error: Error) => error);
    expect((fine as { code?: unknown }).code).toBe(-32042);
  });
});

describe("a hostile token endpoint answering a consent refresh", () => {
  it("a huge answer is not read to its end: the refresh fails (the user is asked again), and little was read", async () => {
    let written = 0;
    let stopped!: () => void;
    const ended = new Promise<void>((resolve) => (stopped = resolve));
    const endpoint = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`{"access_token":"`);
      const chunk = "a".repeat(64 * 1024);
      const pump = (): void => {
        while (!res.destroyed && written < 256 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        stopped();
      };
      res.on("close", stopped);
      pump();
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    try {
      const key = Buffer.alloc(32, 9);
      const store = new MemoryConsentStore();
      const credentials: Record<string, ConsentCredentials> = { up: { mode: "consent", clientId: "gw" } };
      const consent = new UpstreamConsent(
        credentials,
        key,
        { redirectUri: "http://127.0.0.1:1/oauth/callback", key: "", store, signIn: { clientId: "org-gw" } },
        { issuer: "http://127.0.0.1:2" },
      );
      // Alice's expired tokens, with a refresh token, sealed as the gateway seals them.
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([
        cipher.update(
          JSON.stringify({
            access: "old",
            refresh: "r",
            until: Date.now() - 1,
            clientId: "gw",
            tokenEndpoint: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/token`,
            resource: "http://127.0.0.1:3/mcp",
          }),
        ),
        cipher.final(),
      ]);
      await store.set(
        "consent-token:up\nalice",
        `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`,
        60_000,
      );
      expect(await consent.tokens("up", "alice")).toBeUndefined();
      await ended;
      expect(written).toBeLessThan(32 * 1024 * 1024);
    } finally {
      endpoint.closeAllConnections();
      await new Promise((resolve) => endpoint.close(resolve));
    }
  });
});

describe("a stale 401 on a user's consent connection", () => {
  it("a 401 answering an older access token does not drop the user's newer tokens (refreshed, or consented again, meanwhile)", async () => {
    const key = Buffer.alloc(32, 5);
    const store = new MemoryConsentStore();
    const credentials: Record<string, ConsentCredentials> = { up: { mode: "consent", clientId: "gw" } };
    const consent = new UpstreamConsent(
      credentials,
      key,
      { redirectUri: "http://127.0.0.1:1/oauth/callback", key: "", store, signIn: { clientId: "org-gw" } },
      { issuer: "http://127.0.0.1:2" },
    );
    const seal = (value: unknown): string => {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(value)), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    };
    const record = (access: string) => ({
      access,
      refresh: "r",
      until: Date.now() + 3_600_000,
      clientId: "gw",
      tokenEndpoint: "http://127.0.0.1:4/token",
      resource: "http://127.0.0.1:3/mcp",
    });
    const config = consent.config("up", { type: "http", url: "http://127.0.0.1:3/mcp" }, "alice");
    const provider = (
      config as {
        authProvider: { headers(): Promise<Record<string, string>>; onUnauthorized(context: object): Promise<boolean> };
      }
    ).authProvider;
    // The request went with the older token; meanwhile Alice's tokens were renewed.
    await store.set("consent-token:up\nalice", seal(record("older")), 60_000);
    const sent = await provider.headers();
    await store.set("consent-token:up\nalice", seal(record("newer")), 60_000);
    await provider.onUnauthorized({
      url: "http://127.0.0.1:3/mcp",
      status: 401,
      wwwAuthenticate: "Bearer",
      sent,
      attempt: 0,
    });
    expect((await consent.tokens("up", "alice"))?.access).toBe("newer");
    // A 401 answering the token kept now drops it: the next call asks for consent again.
    await provider.onUnauthorized({
      url: "http://127.0.0.1:3/mcp",
      status: 401,
      wwwAuthenticate: "Bearer",
      sent: await provider.headers(),
      attempt: 0,
    });
    expect(await consent.tokens("up", "alice")).toBeUndefined();
  });
});
