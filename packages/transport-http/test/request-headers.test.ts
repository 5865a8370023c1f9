// What a request's own headers (RequestOptions.headers, 2026-07-28) may set, and the DELETE on close's credentials, seen by a raw server.
import { describe, expect, it } from "vitest";
import { answer, open, rawServer, response } from "./raw-server.js";

describe("a request's own headers (2026-07-28)", () => {
  it("cannot set Host, the session and protocol headers, the body's, or credentials; Mcp-Param-* and others go", async () => {
    const server = await rawServer((request, socket) =>
      socket.write(response(answer(request.json?.id, { content: [] }))),
    );
    const transport = await open(server.url, { headers: { authorization: "Bearer configured" } });
    transport.setProtocolVersion("2026-07-28");
    await transport.request(
      "tools/call",
      { name: "t" },
      {
        headers: {
          Host: "elsewhere.example",
          "Mcp-Session-Id": "forged",
          "Mcp-Method": "tools/list",
          Authorization: "Bearer stolen",
          Cookie: "a=b",
          "Content-Type": "text/plain",
          "Mcp-Param-Region": "eu",
          "X-Trace": "1",
        },
      },
    );
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

describe("the DELETE that ends a session on close", () => {
  it("carries the auth provider's credentials, as every other request does", async () => {
    const server = await rawServer((request, socket) => {
      if (request.method === "DELETE") socket.write("HTTP/1.1 204 No Content\r\n\r\n");
      else socket.write(response(answer(request.json?.id, {}), "mcp-session-id: s-1\r\n"));
    });
    const transport = await open(server.url, {
      authProvider: { headers: () => ({ authorization: "Bearer from-provider" }) },
    });
    await transport.request("initialize", {});
    await transport.close();
    const deleted = server.requests.find((r) => r.method === "DELETE");
    expect(deleted?.header("mcp-session-id")).toBe("s-1");
    expect(deleted?.header("authorization")).toBe("Bearer from-provider");
  });
});
