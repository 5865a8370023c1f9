// The Content-Security-Policy an MCP App's document gets from the origins its resource declares.
import { describe, expect, it } from "vitest";
import { appPolicy, viewDocument } from "../src/app-csp.js";

describe("an MCP App's policy", () => {
  it("is the specification's restrictive default when nothing is declared, with the app's own blob: and data: documents: no network, no frames, no eval", () => {
    expect(appPolicy(undefined)).toBe(
      "default-src 'none'; script-src 'self' 'unsafe-inline' blob: data:; style-src 'self' 'unsafe-inline' blob: data:; img-src 'self' data: blob:; font-src 'self' data: blob:; media-src 'self' data: blob:; worker-src 'self' blob:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'; form-action 'none'",
    );
  });

  it("maps each declared list to its directives, and drops what is not an origin", () => {
    const policy = appPolicy({
      connectDomains: [
        "https://api.example.com",
        "wss://live.example.com",
        "https://x.example.com; script-src *",
        "'unsafe-eval'",
        42,
      ],
      resourceDomains: ["https://*.cdn.example.com"],
      frameDomains: ["https://www.youtube.com"],
      baseUriDomains: "https://base.example.com",
    });
    expect(policy).toContain("connect-src https://api.example.com wss://live.example.com;");
    expect(policy).toContain("script-src 'self' 'unsafe-inline' blob: data: https://*.cdn.example.com;");
    expect(policy).toContain("img-src 'self' data: blob: https://*.cdn.example.com;");
    expect(policy).toContain("worker-src 'self' blob: https://*.cdn.example.com;");
    expect(policy).toContain("frame-src https://www.youtube.com;");
    expect(policy).toContain("base-uri 'self';");
    expect(policy).not.toMatch(/unsafe-eval|script-src \*|x\.example/);
  });

  it("comes first in the document, after the doctype, and cannot be closed early", () => {
    const html = viewDocument("<!DOCTYPE html><html><head><title>t</title></head></html>", {
      connectDomains: ['https://a.example.com/"><script>'],
    });
    expect(
      html.startsWith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src \'none\';'),
    ).toBe(true);
    expect(html).toContain("connect-src 'none'");
    expect(viewDocument("<p>no doctype</p>", undefined).startsWith("<meta http-equiv")).toBe(true);
  });
});
