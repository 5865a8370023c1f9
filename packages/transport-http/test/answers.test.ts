// Answers nobody handled, and errors that tell the truth, against raw socket servers: interim 1xx
// answers, 202/204 to a request, an SSE id a header cannot carry, a connection cut inside an answer's
// status line, and what a caller learns when a request may have run.
import { freePort } from "mcp-test-utils";
import { describe, expect, it } from "vitest";
import { NetworkError, NoResponseError } from "@mcp/jsonrpc";
import { answer, open, rawServer, response } from "./raw-server.js";

const RESULTS: Record<string, unknown> = { "tools/call": { content: [] }, "tools/list": { tools: [] } };

describe("interim 1xx answers before the real one (RFC 9110 §15.2)", () => {
  for (const method of ["tools/call", "tools/list"]) {
    it(`100 Continue: ${method} fails once, saying the answer could not be read and that it may have run; it is not sent again`, async () => {
      const server = await rawServer((request, socket) =>
        socket.write(`HTTP/1.1 100 Continue\r\n\r\n${response(answer(request.json?.id, RESULTS[method]))}`),
      );
      const transport = await open(server.url, { serverName: "docs" });
      const error = await transport
        .request(method, method === "tools/call" ? { name: "send_email" } : {})
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ mayHaveRun: true });
      expect((error as Error).message).toBe(
        `MCP server "docs" at ${server.url} answered in a way this client cannot read (an interim "100 Continue", which the HTTP client (undici) does not accept); the request may have run, so it was not sent again`,
      );
      expect(server.requests.filter((r) => r.json?.method === method)).toHaveLength(1);
    });
  }

  it("102 Processing and 103 Early Hints are skipped: the real answer settles the call (undici takes them)", async () => {
    const server = await rawServer((request, socket) => {
      socket.write("HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </x>; rel=preload\r\n\r\n");
      socket.write(response(answer(request.json?.id, RESULTS["tools/call"])));
    });
    const transport = await open(server.url);
    await expect(transport.request("tools/call", { name: "t" })).resolves.toEqual({ content: [] });
  });
});

