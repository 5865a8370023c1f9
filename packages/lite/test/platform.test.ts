// The two modules behind `#platform`: one shape; off Node a proxy URL is refused, not ignored.
// In a real browser: apps/example/test/browser.test.ts.
import { InvalidConfigError } from "@mcp/jsonrpc";
import { describe, expect, it } from "vitest";
import * as bun from "../src/platform-bun.js";
import * as node from "../src/platform-node.js";
import * as web from "../src/platform-web.js";

const sameShape: typeof node = web; // compile-time: `#platform` resolves to any of the three
const bunShape: typeof node = bun;

describe("#platform", () => {
  it("both modules export the same names", () => {
    expect(Object.keys(web).sort()).toEqual(Object.keys(node).sort());
    expect(Object.keys(bun).sort()).toEqual(Object.keys(node).sort());
    expect(sameShape.NODE_NETWORK).toBe(false);
    expect(bunShape.NODE_NETWORK).toBe(true);
  });

  it("off Node, a proxy URL is a clear InvalidConfigError", async () => {
    const error = await web.proxiedFetch("http://proxy:3128").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect(error).toMatchObject({ field: "proxy", message: expect.stringMatching(/"proxy" \(a URL\) needs Node/) });
  });
});
