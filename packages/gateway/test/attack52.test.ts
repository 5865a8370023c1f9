// Attacks on issue 52's per-user upstream credentials, by a hostile peer a real issuer cannot be
// made to be: a token endpoint (loopback) answering an exchange with a token that is not a bearer
// access token, a huge body, or an overlong error. The gateway must send nothing upstream, read
// a bounded amount, and fail with a short error.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamAuth } from "../src/exchange.js";
import { MemoryConsentStore } from "../src/index.js";

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
    const upstream = new UpstreamAuth({ crm: { mode: "exchange", clientId: "gw", clientSecret: "s3cret", audience: "crm", tokenEndpoint: endpoint } }, () => Promise.resolve(endpoint));
    upstream.note("alice", "alice-own-token");
    return upstream;
  }
  const json = (body: unknown, status = 200) => (res: ServerResponse) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

  it("an ID token, a DPoP-bound token or token_type N_A is never sent upstream as a bearer token", async () => {
    for (const answer of [
      { access_token: "an-id-token", token_type: "N_A", issued_token_type: "urn:ietf:params:oauth:token-type:id_token" },
      { access_token: "dpop-bound", token_type: "DPoP", issued_token_type: "urn:ietf:params:oauth:token-type:access_token" },
      { access_token: "no-type" },
    ]) {
      next = json(answer);
      const upstream = auth();
      await expect(upstream.token("crm", "alice")).rejects.toThrow(/no bearer access token/);
      expect(upstream.held).toBe(0);
    }
    next = json({ access_token: "fine", token_type: "bearer", issued_token_type: "urn:ietf:params:oauth:token-type:access_token", expires_in: 60 });
    await expect(auth().token("crm", "alice")).resolves.toBe("fine");
  });

  it("an overlong error_description is cut short in the caller's error", async () => {
    next = json({ error: "invalid_grant", error_description: "x".repeat(50_000) }, 400);
    const failure = await auth().token("crm", "alice").catch((error: Error) => error);
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
    // What UpstreamConsent writes for each call of a caller without tokens: a new link (connect.ts).
    for (let i = 0; i <= 10_000; i++) await store.set(`consent-link:mallory-${i}`, "v1.sealed-link", 60_000);
    expect(await store.get("consent-token:crm\nbob")).toBe("v1.bobs-sealed-tokens");
    // The flows themselves stay bounded: the oldest link went.
    expect(await store.get("consent-link:mallory-0")).toBeUndefined();
    expect(await store.get("consent-link:mallory-10000")).toBe("v1.sealed-link");
  });
});
