// The HTTP client's safety rules, against raw socket servers that do what a real server can but
// will not on demand: bytes after a body, a connection closed at each point of an exchange, a
// Keep-Alive hint, a burst past the connection limit.
import { NetworkError } from "@mcp/jsonrpc";
import { describe, expect, it } from "vitest";
import { answer, open, rawServer, response } from "./raw-server.js";

describe("bytes after a body never answer the next request", () => {
  for (const size of [100_000, 200_000, 300_000, 1_000_000]) {
    it(`a ${size / 1000} KB tools/list answer followed by a forged reply`, async () => {
      const server = await rawServer((request, socket) => {
        if (request.json?.method === "tools/list") {
          const tools = [{ name: "t", description: "x".repeat(size), inputSchema: { type: "object" } }];
          // The forged reply claims the id the client will give its next request.
          const forged = response(answer((request.json.id ?? 0) + 1, { content: [{ type: "text", text: "FORGED" }] }));
          socket.write(response(answer(request.json.id, { tools })) + forged);
          return;
        }
        socket.write(response(answer(request.json?.id, { content: [{ type: "text", text: "real" }] })));
      });
      const transport = await open(server.url);
      const listed = await transport.request<{ tools: unknown[] }>("tools/list");
      expect(listed.tools).toHaveLength(1);
      const called = await transport.request<{ content: { text: string }[] }>("tools/call", { name: "t" });
      expect(called.content[0]!.text).toBe("real");
      // The connection that carried the extra bytes was dropped; the call went on another.
      const call = server.requests.find((r) => r.json?.method === "tools/call")!;
      expect(call.connection).not.toBe(server.requests.find((r) => r.json?.method === "tools/list")!.connection);
    });
  }
});

describe("a request is sent again only when it is known not to have been processed", () => {
  // Where the first connection is closed: as soon as it is accepted, after the whole request was
  // read, or after half an answer. Later connections are served normally.
  const points = ["on accept", "after the request", "after half an answer"] as const;
  const methods = [
    { method: "tools/call", safe: false },
    { method: "tools/list", safe: true },
    { method: "resources/read", safe: true },
  ];
  for (const point of points) {
    for (const { method, safe } of methods) {
      it(`${method}, connection closed ${point}`, async () => {
        const server = await rawServer(
          (request, socket) => {
            const body = answer(
              request.json?.id,
              method === "tools/call" ? { content: [] } : method === "tools/list" ? { tools: [] } : { contents: [] },
            );
            if (request.connection === 1 && point === "after the request") socket.destroy();
            else if (request.connection === 1 && point === "after half an answer") {
              const whole = response(body);
              socket.end(whole.slice(0, whole.length - 10));
            } else socket.write(response(body));
          },
          (connection, socket) => {
            if (connection === 1 && point === "on accept") {
              socket.destroy();
              return false;
            }
            return true;
          },
        );
        const transport = await open(server.url);
        const outcome = await transport
          .request(method, method === "tools/call" ? { name: "t" } : method === "resources/read" ? { uri: "x:y" } : {})
          .then(
            () => "answered",
            (error: unknown) => error,
          );
        const received = server.requests.filter((r) => r.json?.method === method).length;
        if (point === "on accept") {
          // Nothing reached the server: sending it again is safe whatever the method.
          expect(received).toBe(outcome === "answered" ? 1 : 0);
        } else if (safe && point === "after the request") {
          // No answer byte came: a method without side effects is sent once more, on a new connection.
          expect(outcome).toBe("answered");
          expect(received).toBe(2);
        } else {
          // The server read it (or began to answer): it is not sent twice, and the caller is told the connection broke.
          expect(received).toBe(1);
          expect(NetworkError.isInstance(outcome)).toBe(true);
        }
      });
    }
  }

  it("a notification whose connection closed after it was read is not sent again", async () => {
    const server = await rawServer((request, socket) => {
      if (request.json?.method === "notifications/roots/list_changed") socket.destroy();
      else socket.write(response(answer(request.json?.id, {})));
    });
    const transport = await open(server.url);
    await expect(transport.notify("notifications/roots/list_changed")).rejects.toBeInstanceOf(NetworkError);
    expect(server.requests.filter((r) => r.json?.method === "notifications/roots/list_changed")).toHaveLength(1);
  });
});

