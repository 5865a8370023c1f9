// What a request's own headers (RequestOptions.headers, 2026-07-28) may set, seen by a raw server.
import { describe, expect, it } from "vitest";
import { answer, open, rawServer, response } from "./raw-server.js";

describe("a request's own headers (2026-07-28)", () => {
  it("cannot set Host, the session and protocol headers, the body's, or credentials; Mcp-Param-* and others go", async () => {
    const server = await rawServer((request, socket) => socket.write(response(answer(request.json?.id, { content: [] }))));
    const transport = await open(server.url, { headers: { authorization: "Bearer configured" } });
    transport.setProtocolVersion("2026-07-28");
    await transport.request("tools/call", { name: "t" }, {
      headers: { Host: "elsewhere.example", "Mcp-Session-Id": "forged", "Mcp-Method": "tools/list", Authorization: "Bearer stolen", Cookie: "a=b", "Content-Type": "text/plain", "Mcp-Param-Region": "eu", "X-Trace": "1" },
    });
    const sent = server.requests[0]!;
    expect(sent.header("host")).toBe(new URL(server.url).host);
    expect(sent.header("mcp-session-id")).toBeUndefined();
    expect(sent.header("mcp-method")).toBe("tools/call");
    expect(sent.header("authorization")).toBe("Bearer configured");
    expect(sent.header("cookie")).toBeUndefined();
    expect(sent.header("content-type")).toBe("application/json");
    expect(sent.header("mcp-param-region")).toBe("eu");
    expect(sent.header("x-trace")).toBe("1");
  });
});
