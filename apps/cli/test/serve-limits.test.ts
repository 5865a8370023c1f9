// `mcp serve --http` under abuse: requestState bound to who got it, callers told apart by token,
// patterns matched a segment at a time, nothing learnt before authentication, origins, bounded
// bodies and streams. Raw HTTP where the SDK clients cannot say what an attacker sends.
import { once } from "node:events";
import { request } from "node:http";
import { connect } from "node:net";
import { probeEvents } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcp, userConfig } from "./helpers.js";
import { startHttpServe, type HttpServe } from "./serve-helpers.js";
import { caller2025, probeBox, tokenOf, type ProbeBox } from "./trust-helpers.js";

const MODERN = "2026-07-28";

/** A 2026-07-28 `tools/call` as a raw POST (the envelope written out), answered as JSON or SSE: the JSON-RPC answer. */
async function call2026(
  url: string,
  token: string,
  name: string,
  args: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": { sampling: {}, elicitation: {}, roots: {} },
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  };
  const response = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/call",
      "mcp-name": name,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: args, _meta: meta, ...extra },
    }),
  });
  const text = await response.text();
  const json = (response.headers.get("content-type") ?? "").includes("text/event-stream")
    ? text
        .split("\n")
        .filter((l) => l.startsWith("data:") && l.includes('"id":1'))
        .map((l) => l.slice(5))
        .pop()
    : text;
  return JSON.parse(json ?? "{}") as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

/** What `name` answers to a question of `method`. */
function answerAs(name: string, method: string): unknown {
  if (method === "sampling/createMessage")
    return { role: "assistant", content: { type: "text", text: `sampled-by-${name}` }, model: "m" };
  if (method === "elicitation/create") return { action: "accept", content: { answer: `elicited-by-${name}` } };
  return { roots: [{ uri: `file:///${name}` }] };
}

/** A 2025-era `initialize` as a raw POST: the front's checks, and then an answer. */
const raw = (url: string, headers: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });

