// Streams: size limits, the GET listener's resumption, the HTTP+SSE stream's end, fallback, close during connect.
import type { ServerResponse } from "node:http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HttpError, MessageTooLargeError, TransportClosedError } from "@mcp/jsonrpc";
import { activeHandles } from "mcp-test-utils";
import { HttpTransport } from "../src/index.js";
import { sendJson, sse } from "./fixture-server.js";
import { fixture, transport } from "./harness.js";

/** Writes `chunk` until the client goes away; returns how many bytes went out. */
function flood(res: ServerResponse, chunk: string, sent: { bytes: number; closed: boolean }): void {
  const write = (): void => {
    while (!res.destroyed && !sent.closed) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", write);
    }
  };
  res.on("close", () => (sent.closed = true));
  write();
}

describe("size limits", () => {
  it("a JSON body over maxMessageBytes is cut off with a typed error; memory stays bounded and the next request works", async () => {
    const sent = { bytes: 0, closed: false };
    const f = await fixture((req, res) => {
      if (req.json?.method === "huge") {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"jsonrpc":"2.0","id":1,"result":{"blob":"');
        return flood(res, "x".repeat(64 * 1024), sent);
      }
      sendJson(res, { jsonrpc: "2.0", id: req.json.id, result: { ok: true } });
    });
    const t = await transport({ url: f.url, maxMessageBytes: 1024 * 1024 });
    const error = await t.request("huge").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageTooLargeError);
    expect((error as Error).message).toMatch(
      /HTTP response body of at least \d+ bytes exceeds the limit of 1048576 bytes; it was discarded \(raise the limit with the "maxMessageBytes" option\)/,
    );
    await expect.poll(() => sent.closed).toBe(true);
    expect(sent.bytes).toBeLessThan(16 * 1024 * 1024); // read no further than the limit (plus socket buffers)
    await expect(t.request("ping")).resolves.toEqual({ ok: true });
  });

  it("an SSE event over maxMessageBytes fails its request with a typed error; the next request works", async () => {
    const sent = { bytes: 0, closed: false };
    const f = await fixture((req, res) => {
      if (req.json?.method === "huge") {
        sse(res)('data: {"jsonrpc":"2.0","id":1,"result":{"blob":"');
        return flood(res, "y".repeat(64 * 1024), sent);
      }
      sendJson(res, { jsonrpc: "2.0", id: req.json.id, result: { ok: true } });
    });
    const t = await transport({ url: f.url, maxMessageBytes: 1024 * 1024 });
    const error = await t.request("huge").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageTooLargeError);
    // The size is what had arrived when the limit was passed: at most one chunk over it.
    const seen = Number(
      /SSE event of at least (\d+) bytes exceeds the limit of 1048576 bytes/.exec((error as Error).message)?.[1],
    );
    expect(seen).toBeGreaterThan(1024 * 1024);
    expect(seen).toBeLessThanOrEqual(1024 * 1024 + 128 * 1024);
    await expect.poll(() => sent.closed).toBe(true);
    await expect(t.request("ping")).resolves.toEqual({ ok: true });
  });
});

describe("the GET listener", () => {
  it("resumes a torn stream with Last-Event-ID after the server's retry:", async () => {
    const gets: (string | undefined)[] = [];
    const f = await fixture((req, res) => {
      if (req.method !== "GET") return void res.writeHead(202).end();
      gets.push(req.headers["last-event-id"] as string | undefined);
      const write = sse(res);
      if (gets.length === 1) {
        write(`id: 7\nretry: 30\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/one" })}\n\n`);
        setTimeout(() => res.socket?.destroy(), 20);
      } else {
        write(`id: 8\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/two" })}\n\n`);
      }
    });
    const t = await transport({ url: f.url });
    const notes: string[] = [];
    t.onNotification = (m) => notes.push(m);
    await t.startSSEListener();
    await expect.poll(() => notes).toEqual(["notifications/one", "notifications/two"]);
    expect(gets).toEqual([undefined, "7"]);
  });
});

