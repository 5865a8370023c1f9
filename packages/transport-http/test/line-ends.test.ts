// An SSE line ended by a lone CR, on a stream that stays open (a POST's answer; the GET listener
// and HTTP+SSE read events the same way, through readSse).
import { describe, expect, it } from "vitest";
import { answer, open, rawServer } from "./raw-server.js";

describe("an SSE event ended by a lone CR", () => {
  it("answers the POST at once, though the server keeps the stream open", async () => {
    const server = await rawServer((request, socket) => {
      // Chunked, never ended: only the event's own line ends can dispatch it.
      const event = `data: ${answer(request.json?.id, { ok: true })}\r\r`;
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n${event.length.toString(16)}\r\n${event}\r\n`,
      );
    });
    const transport = await open(server.url, { timeout: 3000 });
    await expect(transport.request("tools/call", { name: "t" })).resolves.toEqual({ ok: true });
  });
});