describe("mcp serve --http under abuse", () => {
  let probes: ProbeBox;
  let serve: HttpServe;
  const bearer = (name: string) => ({ authorization: `Bearer ${tokenOf(name)}` });

  beforeAll(async () => {
    probes = await probeBox();
    const file = probes.box.write(`${probes.box.project}/callers.json`, {
      admin: { token: tokenOf("admin") },
      bob: { token: tokenOf("bob"), allow: ["p1h__*"] },
      lister: { token: tokenOf("lister"), allow: ["p*"], deny: ["P2S__*", "p1H__FLOOD"] },
    });
    serve = await startHttpServe(probes.box, ["--callers", file, "--origin", "https://app.example"]);
  }, 60_000);

  afterAll(async () => {
    await serve?.stop();
    await probes?.stop();
  });

  it("a requestState answers only the caller, endpoint and tool it was handed to: another caller's replay is refused, the owner's retry still works", async () => {
    const asked = await call2026(serve.url, tokenOf("admin"), "p2h__probe", { secret: "admin:1", steps: 1 });
    expect(asked.result?.["resultType"]).toBe("input_required");
    const state = asked.result?.["requestState"] as string;
    const forged = {
      requestState: state,
      inputResponses: {
        "sampling-createMessage-1": { role: "assistant", content: { type: "text", text: "forged" }, model: "m" },
      },
    };
    // Bob names a tool he may call, with the admin's state and forged answers.
    const replay = await call2026(serve.url, tokenOf("bob"), "p1h__probe", { secret: "bob:1" }, forged);
    expect(replay.error?.code).toBe(-32602);
    expect(replay.result).toBeUndefined();
    // The admin's own state, on another tool or endpoint, is refused too.
    expect((await call2026(serve.url, tokenOf("admin"), "p2s__probe", { secret: "admin:1" }, forged)).error?.code).toBe(
      -32602,
    );
    expect(
      (await call2026(`${serve.url}/p2h`, tokenOf("admin"), "probe", { secret: "admin:1" }, forged)).error?.code,
    ).toBe(-32602);
    // The admin answers its own questions, round after round: the call completes with them.
    let round = asked;
    for (let i = 0; i < 5 && round.result?.["resultType"] === "input_required"; i++) {
      const questions = round.result["inputRequests"] as Record<string, { method: string }>;
      const answers = Object.fromEntries(
        Object.entries(questions).map(([key, q]) => [key, answerAs("admin", q.method)]),
      );
      round = await call2026(
        serve.url,
        tokenOf("admin"),
        "p2h__probe",
        { secret: "admin:1", steps: 1 },
        { requestState: round.result["requestState"], inputResponses: answers },
      );
    }
    const text = (round.result?.["content"] as { text: string }[] | undefined)?.[0]?.text ?? "";
    expect(JSON.parse(text)).toEqual({
      secret: "admin:1",
      sampled: "sampled-by-admin",
      elicited: "elicited-by-admin",
      roots: ["file:///admin"],
    });
  }, 60_000);

  it("patterns match a server and a tool each, `*` never crossing `__`; deny ignores case", async () => {
    const lister = await caller2025("lister", serve.url);
    try {
      expect((await lister.list()).sort()).toEqual([
        "p1h__probe",
        "p1s__flood",
        "p1s__probe",
        "p2h__flood",
        "p2h__probe",
      ]);
    } finally {
      await lister.close();
    }
    // A server whose name holds `__` is not served (it would make `<server>__<tool>` ambiguous),
    // so `alpha__*` grants alpha's tools and nothing of alpha__beta's.
    userConfig(probes.box, {
      alpha: { type: "http", url: probes.urls.p1h },
      alpha__beta: { type: "http", url: probes.urls.p1h },
    });
    const scoped = probes.box.write(`${probes.box.project}/scoped.json`, {
      scoped: { token: tokenOf("scoped"), allow: ["alpha__*"] },
    });
    const second = await startHttpServe(probes.box, ["--callers", scoped]);
    try {
      const caller = await caller2025("scoped", second.url);
      expect((await caller.list()).sort()).toEqual(["alpha__flood", "alpha__probe"]);
      await caller.close();
      expect(second.stderr()).toContain('server "alpha__beta" is not served');
    } finally {
      await second.stop();
    }
  }, 60_000);

  it("before authentication every path answers alike; origins are the gateway's own or --origin's", async () => {
    for (const path of ["", "/p1h", "/nobody", "/../etc"])
      expect((await raw(`${serve.url}${path}`, {})).status).toBe(401);
    const own = new URL(serve.url).origin;
    expect((await raw(serve.url, { ...bearer("admin"), origin: own })).status).toBe(200);
    expect((await raw(serve.url, { ...bearer("admin"), origin: "https://app.example" })).status).toBe(200);
    // Another port on this machine is another origin (another program's page).
    const other = `http://127.0.0.1:${Number(new URL(serve.url).port) + 1}`;
    expect((await raw(serve.url, { ...bearer("admin"), origin: other })).status).toBe(403);
    expect((await raw(serve.url, { ...bearer("admin"), origin: "http://localhost:1" })).status).toBe(403);
  });

  it("a body past the limit is refused with 413 before it is read whole", async () => {
    const url = new URL(serve.url);
    const total = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const outcome = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0;
      let status = 0;
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { ...bearer("admin"), "content-type": "application/json", "transfer-encoding": "chunked" },
        },
        (res) => {
          status = res.statusCode ?? 0;
          res.resume();
          res.on("end", () => resolve({ status, sent }));
        },
      );
      req.on("error", (error) => (status ? resolve({ status, sent }) : reject(error)));
      const pump = (): void => {
        while (sent < total && !status) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        if (!status) req.end();
      };
      pump();
    });
    expect(outcome.status).toBe(413);
    expect(outcome.sent).toBeLessThan(total);
  });

  it("a caller that does not read its stream while an upstream floods it is cut off, and its call cancelled upstream", async () => {
    const url = new URL(serve.url);
    const meta = {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
      "io.modelcontextprotocol/logLevel": "debug",
    };
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "p1h__flood", arguments: { count: 100_000 }, _meta: meta },
    });
    // The flood (100 MB of logs) would be held for the caller; instead the gateway cuts it off and cancels its call.
    const cancelled = once(probeEvents, "cancelled");
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: {
          ...bearer("admin"),
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": MODERN,
          "mcp-method": "tools/call",
          "mcp-name": "p1h__flood",
        },
      },
      (res) => {
        // Never read: the socket's buffers fill.
        res.pause();
        res.socket.pause();
      },
    );
    req.on("error", () => undefined);
    req.end(body);
    expect(await cancelled).toEqual(["flood"]);
    req.destroy();
    // Others are served as before.
    const ok = await call2026(serve.url, tokenOf("admin"), "p1h__flood", { count: 1 });
    expect(ok.result?.["content"]).toEqual([{ type: "text", text: "sent 1" }]);
  }, 60_000);
});

