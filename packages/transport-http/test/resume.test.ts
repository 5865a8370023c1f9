// A POST's SSE answer that broke after an event id, whose resume (GET + Last-Event-ID) then fails:
// the server read the request and began answering, so the request fails saying it may have run,
// with the resume's own failure as the cause.
import { RequestTimeoutError } from "@mcp/jsonrpc";
import { describe, expect, it } from "vitest";
import { answer, open, rawServer, response } from "./raw-server.js";

/** A server that gives a session, starts the call's answer with an event id, then ends it; `onResume` answers the GET. */
async function brokenAfterFirstEvent(onResume: Parameters<typeof rawServer>[0]) {
  return rawServer((request, socket) => {
    if (request.method === "POST" && request.json?.method === "initialize") {
      socket.write(response(answer(request.json.id, {}), "mcp-session-id: s-1\r\n"));
    } else if (request.method === "POST") {
      socket.end(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\nretry: 1\nid: e-1\ndata: \n\n`);
    } else {
      onResume(request, socket);
    }
  });
}

describe("a resume that fails after the answer had begun", () => {
  it.each([
    ["404 (the session is gone)", "404 Not Found", { code: "session_expired", status: 404 }],
    ['400 "No valid session ID"', "400 Bad Request", { code: "http_error", status: 400 }],
  ])("%s: the request may have run; the refusal is the cause", async (_name, status, cause) => {
    const server = await brokenAfterFirstEvent((_request, socket) => {
      socket.write(
        response(
          JSON.stringify({
            jsonrpc: "2.0",
            id: null,
            error: { code: -32000, message: "Bad Request: No valid session ID provided" },
          }),
          "",
          status,
        ),
      );
    });
    const transport = await open(server.url);
    await transport.request("initialize", {});
    const error = await transport.request("tools/call", { name: "charge" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "network_error", mayHaveRun: true, cause });
    expect((error as Error).message).toMatch(/may have run, so it was not sent again/);
    expect(server.requests.map((r) => r.method)).toEqual(["POST", "POST", "GET"]);
  });

  it("reset: the request may have run, though the GET's own failure says it was never read", async () => {
    const server = await brokenAfterFirstEvent((_request, socket) => socket.destroy());
    const transport = await open(server.url);
    await transport.request("initialize", {});
    const error = await transport.request("tools/call", { name: "charge" }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "network_error",
      mayHaveRun: true,
      cause: { code: "network_error", mayHaveRun: false },
    });
  });
});

describe("a retry: hint no timer can wait", () => {
  it("retry: 2³² ms is not taken as 1 ms: no resume comes before the request's timeout", async () => {
    const server = await rawServer((request, socket) => {
      if (request.method === "POST")
        socket.end(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\nretry: ${2 ** 32}\nid: e-1\ndata: \n\n`);
      else socket.write(response(`data: ${answer(1, { resumed: true })}\n\n`, "", "200 OK", "text/event-stream"));
    });
    const transport = await open(server.url, { timeout: 1000 });
    await expect(transport.request("tools/call", { name: "t" })).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(server.requests.map((r) => r.method)).toEqual(["POST"]);
  });
});
