// @mcp/jsonrpc/internal: the one redirect policy and proxy-environment policy that
// @mcp/transport-http and @mcp/lite both apply (their own tests show it on real sockets).
import { describe, expect, it } from "vitest";
import { envProxyFor, judgeRedirect, parseProxyUrl, proxyEnvKey } from "../src/internal.js";
import * as main from "../src/index.js";

const base = { configured: "http://127.0.0.1:3000/mcp", current: "http://127.0.0.1:3000/mcp", hops: 0 };

describe("judgeRedirect", () => {
  it("follows within the origin: a POST by 307/308, a GET by any redirect", () => {
    for (const status of [307, 308])
      expect(judgeRedirect({ ...base, location: "/moved", status, method: "POST" })).toEqual({
        follow: new URL("http://127.0.0.1:3000/moved"),
      });
    for (const status of [301, 302, 303])
      expect(judgeRedirect({ ...base, location: "/stream", status, method: "GET" })).toEqual({
        follow: new URL("http://127.0.0.1:3000/stream"),
      });
  });

  it("refuses, saying why: another origin, a POST turned into a GET, too many hops, not http, not a URL, no Location", () => {
    expect(judgeRedirect({ ...base, location: "http://127.0.0.2:3000/mcp", status: 307, method: "POST" })).toEqual({
      refuse:
        "it points to another origin (http://127.0.0.2:3000), and redirects are followed only within http://127.0.0.1:3000; if you trust the new address, use it as the server's URL",
      target: "http://127.0.0.2:3000/mcp",
    });
    expect(judgeRedirect({ ...base, location: "/x", status: 303, method: "POST" })).toMatchObject({
      refuse: "a 303 would turn the POST into a GET without its body; only 307 and 308 are followed for a POST",
    });
    expect(judgeRedirect({ ...base, location: "/x", status: 307, method: "POST", hops: 5 })).toMatchObject({
      refuse: "more than 5 redirects in a row",
    });
    expect(
      judgeRedirect({ ...base, location: "/x", status: 307, method: "POST", hops: 2, maxRedirects: 2 }),
    ).toMatchObject({ refuse: "more than 2 redirects in a row" });
    expect(judgeRedirect({ ...base, location: "ftp://127.0.0.1/mcp", status: 307, method: "POST" })).toMatchObject({
      refuse: "it is not an http or https URL (ftp:)",
    });
    expect(judgeRedirect({ ...base, location: "http://[::1", status: 307, method: "POST" })).toEqual({
      refuse: "it is not a valid URL",
      target: "http://[::1",
    });
    expect(judgeRedirect({ ...base, location: undefined, status: 0, method: "POST" })).toEqual({
      refuse: "it does not say where it points (an opaque redirect)",
      target: undefined,
    });
  });
});

describe("the proxy environment", () => {
  it("lower-case names first; https falls back to the http proxy; NO_PROXY is part of the key", () => {
    expect(envProxyFor("https:", { HTTPS_PROXY: "http://a:1", https_proxy: "http://b:1" })).toBe("http://b:1");
    expect(envProxyFor("https:", { HTTP_PROXY: "http://c:1" })).toBe("http://c:1");
    expect(envProxyFor("http:", { HTTPS_PROXY: "http://a:1" })).toBeUndefined();
    expect(proxyEnvKey({ HTTP_PROXY: "http://c:1", NO_PROXY: "x" })).not.toBe(
      proxyEnvKey({ HTTP_PROXY: "http://c:1" }),
    );
  });

  it("a proxy URL is http or https; the sentence names the field, never the URL", () => {
    expect(parseProxyUrl("http://u:secret@127.0.0.1:3128")).toBeInstanceOf(URL);
    expect(parseProxyUrl("socks5://u:secret@127.0.0.1:1080", "HTTPS_PROXY")).toBe(
      '"HTTPS_PROXY" must be an http or https proxy URL, got socks5:',
    );
    expect(parseProxyUrl("::", "proxy")).toBe('"proxy" is not a valid proxy URL');
    expect(parseProxyUrl(3)).toBe('"proxy" must be a proxy URL (or false for none)');
  });

  it("stays out of the main entry", () => {
    expect(
      Object.keys(main).filter((name) =>
        ["judgeRedirect", "envProxyFor", "parseProxyUrl", "proxyEnvKey", "PROXY_ENV_NAMES"].includes(name),
      ),
    ).toEqual([]);
  });
});