describe("an SSE answer that began and broke, with no event id to resume it by", () => {
  it("a tools/call fails with NoResponseError saying it may have run (mayHaveRun: true), and is not sent again", async () => {
    const server = await rawServer((_request, socket) => {
      const event =
        'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}\n\n';
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n${event.length.toString(16)}\r\n${event}\r\n`,
        () => socket.destroy(),
      );
    });
    const transport = await open(server.url, { timeout: 600_000 });
    const error = await transport.request("tools/call", { name: "send_email" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoResponseError);
    expect(error).toMatchObject({ mayHaveRun: true });
    expect(server.requests).toHaveLength(1);
  });
});

describe("202 and 204 to a request: no response is coming", () => {
  for (const [status, body] of [
    ["202 Accepted", ""],
    ["204 No Content", ""],
    ["202 Accepted", "accepted"],
  ] as const) {
    it(`${status}${body ? ` with a body that is not JSON` : ""}: NoResponseError at once, not the request's timeout`, async () => {
      const server = await rawServer((_request, socket) =>
        socket.write(
          status.startsWith("204") ? `HTTP/1.1 ${status}\r\n\r\n` : response(body, "", status, "text/plain"),
        ),
      );
      // A timeout the test would never outlive: the failure must come from the answer itself.
      const transport = await open(server.url, { timeout: 600_000 });
      const error = await transport.request("tools/call", { name: "t" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NoResponseError);
      expect((error as Error).message).toMatch(/^No response received for request ID \d+$/);
      // The server took the request (a 2xx): it may have run.
      expect(error).toMatchObject({ mayHaveRun: true });
      expect(transport.pendingRequests).toBe(0);
    });
  }

  it("a 202 whose body holds the response: the response settles the call", async () => {
    const server = await rawServer((request, socket) =>
      socket.write(response(answer(request.json?.id, { via: 202 }), "", "202 Accepted")),
    );
    const transport = await open(server.url, { timeout: 600_000 });
    await expect(transport.request("tools/call", { name: "t" })).resolves.toEqual({ via: 202 });
  });

  it("a 202 whose declared body never arrives: NoResponseError soon, and its connection is released", async () => {
    const server = await rawServer((_request, socket) =>
      socket.write("HTTP/1.1 202 Accepted\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n"),
    );
    const transport = await open(server.url, { timeout: 600_000 });
    const error = await transport.request("tools/call", { name: "t" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoResponseError);
    expect(String((error as Error).cause)).toContain("did not arrive within");
    // The connection waiting for those 100 bytes is closed, not kept for a body that is not coming.
    await expect.poll(() => server.open(), { timeout: 10_000 }).toBe(0);
  });
});

describe("an SSE event id a header cannot carry as it is", () => {
  /** A POST answered with an SSE stream that carries `id` and breaks; the GET that resumes it gets the response. */
  async function resumable(id: string) {
    let posted: number | undefined;
    const server = await rawServer((request, socket) => {
      if (request.method === "POST") {
        posted = request.json?.id;
        socket.end(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\nretry: 1\nid: ${id}\ndata: \n\n`);
        return;
      }
      const event = `data: ${answer(posted, { resumed: true })}\n\n`;
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${Buffer.byteLength(event)}\r\n\r\n${event}`,
      );
    });
    return server;
  }

  it("an id with characters above U+00FF: resumed with its UTF-8 bytes in Last-Event-ID, as the server sent them", async () => {
    const id = "événement-🚀-7";
    const server = await resumable(id);
    const transport = await open(server.url);
    await expect(transport.request("tools/call", { name: "t" })).resolves.toEqual({ resumed: true });
    const get = server.requests.find((r) => r.method === "GET")!;
    expect(Buffer.from(get.header("last-event-id")!, "latin1")).toEqual(Buffer.from(id, "utf8"));
  });

  it("an id with a control character: NoResponseError saying why, not a NetworkError", async () => {
    const server = await resumable("a\u0001b");
    const transport = await open(server.url);
    const error = await transport.request("tools/call", { name: "t" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoResponseError);
    expect(String((error as Error).cause)).toContain("cannot be sent back in a Last-Event-ID header");
    expect(server.requests.map((r) => r.method)).toEqual(["POST"]);
  });
});

describe("a request whose answer had begun is not sent again", () => {
  // Cut after the first byte, inside the status line, inside the headers, one byte before their end.
  const head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 40\r\n\r\n";
  for (const bytes of [1, 9, 20, 40, head.length - 1]) {
    it(`tools/list, the connection closed after ${bytes} bytes of the answer: sent once, NetworkError`, async () => {
      const server = await rawServer((request, socket) => {
        if (request.connection === 1) socket.end(head.slice(0, bytes));
        else socket.write(response(answer(request.json?.id, { tools: [] })));
      });
      const transport = await open(server.url);
      const error = await transport.request("tools/list").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(server.requests.filter((r) => r.json?.method === "tools/list")).toHaveLength(1);
    });
  }
});

describe("what a caller learns when a request may have run", () => {
  it('a tools/call read by the server, then the connection cut: mayHaveRun, and the message says so (never "Cannot reach")', async () => {
    const server = await rawServer((_request, socket) => socket.destroy());
    const transport = await open(server.url, { serverName: "mail" });
    const error = await transport.request("tools/call", { name: "send_email" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ mayHaveRun: true, code: "network_error" });
    expect((error as Error).message).toMatch(
      new RegExp(
        `^The connection to MCP server "mail" at ${server.url} broke after the request was sent \\(.+\\); it may have run, so it was not sent again$`,
      ),
    );
    expect(server.requests).toHaveLength(1);

    // Beside it, nothing listening: the request cannot have run, and the message says the server cannot be reached.
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const refused = await open(url);
    await expect(refused.request("tools/call", { name: "t" })).rejects.toMatchObject({
      mayHaveRun: false,
      errno: "ECONNREFUSED",
      message: expect.stringMatching(/^Cannot reach MCP server/) as string,
    });
  });

  it("a body cut half-way: mayHaveRun too", async () => {
    const server = await rawServer((request, socket) => {
      const whole = response(answer(request.json?.id, { content: [{ type: "text", text: "x".repeat(1000) }] }));
      socket.end(whole.slice(0, whole.length - 100));
    });
    const transport = await open(server.url);
    await expect(transport.request("tools/call", { name: "t" })).rejects.toMatchObject({
      mayHaveRun: true,
      message: expect.stringContaining("it may have run") as string,
    });
  });
});
