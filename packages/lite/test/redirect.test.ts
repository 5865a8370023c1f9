// callMCP and redirects (the transport's policy: only within the URL's origin, a POST only by
// 307/308), and what a caller learns when a call may have run. Real node:http and TCP servers.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HttpError, NetworkError } from "@mcp/jsonrpc";
import { callMCP } from "../src/index.js";

interface Seen {
  url: string;
  method: string;
  headers: IncomingMessage["headers"];
  body: string;
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function server(
  handle: (req: IncomingMessage & { body: string }, res: ServerResponse) => void,
): Promise<{ url: string; origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const s = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += String(chunk)));
    req.on("end", () => {
      seen.push({ url: req.url ?? "", method: req.method ?? "", headers: req.headers, body });
      handle(Object.assign(req, { body }), res);
    });
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  stops.push(async () => {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  });
  const origin = `http://127.0.0.1:${(s.address() as { port: number }).port}`;
  return { url: `${origin}/mcp`, origin, seen };
}

/** Answers with the id of the request it got, as a server that ran it would. */
function answer(req: IncomingMessage & { body: string }, res: ServerResponse): void {
  const id = req.body ? (JSON.parse(req.body) as { id: string }).id : "lite-guess";
  res
    .writeHead(200, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", id, result: { at: req.url, method: req.method } }));
}

const SECRETS = { "X-Api-Key": "s-api-key", Authorization: "Bearer s-token", "Private-Token": "s-private" };

describe("callMCP and redirects", () => {
  for (const status of [301, 302, 303, 307, 308]) {
    const followed = status === 307 || status === 308;
    it(`${status}: ${followed ? "followed within the origin with the body" : "not turned into a GET"}; never to another origin`, async () => {
      const other = await server(answer);
      for (const origin of ["same", "other"] as const) {
        const f = await server((req, res) => {
          if (req.url !== "/mcp") return answer(req, res);
          res.writeHead(status, { location: origin === "same" ? "/moved" : other.url }).end();
        });
        const outcome = await callMCP(f.url, "tools/call", { name: "send_email" }, { headers: SECRETS }).catch(
          (e: unknown) => e,
        );
        const what = `${status}, ${origin} origin`;
        if (origin === "same" && followed) {
          expect(outcome, what).toMatchObject({ result: { at: "/moved", method: "POST" } });
          expect(f.seen[1]!.body, what).toBe(f.seen[0]!.body);
        } else {
          expect(outcome, what).toBeInstanceOf(HttpError);
          const target = origin === "same" ? `${f.origin}/moved` : other.url;
          expect(outcome, what).toMatchObject({ status, location: target });
          expect((outcome as Error).message, what).toContain(`: a redirect to ${target}, not followed: `);
          expect(
            f.seen.map((s) => s.url),
            what,
          ).toEqual(["/mcp"]);
        }
        expect(other.seen, what).toEqual([]);
      }
    });
  }
});

describe("a call that may have run", () => {
  it("the connection cut after the server read the call: mayHaveRun, and the message says so", async () => {
    let read = 0;
    const tcp = createTcpServer((socket) => {
      socket.on("error", () => undefined);
      socket.on("data", (chunk: Buffer) => {
        if (!chunk.toString("latin1").includes("tools/call")) return;
        read++;
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    stops.push(() => new Promise<void>((resolve) => tcp.close(() => resolve())));
    const url = `http://127.0.0.1:${(tcp.address() as { port: number }).port}/mcp`;
    const error = await callMCP(url, "tools/call", { name: "send_email" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({
      mayHaveRun: true,
      message: expect.stringContaining("broke after the request was sent") as string,
    });
    expect(read).toBe(1);
  });
});

// One redirect policy for @mcp/lite and @mcp/transport-http (@mcp/jsonrpc/internal): the same
// refusals in the same words; transport-http's redirects.test.ts asserts these strings too.
describe("a refused redirect says what @mcp/transport-http says", () => {
  it("another origin, and a 302 of a POST, word for word", async () => {
    const other = await server(answer);
    const away = await server((_req, res) => void res.writeHead(307, { location: other.url }).end());
    const refused = (url: string): Promise<string> =>
      callMCP(url, "ping").then(
        () => "followed",
        (e: unknown) => (e as Error).message,
      );
    expect(await refused(away.url)).toBe(
      `HTTP 307: a redirect to ${other.url}, not followed: it points to another origin (${other.origin}), and redirects are followed only within ${away.origin}; if you trust the new address, use it as the server's URL`,
    );
    const found = await server((_req, res) => void res.writeHead(302, { location: "/moved" }).end());
    expect(await refused(found.url)).toBe(
      `HTTP 302: a redirect to ${found.origin}/moved, not followed: a 302 would turn the POST into a GET without its body; only 307 and 308 are followed for a POST`,
    );
    expect(other.seen).toEqual([]);
  });
});