describe("connections", () => {
  for (const hint of [true, false]) {
    it(
      hint
        ? "retires an idle connection before the server's Keep-Alive timeout ends it"
        : "keeps an idle connection for 4 s when the server gives no hint",
      async () => {
        const header = hint ? "keep-alive: timeout=2\r\n" : "";
        const server = await rawServer((request, socket) =>
          socket.write(response(answer(request.json?.id, { content: [] }), header)),
        );
        const transport = await open(server.url);
        for (const name of ["a", "b", "c"]) await transport.request("tools/call", { name });
        const before = server.connections();
        expect(before).toBeLessThanOrEqual(2);
        // A 2 s hint is retired 1 s early: after 1.2 s idle the next call takes a new connection.
        await new Promise((resolve) => setTimeout(resolve, 1200));
        await transport.request("tools/call", { name: "d" });
        expect(server.connections()).toBe(hint ? before + 1 : before);
        expect(server.requests.filter((r) => r.json?.method === "tools/call")).toHaveLength(4);
      },
    );
  }

  it("keeps at most 64 connections to one origin, also while every other connection is dropped", async () => {
    const server = await rawServer((request, socket) => {
      setTimeout(() => {
        if (request.connection % 2 === 0) socket.destroy();
        else socket.write(response(answer(request.json?.id, { tools: [] })));
      }, 20);
    });
    const transport = await open(server.url);
    const outcomes = await Promise.allSettled(Array.from({ length: 300 }, () => transport.request("tools/list")));
    expect(server.peak()).toBeLessThanOrEqual(64);
    expect(server.peak()).toBeGreaterThan(8);
    // tools/list has no side effect: each broken one is sent once more, and most get through.
    expect(outcomes.filter((o) => o.status === "fulfilled").length).toBeGreaterThan(150);
  });
});

describe("an unsolicited 408 on a connection the server was closing", () => {
  it("a tools/call answered 408 + close is sent once more on a new connection, and succeeds", async () => {
    const server = await rawServer((request, socket) => {
      // The server's idle timeout fired as the request arrived: 408, and the connection closes.
      if (request.connection === 1)
        socket.end("HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
      else socket.write(response(answer(request.json?.id, { content: [{ type: "text", text: "ran" }] })));
    });
    const transport = await open(server.url);
    await expect(transport.request("tools/call", { name: "t" })).resolves.toEqual({
      content: [{ type: "text", text: "ran" }],
    });
    expect(server.requests.map((r) => r.connection)).toEqual([1, 2]);
  });

  it("a second 408 is the answer: HttpError 408, no third try", async () => {
    const server = await rawServer((_request, socket) =>
      socket.end("HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"),
    );
    const transport = await open(server.url);
    await expect(transport.request("tools/call", { name: "t" })).rejects.toMatchObject({ status: 408 });
    expect(server.requests).toHaveLength(2);
  });

  // A 408 on a connection the server keeps is its answer to this request, which it read: a
  // handler's own timeout (Go's gin-contrib/timeout, koa-timeout answer 408 as the handler runs on).
  it("a tools/call answered 408 on a kept connection is not sent again: HttpError 408, one request", async () => {
    const server = await rawServer((_request, socket) =>
      socket.write("HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"),
    );
    const transport = await open(server.url);
    await expect(transport.request("tools/call", { name: "t" })).rejects.toMatchObject({ status: 408 });
    expect(server.requests).toHaveLength(1);
  });

  it("a tools/list (no side effect) answered 408 on a kept connection is sent once more", async () => {
    let seen = 0;
    const server = await rawServer((request, socket) => {
      if (seen++ === 0) socket.write("HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n\r\n");
      else socket.write(response(answer(request.json?.id, { tools: [] })));
    });
    const transport = await open(server.url);
    await expect(transport.request("tools/list")).resolves.toEqual({ tools: [] });
    expect(server.requests).toHaveLength(2);
  });
});
