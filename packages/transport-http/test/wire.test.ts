// The transport's own HTTP/1.1 client (src/wire.ts) against a raw socket server: framing cut at
// any byte, responses it must refuse, torn and stale connections, aborts, the pool's limits.
// A hand-made peer, because no real server can be made to send these bytes on demand.
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { AbortLatch } from "@mcp/jsonrpc";
import type { ExchangePool, ExchangeRequest, ExchangeResponse } from "../src/exchange.js";
import { WIRE_LIMITS, wirePool } from "../src/wire.js";

/** One request as the raw server read it. */
interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Which connection (0, 1, …) it came on. */
  connection: number;
}

interface Raw {
  url: string;
  seen: Seen[];
  connections: number;
  sockets: Set<Socket>;
  stop(): Promise<void>;
}

/**
 * A keep-alive HTTP/1.1 server on a bare socket: it reads each request (head and
 * Content-Length body) and lets `answer` write whatever bytes it likes.
 */
async function raw(answer: (request: Seen, socket: Socket, index: number) => void | Promise<void>): Promise<Raw> {
  const state: Raw = { url: "", seen: [], connections: 0, sockets: new Set(), stop: async () => undefined };
  const server: Server = createServer((socket) => {
    const connection = state.connections++;
    state.sockets.add(socket);
    socket.on("close", () => state.sockets.delete(socket));
    socket.on("error", () => undefined);
    let pending = Buffer.alloc(0);
    let busy = Promise.resolve();
    socket.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf("\r\n\r\n");
        if (end < 0) return;
        const [line, ...fields] = pending.subarray(0, end).toString("latin1").split("\r\n");
        const headers: Record<string, string> = {};
        for (const field of fields) {
          const colon = field.indexOf(":");
          headers[field.slice(0, colon).toLowerCase()] = field.slice(colon + 1).trim();
        }
        const length = Number(headers["content-length"] ?? 0);
        if (pending.length < end + 4 + length) return;
        const [method, path] = line!.split(" ");
        const seen: Seen = { method: method!, path: path!, headers, body: pending.subarray(end + 4, end + 4 + length).toString("utf8"), connection };
        pending = pending.subarray(end + 4 + length);
        const index = state.seen.push(seen) - 1;
        busy = busy.then(() => answer(seen, socket, index));
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address() as { port: number };
  state.url = `http://127.0.0.1:${address.port}/mcp`;
  state.stop = async () => {
    for (const socket of state.sockets) socket.destroy();
    server.close();
    await once(server, "close");
  };
  return state;
}

const pools: ExchangePool[] = [];
const servers: Raw[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) pool.destroy();
  for (const server of servers.splice(0)) await server.stop();
});

async function setup(answer: Parameters<typeof raw>[0]): Promise<{ server: Raw; pool: ExchangePool; get: (extra?: Partial<ExchangeRequest>) => Promise<ExchangeResponse> }> {
  const server = await raw(answer);
  servers.push(server);
  const pool = await wirePool();
  pools.push(pool);
  const url = new URL(server.url);
  return { server, pool, get: (extra = {}) => pool.exchange({ method: "POST", url, headers: { "content-type": "application/json" }, body: "{}", ...extra }) };
}

