// Attack (issue 52): a consent link in the gateway's spans. A 2026-07-28 caller that declared no URL
// elicitation is answered with an error whose message carries its consent link (the connect route's
// `?id=`, a single-use capability); with tracing, the gateway's span of that call recorded the
// message whole (status and exception), so whoever reads the traces could open, or burn, the link.
import * as otel from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { startV2HttpServer, type V2HttpServer } from "mcp-test-utils";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callAdd, oidcGateway, type OidcGateway } from "./oidc-helpers.js";

const { context, propagation, trace } = otel;
const TOKEN = "attack52-span-caller-token-0123";
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

describe("a consent link never reaches the gateway's spans", () => {
  let upstream: V2HttpServer;
  let front: OidcGateway;
  /** The upstream's authorization server: metadata only (no one signs in here). */
  let as: Server;

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    as = createServer((req, res) => {
      const origin = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
        }),
      );
    });
    await new Promise<void>((resolve) => as.listen(0, "127.0.0.1", resolve));
    const issuer = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;
    upstream = await startV2HttpServer({ legacy: "reject" });
    front = await oidcGateway(upstream.url, (origin) => ({
      tokens: new Map([[TOKEN, { id: "caller", name: "caller" }]]),
      tracing: otel,
      oidc: { issuer, audience: `${origin}/mcp` },
      credentials: { up: { mode: "consent", issuer, clientId: "gw" } },
      consent: {
        redirectUri: `${origin}/oauth/callback`,
        key: Buffer.alloc(32, 3).toString("base64"),
        signIn: { clientId: "org-gw" },
      },
    }));
  }, 60_000);

  afterAll(async () => {
    await front?.stop();
    await upstream?.stop();
    as?.closeAllConnections();
    await new Promise((resolve) => as?.close(resolve));
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });

  it("the caller gets its link; the span of the call records the failure without the link's id", async () => {
    const answer = (await (await callAdd(front.url, TOKEN, 5, 1)).json()) as {
      error?: { code: number; message: string };
    };
    expect(answer.error?.code).toBe(-32603);
    const id = /connect\?id=([\w-]+)/.exec(answer.error!.message)?.[1];
    expect(id).toEqual(expect.any(String));
    const span = exporter.getFinishedSpans().find((s) => s.instrumentationScope.name === "@mcp/gateway")!;
    expect(span.status.code).toBe(otel.SpanStatusCode.ERROR);
    expect(span.attributes["error.type"]).toBe("-32603");
    expect(JSON.stringify({ status: span.status, events: span.events, attributes: span.attributes })).not.toContain(
      id!,
    );
    expect(span.status.message).toMatch(/cannot be sent a link/);
  });
});
