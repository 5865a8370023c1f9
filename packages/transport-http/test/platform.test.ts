// The network modules behind `#platform` (package.json "imports"; Node, Bun, web): one shape; the web one
// refuses what only Node can do instead of ignoring it. The web module in a real browser:
// apps/example/test/browser.test.ts.
import { InvalidConfigError } from "@mcp/jsonrpc";
import { describe, expect, it } from "vitest";
import * as bun from "../src/platform-bun.js";
import * as node from "../src/platform-node.js";
import * as web from "../src/platform-web.js";

// Compile-time: the web module has the Node module's shape (`#platform` resolves to either).
const sameShape: typeof node = web;
const bunShape: typeof node = bun;

describe("#platform", () => {
  it("the three modules export the same names", () => {
    expect(Object.keys(web).sort()).toEqual(Object.keys(node).sort());
    expect(Object.keys(bun).sort()).toEqual(Object.keys(node).sort());
    expect(Object.keys(node).sort()).toEqual(["defaultPool", "networkFetch"]);
    expect([sameShape, bunShape].map((m) => typeof m.defaultPool)).toEqual(["function", "function"]);
  });

  it("the web network refuses a proxy URL or a CA file with a clear error naming the field", async () => {
    const proxy = await web.defaultPool({ proxy: "http://proxy:3128", serverName: "docs" }).catch((e: unknown) => e);
    expect(proxy).toBeInstanceOf(InvalidConfigError);
    expect(proxy).toMatchObject({ field: "proxy", serverName: "docs" });
    expect((proxy as Error).message).toMatch(/^MCP server "docs": "proxy" needs Node \(or Bun or Deno\)/);
    await expect(web.networkFetch({ ca: "/etc/ca.pem" })).rejects.toMatchObject({ field: "ca" });
    // No proxy, or proxy: false: the platform's fetch.
    const pool = await web.defaultPool({ proxy: false });
    expect(typeof pool.exchange).toBe("function");
    pool.destroy();
    expect(typeof (await web.networkFetch({}))).toBe("function");
  });
});