describe("HTTP+SSE", () => {
  it("the event stream ending closes the transport: in-flight requests reject, onClose fires once", async () => {
    let stream: ServerResponse | undefined;
    const f = await fixture((req, res) => {
      if (req.method === "GET") {
        stream = res;
        return void sse(res)("event: endpoint\ndata: /messages\n\n");
      }
      res.writeHead(202).end(); // accepted; the answer never comes
    });
    const t = await transport({ url: f.url, type: "sse" });
    let closes = 0;
    t.onClose = () => closes++;
    const pending = t.request("tools/list").catch((e: unknown) => e);
    await expect.poll(() => f.seen.filter((s) => s.method === "POST")).toHaveLength(1);
    stream!.end();
    await expect(pending).resolves.toBeInstanceOf(TransportClosedError);
    await expect.poll(() => closes).toBe(1);
    expect(t.connected).toBe(false);
  });

  for (const status of [400, 405]) {
    it(`a type: http URL whose initialize gets ${status} falls back to HTTP+SSE`, async () => {
      const streams: ((text: string) => void)[] = [];
      const f = await fixture((req, res) => {
        if (req.method === "POST" && req.url === "/mcp") return void res.writeHead(status).end("not streamable");
        if (req.method === "GET" && req.url === "/mcp") {
          const write = sse(res);
          write("event: endpoint\ndata: /messages?s=1\n\n");
          return void streams.push(write);
        }
        if (req.method === "POST" && req.url === "/messages?s=1") {
          res.writeHead(202).end();
          streams[0]!(
            `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: req.json.id, result: { protocolVersion: "2024-11-05" } })}\n\n`,
          );
          return;
        }
        res.writeHead(500).end();
      });
      const t = await transport({ url: f.url });
      await expect(t.request("initialize", {})).resolves.toEqual({ protocolVersion: "2024-11-05" });
      expect(t.mode).toBe("sse");
      expect(f.seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /mcp", "GET /mcp", "POST /messages?s=1"]);
    });
  }

  it("when the fallback finds no HTTP+SSE server either, the first answer is the error", async () => {
    const f = await fixture((_req, res) => void res.writeHead(404).end("no such endpoint"));
    const t = await transport({ url: f.url });
    const error = await t.request("initialize", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, body: "no such endpoint" });
  });
});

describe("close() during connect()", () => {
  it("HTTP+SSE: connect rejects with Transport closed at once and leaves no socket or timer", async () => {
    const f = await fixture((_req, res) => void sse(res)(": no endpoint yet\n\n"));
    const before = activeHandles();
    const t = new HttpTransport({ type: "sse", url: f.url, timeout: 20_000 });
    const connecting = t.connect().catch((e: unknown) => e);
    await expect.poll(() => f.seen.length).toBe(1);
    const started = Date.now();
    await t.close();
    await expect(connecting).resolves.toBeInstanceOf(TransportClosedError);
    expect(Date.now() - started).toBeLessThan(10_000); // not the 20 s connect timeout (half of it is room for a loaded machine)
    expect(t.connected).toBe(false);
    await expect(t.request("ping")).rejects.toBeInstanceOf(TransportClosedError);
    // A destroyed socket leaves the handle list a tick later (the poll's own timer is gone by the check below).
    await expect.poll(() => activeHandles()["TCPSocketWrap"] ?? 0).toBeLessThanOrEqual(before["TCPSocketWrap"] ?? 0);
    const after = activeHandles();
    for (const kind of ["TCPSocketWrap", "Timeout"])
      expect(after[kind] ?? 0, kind).toBeLessThanOrEqual(before[kind] ?? 0);
  });

  it("streamable: close() right after connect() leaves the transport closed", async () => {
    const f = await fixture((_req, res) => void res.writeHead(500).end());
    const t = new HttpTransport({ type: "http", url: f.url });
    const connecting = t.connect().catch((e: unknown) => e);
    await t.close();
    await expect(connecting).resolves.toBeInstanceOf(TransportClosedError);
    expect(t.connected).toBe(false);
    expect(f.seen).toHaveLength(0);
  });
});