describe("mcp serve --http: one caller cannot starve the others", () => {
  let probes: ProbeBox;
  let serve: HttpServe;

  beforeAll(async () => {
    probes = await probeBox();
    const file = probes.box.write(`${probes.box.project}/callers.json`, {
      mallory: { token: tokenOf("mallory"), allow: ["p1h__probe"] },
      alice: { token: tokenOf("alice") },
    });
    serve = await startHttpServe(probes.box, ["--callers", file]);
  }, 60_000);

  afterAll(async () => {
    await serve?.stop();
    await probes?.stop();
  });

  it("a caller's unanswered input_required rounds hold at most 16 upstream requests; past that it is refused (429), and others are served", async () => {
    // Each round mallory leaves unanswered keeps one upstream request (one of the 64 connections to p1h) open.
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call2026(serve.url, tokenOf("mallory"), "p1h__probe", { secret: `mallory:${i}`, steps: 0 }),
      ),
    );
    expect(outcomes.filter((o) => o.result?.["resultType"] === "input_required").length).toBe(16);
    const refused = outcomes.filter((o) => o.error?.code === 429);
    expect(refused.length).toBe(24);
    expect(refused[0]!.error!.message).toContain("16 requests in flight");
    const alice = await caller2025("alice", serve.url);
    try {
      expect(await alice.probe("p1h", "alice:1", { steps: 0 })).toEqual({
        secret: "alice:1",
        sampled: "sampled-by-alice",
        elicited: "elicited-by-alice",
        roots: ["file:///alice"],
      });
    } finally {
      await alice.close();
    }
  }, 60_000);

  it("connections that never send a request are closed, so they cannot use up the front's sockets", async () => {
    const url = new URL(serve.url);
    const silent = Array.from({ length: 20 }, () => connect(Number(url.port), url.hostname));
    await Promise.all(silent.map((socket) => once(socket, "close")));
    expect(await call2026(serve.url, tokenOf("alice"), "p1h__flood", { count: 1 })).toMatchObject({
      result: { content: [{ type: "text", text: "sent 1" }] },
    });
  }, 60_000);
});

describe("mcp serve --callers: names", () => {
  it("refuses a callers file that names a caller twice or takes a name the gateway keeps", async () => {
    const probes = await probeBox();
    try {
      const box = probes.box;
      const twice = box.write(
        `${box.project}/twice.json`,
        `{ "a": { "token": "${tokenOf("a1")}" }, "a": { "token": "${tokenOf("a2")}" } }`,
      );
      const reserved = box.write(`${box.project}/reserved.json`, { token: { token: tokenOf("x") } });
      const first = await mcp(box, ["serve", "--http", "--callers", twice]);
      expect(first.code).not.toBe(0);
      expect(first.stderr).toContain('caller "a" is named twice');
      const second = await mcp(box, ["serve", "--http", "--callers", reserved]);
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain("the gateway's own");
    } finally {
      await probes.stop();
    }
  });
});