const json = (text: string, extra = ""): string => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n${extra}\r\n${text}`;

/** Writes `bytes` cut at `cuts`, each piece its own TCP write a moment after the last. */
async function writeCut(socket: Socket, bytes: Buffer, cuts: number[]): Promise<void> {
  let from = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    if (cut <= from) continue;
    socket.write(bytes.subarray(from, cut));
    from = cut;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  socket.write(bytes.subarray(from));
}

describe("HTTP/1.1 framing (fast-check, real sockets)", () => {
  const text = fc.string({ unit: fc.constantFrom("a", "é", "😀", " ", "\n", "{", '"'), maxLength: 200 });
  it("reads the same body whatever the framing and wherever the bytes are cut, and reuses the connection", async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.constantFrom("length", "chunked"),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (body, framing, sizes, extras, cuts) => {
          const bytes = Buffer.from(body);
          let wire: Buffer;
          if (framing === "length") wire = Buffer.from(json(body, extras ? "x-extra:  padded value \t\r\nx-extra: again\r\n" : ""));
          else {
            // Chunks of random sizes, with extensions and a trailer when `extras`.
            const parts: Buffer[] = [Buffer.from(`${extras ? "HTTP/1.1 100 Continue\r\n\r\n" : ""}HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`)];
            for (let at = 0, i = 0; at < bytes.length; i++) {
              const size = Math.min(sizes[i % sizes.length]!, bytes.length - at);
              parts.push(Buffer.from(`${size.toString(16)}${extras ? ";ext=1" : ""}\r\n`), bytes.subarray(at, at + size), Buffer.from("\r\n"));
              at += size;
            }
            parts.push(Buffer.from(`0\r\n${extras ? "x-trailer: t\r\n" : ""}\r\n`));
            wire = Buffer.concat(parts);
          }
          const { server, get } = await setup((_request, socket, index) => (index === 0 ? writeCut(socket, wire, cuts) : void socket.write(json("again"))));
          const response = await get();
          expect(response.status).toBe(200);
          if (framing === "length" && extras) expect(response.header("x-extra")).toBe("padded value, again");
          await expect(response.text()).resolves.toBe(body);
          await expect((await get()).text()).resolves.toBe("again");
          expect(server.connections).toBe(1);
          pools.pop()!.destroy();
          await servers.pop()!.stop();
        },
      ),
      { numRuns: 60 },
    );
  });

  it("reads a large Content-Length body straight into one buffer, whatever arrived before the read and however it is cut", async () => {
    // Non-repeating text, so a byte in the wrong place shows; multi-byte characters across cuts.
    const body = Array.from({ length: 40_000 }, (_, i) => `${i.toString(36)}é`).join("|");
    const bytes = Buffer.from(json(body));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 30 }), async (cuts, waitMs) => {
        const { get } = await setup((_request, socket) => writeCut(socket, bytes, cuts));
        const response = await get();
        await new Promise((resolve) => setTimeout(resolve, waitMs)); // some of it queued before the read
        await expect(response.text(8 * 1024 * 1024)).resolves.toBe(body);
        pools.pop()!.destroy();
        await servers.pop()!.stop();
      }),
      { numRuns: 15 },
    );
  });

  it("reuses a gathered body's buffer only once its text is read: bodies of any size, in turn and at once, each come out whole", async () => {
    // Each body is its own text, so a byte left over from an earlier body, or written by a
    // concurrent one, shows. Sizes straddle one another so the kept buffer is sometimes too small.
    const bodyOf = (index: number, size: number) => `${index}:`.padEnd(size, String.fromCharCode(97 + (index % 26)));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: WIRE_LIMITS.gatherMinBytes, max: 6 * WIRE_LIMITS.gatherMinBytes }), { minLength: 2, maxLength: 6 }), fc.integer({ min: 1, max: 3 }), async (sizes, width) => {
        // Each answer in pieces a moment apart, so bodies read at once interleave their reads.
        const { get } = await setup((request, socket) => {
          const bytes = Buffer.from(json(bodyOf(Number(request.body), sizes[Number(request.body)]!)));
          void writeCut(socket, bytes, [1, 2, 3].map((k) => Math.floor((bytes.length * k) / 4)));
        });
        const all: string[] = [];
        for (let at = 0; at < sizes.length; at += width) {
          const indexes = sizes.map((_, i) => i).slice(at, at + width);
          const texts = await Promise.all(indexes.map(async (i) => (await get({ body: String(i) })).text()));
          texts.forEach((text, k) => expect(text === bodyOf(indexes[k]!, sizes[indexes[k]!]!), `body ${indexes[k]}`).toBe(true));
          all.push(...texts);
        }
        // A text is its own copy: reading later bodies into the same buffer left it as it was.
        all.forEach((text, i) => expect(text === bodyOf(i, sizes[i]!), `body ${i} afterwards`).toBe(true));
        pools.pop()!.destroy();
        await servers.pop()!.stop();
      }),
      { numRuns: 25 },
    );
  });

  it("a large body over the reader's limit is not gathered: the read fails with MessageTooLargeError", async () => {
    const body = "z".repeat(WIRE_LIMITS.gatherMinBytes * 4);
    const { get } = await setup((_request, socket, index) => void socket.write(index === 0 ? json(body) : json("after")));
    await expect((await get()).text(WIRE_LIMITS.gatherMinBytes * 2)).rejects.toMatchObject({ name: "MessageTooLargeError" });
    await expect((await get()).text()).resolves.toBe("after");
  });

  it("reads a body that runs until the server closes, and opens a new connection after it", async () => {
    const { server, get } = await setup((request, socket) => {
      if (request.connection === 0) socket.end("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil the end");
      else socket.write(json("next"));
    });
    await expect((await get()).text()).resolves.toBe("until the end");
    await expect((await get()).text()).resolves.toBe("next");
    expect(server.connections).toBe(2);
  });

  it("does not reuse a connection after Connection: close, an HTTP/1.0 answer, or bytes after the response", async () => {
    const answers = [json("a", "connection: close\r\n"), json("b").replace("HTTP/1.1", "HTTP/1.0"), `${json("c")}HTTP/1.1 200 OK\r\n`, json("d")];
    const { server, get } = await setup((_request, socket, index) => void socket.write(answers[index]!));
    for (const expected of ["a", "b", "c", "d"]) await expect((await get()).text()).resolves.toBe(expected);
    expect(server.connections).toBe(4);
  });

  it("joins a repeated header with \", \" (as fetch's Headers.get does) and takes a Content-Length repeated with one value", async () => {
    const { get } = await setup((_request, socket) => void socket.write(json("{}", "Link: <a>\r\nx-empty:\r\nlink: <b>\r\nLINK:  <c> \r\ncontent-length: 2\r\n")));
    const response = await get();
    expect(response.header("link")).toBe("<a>, <b>, <c>");
    expect(response.header("x-empty")).toBe("");
    expect(response.header("content-length")).toBe("2");
    await expect(response.text()).resolves.toBe("{}");
  });

  it("gives a 204 no body and keeps the connection", async () => {
    const { server, get } = await setup((_request, socket, index) => void socket.write(index === 0 ? "HTTP/1.1 204 No Content\r\n\r\n" : json("x")));
    const first = await get();
    expect(first.status).toBe(204);
    await expect(first.text()).resolves.toBe("");
    await expect((await get()).text()).resolves.toBe("x");
    expect(server.connections).toBe(1);
  });
});

describe("responses it refuses", () => {
  const head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n";
  const bad: [string, string, RegExp][] = [
    ["a bad status line", "HTTP/1.1 2000 OK\r\n\r\n", /bad status line/],
    ["not HTTP at all", "SSH-2.0-OpenSSH_9.6\r\n\r\n", /bad status line/],
    ["Content-Length and Transfer-Encoding together", `${head}content-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`, /both Content-Length and Transfer-Encoding/],
    ["two different Content-Lengths", `${head}content-length: 2\r\ncontent-length: 3\r\n\r\n{}`, /conflicting Content-Length headers \(2 and 3\)/],
    ["a Content-Length that is not a number", `${head}content-length: -1\r\n\r\n{}`, /bad Content-Length "-1"/],
    ["obsolete line folding", `${head}x-folded: a\r\n b\r\ncontent-length: 2\r\n\r\n{}`, /obsolete line folding/],
    ["a header name with a space", `${head}bad name: x\r\ncontent-length: 2\r\n\r\n{}`, /bad header line "bad name: x"/],
    ["a control character in a header value", `${head}x-nul: a\u0000b\r\ncontent-length: 2\r\n\r\n{}`, /control character in header "x-nul"/],
    ["a head over the limit", `${head}x-big: ${"a".repeat(WIRE_LIMITS.maxHeaderBytes)}\r\ncontent-length: 2\r\n\r\n{}`, /response head over 16384 bytes/],
    ["101 Switching Protocols", "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n", /unexpected 101/],
    ["a chunk size that is not hex", `${head}transfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, /bad chunk size "zz"/],
    ["chunk data longer than its size", `${head}transfer-encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n`, /chunk data not followed by CRLF/],
    ["a chunk size line ended by a bare LF", `${head}transfer-encoding: chunked\r\n\r\n2\n{}\r\n0\r\n\r\n`, /chunk size line not ended by CRLF/],
    ["an endless chunk size line", `${head}transfer-encoding: chunked\r\n\r\n2;${"x".repeat(WIRE_LIMITS.maxChunkLineBytes)}`, /chunk size line over 4096 bytes/],
  ];
  for (const [what, bytes, message] of bad) {
    it(`${what}: a typed error, the connection dropped, the next request served`, async () => {
      const { server, get } = await setup((_request, socket, index) => void socket.write(index === 0 ? bytes : json("fine")));
      const failure = await get().then(
        (response) => response.text().then(() => undefined, (error: unknown) => error),
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect(failure).toMatchObject({ code: "EPROTO", message: expect.stringMatching(message) });
      expect((failure as Error).message).toMatch(/^Invalid HTTP response: /);
      await expect((await get()).text()).resolves.toBe("fine");
      expect(server.connections).toBe(2);
    });
  }
});