describe("text split inside a UTF-8 character", () => {
  // Every byte of a body written as its own TCP write, a pause between: chunks then end inside
  // two-, three- and four-byte characters.
  const text = "é ✓ 😀 done";
  async function dribble(res: ServerResponse, bytes: Buffer): Promise<void> {
    for (let i = 0; i < bytes.length; i++) {
      res.write(bytes.subarray(i, i + 1));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    res.end();
  }
  for (const exchange of ["undici", "fetch"] as const) {
    it(`decodes JSON and SSE bodies the same as whole text (${exchange})`, async () => {
      const f = await fixture(async (req, res) => {
        const body = JSON.stringify({ jsonrpc: "2.0", id: req.json.id, result: { text } });
        if (req.json.method === "json") {
          res.writeHead(200, { "content-type": "application/json" });
          return dribble(res, Buffer.from(body));
        }
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.flushHeaders();
        return dribble(res, Buffer.from(`data: ${body}\n\n`));
      });
      const t = await transport({
        url: f.url,
        ...(exchange === "fetch" ? { fetch: (input, init) => fetch(input, init as RequestInit) } : {}),
      });
      await expect(t.request("json")).resolves.toEqual({ text });
      await expect(t.request("sse")).resolves.toEqual({ text });
    });
  }
});

describe("the SSE path under random framing (fast-check, real sockets)", () => {
  // A POST's SSE answer: notifications, comments, ids and retry lines around the response, every
  // line ended by LF, CR or CRLF, the bytes cut at random offsets (inside characters too) and
  // each piece sent as its own TCP write. The request must get exactly its result, and every
  // notification must arrive, in order.
  const ending = fc.constantFrom("\n", "\r", "\r\n");
  const piece = fc.oneof(
    fc
      .string({ unit: fc.constantFrom("a", "é", "😀", " ", '"'), maxLength: 8 })
      .map((t) => ({ kind: "note" as const, t })),
    fc.constant({ kind: "comment" as const, t: "" }),
    fc.nat(9).map((n) => ({ kind: "id" as const, t: `e${n}` })),
  );
  it("reassembles the same messages from any framing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 6 }),
        fc.array(ending, { minLength: 8, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (pieces, ends, cuts) => {
          const result = { text: "done é😀", n: pieces.length };
          let body = "";
          const notes: string[] = [];
          pieces.forEach((p, i) => {
            const end = ends[i % ends.length]!;
            if (p.kind === "comment") body += `: keep-alive${end}`;
            else if (p.kind === "id") body += `id: ${p.t}${end}${end}`;
            else {
              notes.push(p.t);
              body += `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: p.t } })}${end}${end}`;
            }
          });
          const f = await fixture(async (req, res) => {
            if (req.json.method !== "go") return sendJson(res, { jsonrpc: "2.0", id: req.json.id, result: {} });
            const bytes = Buffer.from(
              `${body}data: ${JSON.stringify({ jsonrpc: "2.0", id: req.json.id, result })}${ends[7]!}${ends[7]!}`,
            );
            res.writeHead(200, { "content-type": "text/event-stream" });
            res.flushHeaders();
            let from = 0;
            for (const cut of [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b)) {
              res.write(bytes.subarray(from, cut));
              from = cut;
              await new Promise((resolve) => setTimeout(resolve, 1));
            }
            res.end(bytes.subarray(from));
          });
          const t = await transport({ url: f.url });
          const seen: string[] = [];
          t.onNotification = (_method, params) => seen.push((params as { data: string }).data);
          await expect(t.request("go")).resolves.toEqual(result);
          expect(seen).toEqual(notes);
          await t.close();
          await f.stop();
        },
      ),
      { numRuns: 25 },
    );
  });
});
