// What mcporter users reach for in `mcp call` (issue 58): a server called by its URL with no
// config, `--output markdown|raw|json`, and `--save-images <dir>`; against server-everything over
// Streamable HTTP on 127.0.0.1 and over stdio from the user's config.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { everythingEntry, startEverything, type EverythingServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcp, sandboxes, userConfig, type Sandbox } from "./helpers.js";

const { box, removeAll } = sandboxes();
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
let http: EverythingServer;
let b: Sandbox;

beforeAll(async () => {
  http = await startEverything("streamableHttp");
  b = box();
  userConfig(b, { everything: { command: process.execPath, args: [everythingEntry, "stdio"] } });
  // A project server nobody approved: a call by URL neither reads nor asks about it.
  b.write(join(b.project, ".mcp.json"), { mcpServers: { project: { command: "no-such-mcp-server-xyz" } } });
});
afterAll(async () => {
  await http.stop();
  removeAll();
});

describe("mcp call <url>: a server by its URL, no config", () => {
  it("<url> <tool> and <url>.<tool> call the server at that URL, and nothing configured", async () => {
    const two = await mcp(b, ["call", http.url, "echo", "message=hi"]);
    expect(two.code, two.stderr).toBe(0);
    expect(two.stdout).toBe("Echo: hi\n");
    expect(two.stderr).not.toContain("project");
    const dotted = await mcp(b, ["call", `${http.url}.get-sum`, "a=1", "b=2"]);
    expect(dotted.code, dotted.stderr).toBe(0);
    expect(dotted.stdout).toBe("The sum of 1 and 2 is 3.\n");
  });

  it("keeps nothing about the server given by URL: no pins, no tool cache entry", async () => {
    const run = await mcp(b, ["call", http.url, "echo", "message=kept?"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("Echo: kept?\n");
    // A URL is not a server the user added: pinning its tools (as trusted from now on) or caching
    // them writes it into the user's folders as if it were.
    const pins = join(b.home, ".config", "mcp-client", "pins.json");
    const pinned = existsSync(pins)
      ? Object.values(
          (JSON.parse(readFileSync(pins, "utf8")) as { servers: Record<string, { server: string }> }).servers,
        ).map((entry) => entry.server)
      : [];
    expect(pinned).not.toContain("http");
    const folder = join(b.home, ".cache", "mcp-client", "tools");
    const cached = existsSync(folder)
      ? readdirSync(folder).map((name) => (JSON.parse(readFileSync(join(folder, name), "utf8")) as { key: string }).key)
      : [];
    expect(cached.filter((key) => key.startsWith("http:"))).toEqual([]);
  });

  it("a URL with no tool, or with --http too, is a usage error saying what to write", async () => {
    const bare = await mcp(b, ["call", http.url]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(
      `name the tool after the URL (mcp call ${http.url} <tool> [args], or ${http.url}.<tool>`,
    );
    // A URL's password and token stay out of the message (it may end up in a CI log).
    const secret = await mcp(b, ["call", "http://ada:s3cret-pw@127.0.0.1:1/mcp?token=s3cret-tok"]);
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain(
      "mcp call http://ada:[redacted]@127.0.0.1:1/mcp?token=[redacted]: name the tool after the URL",
    );
    expect(secret.stderr).not.toMatch(/s3cret/);
    const twice = await mcp(b, ["--http", http.url, "call", http.url, "echo", "message=hi"]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("the URL names the server; leave out --http, --sse and --stdio");
  });
});

describe("mcp call --output and --save-images", () => {
  it("markdown: the text as sent, the image saved and linked", async () => {
    const dir = join(b.home, "md");
    const run = await mcp(b, ["call", "everything.get-tiny-image", "--output", "markdown", "-o", dir]);
    expect(run.code, run.stderr).toBe(0);
    const [saved] = readdirSync(dir);
    expect(readFileSync(join(dir, saved!)).subarray(0, 4)).toEqual(PNG);
    expect(run.stdout).toBe(
      `Here's the image you requested:\n\n![image/png](${join(dir, saved!)})\n\nThe image above is the MCP logo.\n`,
    );
  });

  it("raw: only the text the server sent on stdout; the saved image is told on stderr", async () => {
    const dir = join(b.home, "raw");
    const image = await mcp(b, ["call", http.url, "get-tiny-image", "--output", "raw", "--out-dir", dir]);
    expect(image.code, image.stderr).toBe(0);
    expect(image.stdout).toBe("Here's the image you requested:\nThe image above is the MCP logo.\n");
    const [saved] = readdirSync(dir);
    expect(image.stderr).toContain(`image image/png saved to ${join(dir, saved!)}`);
    // Structured content its text already says: the text alone, as JSON a pipe can parse.
    const structured = await mcp(b, [
      "call",
      "everything.get-structured-content",
      "location=Chicago",
      "--output",
      "raw",
    ]);
    expect(structured.code, structured.stderr).toBe(0);
    expect(JSON.parse(structured.stdout)).toMatchObject({ temperature: expect.any(Number) });
  });

  it("--save-images <dir> saves where --out-dir does", async () => {
    const dir = join(b.home, "saved");
    const run = await mcp(b, ["call", "everything.get-tiny-image", "--save-images", dir]);
    expect(run.code, run.stderr).toBe(0);
    const [saved] = readdirSync(dir);
    expect(run.stdout).toContain(`image image/png saved to ${join(dir, saved!)}`);
  });

  it("json is --json; --json with another --output, or an unknown one, is a usage error", async () => {
    const json = await mcp(b, ["call", "everything.echo", "message=hi", "--output", "json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(
      JSON.parse((await mcp(b, ["--json", "call", "everything.echo", "message=hi"])).stdout),
    );
    const both = await mcp(b, ["--json", "call", "everything.echo", "message=hi", "--output", "markdown"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--json and --output markdown say two things: give one");
    const unknown = await mcp(b, ["call", "everything.echo", "message=hi", "--output", "yaml"]);
    expect(unknown.code).toBe(2);
  });
});