describe("broken and stale connections", () => {
  it("a body torn mid-way fails its read with ECONNRESET, for Content-Length and chunked bodies", async () => {
    const torn = [`${json("x".repeat(100)).slice(0, -50)}`, "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n64\r\nxxxx", json("x".repeat(200_000)).slice(0, -1000)];
    const { get } = await setup((_request, socket, index) => void socket.end(torn[index]!));
    for (let i = 0; i < torn.length; i++) {
      const response = await get();
      await expect(response.text()).rejects.toMatchObject({ code: "ECONNRESET", message: "The response body ended early: the connection closed" });
    }
  });

  it("a new connection closed before any answer fails with socket hang up, and is not retried", async () => {
    const { server, get } = await setup((_request, socket) => void socket.destroy());
    await expect(get()).rejects.toMatchObject({ code: "ECONNRESET", message: "socket hang up" });
    expect(server.seen).toHaveLength(1);
  });

  it("a kept-alive connection the server dropped is retried once on a new one", async () => {
    const { server, get } = await setup((request, socket) => {
      // The second request on the first connection finds it closed, as a server's idle timeout does.
      if (request.connection === 0 && server.seen.length === 2) socket.destroy();
      else socket.write(json(`on ${request.connection}`));
    });
    await expect((await get()).text()).resolves.toBe("on 0");
    await expect((await get()).text()).resolves.toBe("on 1");
    expect(server.seen.map((s) => s.connection)).toEqual([0, 0, 1]);
  });

  it("a retry that fails too reports the first failure, and is not retried again", async () => {
    const { server, get } = await setup((_request, socket, index) => (index === 0 ? void socket.write(json("ok")) : void socket.destroy()));
    await expect((await get()).text()).resolves.toBe("ok");
    await expect(get()).rejects.toMatchObject({ code: "ECONNRESET", message: "socket hang up" });
    expect(server.seen).toHaveLength(3);
  });

  it("an idle connection the server closes leaves the pool, and the next request opens another", async () => {
    const { server, get } = await setup((request, socket) => void socket.end(json(`on ${request.connection}`, "")));
    await expect((await get()).text()).resolves.toBe("on 0");
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect((await get()).text()).resolves.toBe("on 1");
    expect(server.seen.map((s) => s.connection)).toEqual([0, 1]);
  });

  it("connection refused is ECONNREFUSED", async () => {
    const server = await raw(() => undefined);
    const url = new URL(server.url);
    await server.stop();
    const pool = await wirePool();
    pools.push(pool);
    await expect(pool.exchange({ method: "GET", url, headers: {} })).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});

describe("aborts, limits and what is sent", () => {
  it("an abort before the answer rejects with its reason and closes the connection", async () => {
    const { server, get } = await setup(() => undefined);
    const abort = new AbortLatch();
    const sent = get({ abort });
    await new Promise((resolve) => setTimeout(resolve, 30));
    abort.abort(new Error("stop now"));
    await expect(sent).rejects.toThrow("stop now");
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.sockets.size).toBe(0);
  });

  it("an abort during the body fails the read; one after it is a no-op and the connection is reused", async () => {
    const { server, get } = await setup((_request, socket, index) => void socket.write(index === 0 ? "HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhalf" : json("whole")));
    const first = new AbortLatch();
    const response = await get({ abort: first });
    const read = response.text();
    first.abort(new Error("enough"));
    await expect(read).rejects.toThrow("enough");
    const second = new AbortLatch();
    await expect((await get({ abort: second })).text()).resolves.toBe("whole");
    second.abort(new Error("late"));
    await expect((await get()).text()).resolves.toBe("whole");
    expect(server.seen.map((s) => s.connection)).toEqual([0, 1, 1]);
  });

  it("opens at most maxConnections to one origin; the rest wait and all are answered", async () => {
    const held: Socket[] = [];
    const { server, get } = await setup((_request, socket) => {
      held.push(socket);
      if (held.length === WIRE_LIMITS.maxConnections) for (const s of held.splice(0)) s.write(json("ok"));
      else if (held.length > 0 && server.seen.length > WIRE_LIMITS.maxConnections) for (const s of held.splice(0)) s.write(json("ok"));
    });
    const all = Array.from({ length: WIRE_LIMITS.maxConnections + 6 }, () => get().then((r) => r.text()));
    await expect(Promise.all(all)).resolves.toEqual(all.map(() => "ok"));
    expect(server.connections).toBe(WIRE_LIMITS.maxConnections);
  });

  it("sends the method, path, host, length and headers; credentials in the URL become Basic auth", async () => {
    const { server, pool } = await setup((_request, socket) => void socket.write(json("{}")));
    const url = new URL(server.url.replace("http://", "http://us%20er:p%C3%A4ss@") + "?q=1#frag");
    await (await pool.exchange({ method: "POST", url, headers: { "x-one": "1", accept: "application/json" }, body: "héllo" })).text();
    await (await pool.exchange({ method: "DELETE", url, headers: { authorization: "Bearer t" } })).text();
    const [post, del] = server.seen;
    expect(post).toMatchObject({ method: "POST", path: "/mcp?q=1", body: "héllo", headers: { host: url.host, "content-length": "6", "x-one": "1", authorization: `Basic ${Buffer.from("us er:päss").toString("base64")}` } });
    expect(del).toMatchObject({ method: "DELETE", headers: { authorization: "Bearer t" } });
    expect(del!.headers["content-length"]).toBeUndefined();
  });

  it("refuses a header that would inject lines, before anything is sent", async () => {
    const { server, pool } = await setup(() => undefined);
    const url = new URL(server.url);
    await expect(pool.exchange({ method: "GET", url, headers: { "x-evil": "a\r\nx-injected: 1" } })).rejects.toMatchObject({ name: "TypeError", code: "ERR_INVALID_CHAR" });
    await expect(pool.exchange({ method: "GET", url, headers: { "bad name": "a" } })).rejects.toMatchObject({ name: "TypeError", code: "ERR_INVALID_HTTP_TOKEN" });
    await expect(pool.exchange({ method: "GET", url, headers: { "x-wide": "日本" } })).rejects.toMatchObject({ code: "ERR_INVALID_CHAR" });
    expect(server.connections).toBe(0);
  });

  it("holds back a body nobody reads yet (the socket paused, the server's writes wait), then reads all of it", async () => {
    const big = "y".repeat(16 * 1024 * 1024);
    let serverSocket: Socket | undefined;
    const { get } = await setup((_request, socket) => {
      serverSocket = socket;
      socket.write(json(big));
    });
    const response = await get();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // More than the socket buffers hold: had the client read it all into memory, nothing would wait.
    expect(serverSocket!.writableLength).toBeGreaterThan(0);
    await expect(response.text()).resolves.toHaveLength(big.length);
  });

  it("after destroy(), in-flight requests fail and new ones are refused", async () => {
    const { get, pool } = await setup(() => undefined);
    const sent = get();
    await new Promise((resolve) => setTimeout(resolve, 20));
    pool.destroy();
    await expect(sent).rejects.toMatchObject({ code: "ECONNRESET" });
    await expect(get()).rejects.toMatchObject({ code: "ECONNRESET" });
  });
});
