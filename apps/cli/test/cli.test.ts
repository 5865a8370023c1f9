// The built CLI as a subprocess, against real servers.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { spawn } from "node:child_process";
import { everythingEntry, startSdkServer, startV2HttpServer, type SdkServer } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, fixture, mcp, sandboxes, userConfig, type Sandbox } from "./helpers.js";

const { box, removeAll } = sandboxes();
afterAll(removeAll);

describe("the embedded default, with an empty HOME", () => {
  const b = box();

  it("servers: says it uses the embedded default, in one line, and shows it connected", async () => {
    const run = await mcp(b, ["servers", "--json"]);
    expect(run.code).toBe(0);
    expect(run.stderr.trim().split("\n")).toEqual([
      expect.stringContaining(
        "No MCP config found: using the embedded default server (@modelcontextprotocol/server-everything over stdio)",
      ),
    ]);
    const rows = JSON.parse(run.stdout) as {
      name: string;
      status: string;
      tools: number;
      transport: string;
      source: string;
      connectMs: number;
    }[];
    expect(rows).toEqual([
      expect.objectContaining({
        name: "everything",
        status: "connected",
        transport: "stdio",
        source: "(embedded default)",
        tools: 13,
      }),
    ]);
    expect(rows[0]!.connectMs).toBeGreaterThan(0);
  });

  it("call: a tool that requires a task runs as one, each status on stderr, the result on stdout", async () => {
    const run = await mcp(b, ["call", "everything.simulate-research-query", "topic=tides"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("# Research Report: tides");
    const statuses = run.stderr.split("\n").filter((line) => line.startsWith("task "));
    expect(statuses).toContainEqual(
      expect.stringMatching(
        /^task working: (Gathering sources|Analyzing content|Synthesizing findings|Generating report)\.\.\.$/,
      ),
    );
    expect(statuses.at(-1)).toMatch(/^task completed/);
  }, 30_000);

  it("servers: a table a person can read", async () => {
    const run = await mcp(b, ["servers"]);
    expect(run.stdout).toMatch(/NAME\s+TRANSPORT\s+SOURCE\s+STATUS\s+TOOLS\s+TIME\s+LAST ERROR/);
    expect(run.stdout).toMatch(/everything\s+stdio\s+\(embedded default\)\s+connected\s+13\s+\d+ ms/);
  });

  it("tools: one signature-style line per tool; --json gives the full definitions", async () => {
    const run = await mcp(b, ["tools"]);
    expect(run.stdout).toContain("echo(message: string)");
    expect(run.stdout).toContain("get-sum(a: number, b: number)");
    expect(run.stdout).toContain('get-structured-content(location: "New York" | "Chicago" | "Los Angeles")');
    const json = JSON.parse((await mcp(b, ["tools", "--json"])).stdout) as {
      name: string;
      server: string;
      tool: string;
      inputSchema: object;
    }[];
    expect(json.find((t) => t.tool === "echo")).toMatchObject({
      name: "mcp__everything__echo",
      server: "everything",
      inputSchema: { type: "object", properties: { message: { type: "string" } } },
    });
  });

  it("call: every way to name a tool, key=value typed by the schema, JSON arguments", async () => {
    for (const name of ["echo", "everything.echo", "mcp__everything__echo"]) {
      const run = await mcp(b, ["call", name, "message=hi there"]);
      expect(run.stdout.trim(), name).toBe("Echo: hi there");
      expect(run.code).toBe(0);
    }
    expect((await mcp(b, ["call", "everything", "echo", "message=pair"])).stdout.trim()).toBe("Echo: pair");
    expect((await mcp(b, ["call", "get-sum", "a=2", "b=3"])).stdout).toContain("5");
    expect((await mcp(b, ["call", "get-sum", '{"a": 40, "b": 2}'])).stdout).toContain("42");
  });

  it("call: schema errors name the field and what was expected (exit 2)", async () => {
    const wrong = await mcp(b, ["call", "get-sum", "a=two", "b=3"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('invalid arguments for everything.get-sum: argument "a" must be number (got "two")');
    const missing = await mcp(b, ["call", "get-sum", "a=1"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing required argument "b"');
    const shape = await mcp(b, ["call", "echo", "message"]);
    expect(shape.code).toBe(2);
    expect(shape.stderr).toContain('expected key=value, key:=<json> (or one JSON object), got "message"');
  });

  it("call --max-result-chars: the text is cut, and the last line names the file that holds all of it, after the command ends", async () => {
    const message = "0123456789".repeat(20);
    const run = await mcp(b, ["call", "echo", `message=${message}`, "--max-result-chars", "30"]);
    expect(run.code, run.stderr).toBe(0);
    const [first, note] = run.stdout.trim().split("\n");
    expect(first).toBe(`Echo: ${message}`.slice(0, 30));
    const path = /^\[Result cut to 30 of 206 characters\. The whole result is in (\S+)\]$/.exec(note!)?.[1];
    expect(readFileSync(path!, "utf8")).toBe(`Echo: ${message}`);
    rmSync(dirname(path!), { recursive: true, force: true });
    const bad = await mcp(b, ["call", "echo", "message=x", "--max-result-chars", "lots"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-result-chars takes a whole number above 0, not "lots"');
  });

  it("call: a near-miss tool name suggests the closest ones (exit 2)", async () => {
    const run = await mcp(b, ["call", "ecko", "message=x"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown tool "ecko"; did you mean "echo"');
    const far = await mcp(b, ["call", "get-summ", "a=1", "b=2"]);
    expect(far.stderr).toContain('did you mean "get-sum"');
  });

  it("call: structured content printed once when the text says the same; images saved to files with their paths printed", async () => {
    const structured = await mcp(b, ["call", "get-structured-content", "location=Chicago"]);
    // server-everything sends the same JSON as text and as structuredContent: shown once.
    expect(structured.stdout).not.toContain("structured content:");
    expect(structured.stdout.match(/"temperature":/g)).toHaveLength(1);
    const image = await mcp(b, ["call", "get-tiny-image", "--out-dir", join(b.project, "out")]);
    const path = /saved to (\S+\.png)/.exec(image.stdout)?.[1];
    expect(path, image.stdout).toBeDefined();
    expect(readFileSync(path!).subarray(1, 4).toString()).toBe("PNG");
  });

  it("prompts, prompt, resources, read and ping", async () => {
    expect((await mcp(b, ["prompts"])).stdout).toContain("args-prompt(city, state?)");
    const prompt = await mcp(b, ["prompt", "args-prompt", "city=Lisbon"]);
    expect(prompt.stdout).toContain("Lisbon");
    const missing = await mcp(b, ["prompt", "args-prompt"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("needs city=…");
    const resources = await mcp(b, ["resources", "--json"]);
    const list = JSON.parse(resources.stdout) as { uri: string; template: boolean }[];
    const doc = list.find((r) => !r.template)!;
    expect((await mcp(b, ["read", doc.uri])).code).toBe(0);
    const ping = await mcp(b, ["ping", "--json"]);
    expect(JSON.parse(ping.stdout)).toEqual([{ server: "everything", ms: expect.any(Number), method: "ping" }]);
  });

  it("--version and --help (with examples)", async () => {
    expect((await mcp(b, ["--version"])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await mcp(b, ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Examples:");
    expect(help.stdout).toContain("mcp call echo");
  });
});

describe("a config with a stdio server, a Streamable HTTP server and a broken entry", () => {
  let b: Sandbox;
  let http: SdkServer;
  beforeAll(async () => {
    b = box();
    http = await startSdkServer();
    userConfig(b, {
      local: { command: process.execPath, args: [fixture] },
      remote: { type: "http", url: http.url },
      missing: { command: "no-such-mcp-server-xyz" },
      broken: { type: "http" },
    });
  });
  afterAll(() => http.stop());

  it("servers: the table shows each error; the others work", async () => {
    const run = await mcp(b, ["servers", "--json"]);
    expect(run.code).toBe(0);
    const rows = Object.fromEntries(
      (JSON.parse(run.stdout) as { name: string; status: string; lastError?: string; tools?: number }[]).map((r) => [
        r.name,
        r,
      ]),
    );
    expect(rows["local"]).toMatchObject({ status: "connected", tools: 7 });
    expect(rows["remote"]).toMatchObject({ status: "connected", tools: 3 });
    expect(rows["missing"]).toMatchObject({
      status: "failed",
      lastError: expect.stringContaining('command "no-such-mcp-server-xyz": command not found'),
    });
    expect(rows["broken"]).toMatchObject({
      status: "invalid",
      lastError: expect.stringContaining('http server requires "url" field'),
    });
    expect(run.stderr).not.toContain("embedded default");
  });

  it("arguments as HTTPie writes them: key:=<json>, key:=@file.json, key=@file, and \\@ for a value that starts with @", async () => {
    b.write(join(b.project, "tags.json"), ["p", "q"]);
    b.write(join(b.project, "note.txt"), "from a file");
    const raw = await mcp(b, [
      "call",
      "local.typed",
      "count:=3",
      "ratio:=0.25",
      "flag:=false",
      "tags:=@tags.json",
      "mode=slow",
      "note=\\@home",
      "--json",
    ]);
    expect(raw.code, raw.stderr).toBe(0);
    expect(JSON.parse(raw.stdout).structuredContent).toEqual({
      received: { count: 3, ratio: 0.25, flag: false, tags: ["p", "q"], mode: "slow", note: "@home" },
    });
    const file = await mcp(b, ["call", "local.typed", "count=1", "note=@note.txt", "--json"]);
    expect(JSON.parse(file.stdout).structuredContent).toEqual({ received: { count: 1, note: "from a file" } });
    const bad = await mcp(b, ["call", "local.typed", "count:={nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('argument "count": not valid JSON');
    // The text is the JSON of the structured content's only field ({ received: … }): printed once.
    const once = await mcp(b, ["call", "local.typed", "count=2"]);
    expect(once.stdout).toBe('{"count":2}\n');
  });

  it("calls on both transports; key=value typed as integer, number, boolean, array and enum", async () => {
    expect((await mcp(b, ["call", "remote.add", "a=20", "b=22"])).stdout.trim()).toBe("42");
    const typed = await mcp(b, [
      "call",
      "typed",
      "count=3",
      "ratio=0.5",
      "flag=true",
      "tags=a,b",
      "mode=fast",
      "note=007",
      "--json",
    ]);
    expect(JSON.parse(typed.stdout)).toMatchObject({
      structuredContent: {
        received: { count: 3, ratio: 0.5, flag: true, tags: ["a", "b"], mode: "fast", note: "007" },
      },
    });
    b.write(join(b.project, "note.txt"), "from a file");
    expect(JSON.parse((await mcp(b, ["call", "typed", "count=1", "note=@note.txt", "--json"])).stdout)).toMatchObject({
      structuredContent: { received: { note: "from a file" } },
    });
    const badEnum = await mcp(b, ["call", "typed", "count=1", "mode=medium"]);
    expect(badEnum.stderr).toContain('argument "mode" must be one of "fast", "slow"');
  });

  it("exit code 1 on isError, with the server's text", async () => {
    const run = await mcp(b, ["call", "fail"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("the backend said no");
    expect(run.stderr).toContain("local.fail reported an error (isError)");
  });

  it("--server restricts; an unknown one suggests names", async () => {
    const only = JSON.parse((await mcp(b, ["--server", "remote", "tools", "--json"])).stdout) as { server: string }[];
    expect(new Set(only.map((t) => t.server))).toEqual(new Set(["remote"]));
    const wrong = await mcp(b, ["--server", "remot", "tools"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('no server named "remot"; did you mean "remote"?');
  });

  it("a timeout names the call, how long, and the option that raises it; progress keeps a call alive", async () => {
    // --timeout covers connecting too, so the limit is far above a server's start on a busy machine
    // (1500 ms was too tight under a load of 10-16 on 2 cores). The chatty call's
    // server answers only once its own clock has passed the limit by a second (the client's timer
    // started before the server got the call, so the call outlived the limit on the client too): it
    // succeeds only if the progress every 200 ms reset the timer. Both run at once.
    const limit = 6000;
    const [quiet, chatty] = await Promise.all([
      mcp(b, ["--timeout", String(limit), "call", "hang"]),
      mcp(b, ["--timeout", String(limit), "call", "wait", `ms=${limit + 1000}`]),
    ]);
    expect(quiet.code, quiet.stderr).toBe(1);
    expect(quiet.stderr).toContain(
      `calling local.hang timed out after ${limit}ms (raise the limit with --timeout <ms>)`,
    );
    expect(chatty.code, chatty.stderr).toBe(0);
    expect(chatty.stdout.trim()).toBe(`waited ${limit + 1000} ms`);
    expect(chatty.stderr).toMatch(new RegExp(`progress \\d+/${limit + 1000} step \\d+`));
  });

  it("a tool of a server that failed to start: the error says which server, its command and why (never 'unknown tool')", async () => {
    const run = await mcp(b, ["call", "missing.anything"]);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain("unknown tool");
    expect(run.stderr).toContain(
      'server "missing" failed to start: command "no-such-mcp-server-xyz": command not found (ENOENT)',
    );
    expect(run.stderr).toContain("command: no-such-mcp-server-xyz");
    const invalid = await mcp(b, ["call", "broken.anything"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/server "broken" has an invalid entry in .*: http server requires "url" field/);
  });

  it("config doctor explains each failure", async () => {
    const run = await mcp(b, ["config", "doctor"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("✓ local: connected");
    expect(run.stdout).toContain('✗ missing: command "no-such-mcp-server-xyz" is not installed or not on PATH');
    expect(run.stdout).toMatch(/✗ broken: .*http server requires "url" field/);
  });
});

describe("ad-hoc servers and config editing", () => {
  it("--stdio runs a server with no config at all", async () => {
    const b = box();
    const run = await mcp(b, [
      "--stdio",
      `"${process.execPath}" ${everythingEntry} stdio`,
      "call",
      "echo",
      "message=adhoc",
    ]);
    expect(run.stdout.trim()).toBe("Echo: adhoc");
    expect(run.stderr).not.toContain("embedded default");
  });

  it("config add, list and remove keep the file's comments", async () => {
    const b = box();
    const file = b.write(
      join(b.home, ".config", "mcp-client", "mcp-client.json"),
      '// my servers\n{\n  "servers": {}\n}\n',
    );
    expect(
      (await mcp(b, ["config", "add", "fx", "--stdio", `${process.execPath} ${fixture}`, "--scope", "user"])).code,
    ).toBe(0);
    expect(readFileSync(file, "utf8")).toContain("// my servers");
    const listed = JSON.parse((await mcp(b, ["config", "list", "--json"])).stdout) as {
      name: string;
      state: string;
      file: string;
    }[];
    expect(listed).toContainEqual(expect.objectContaining({ name: "fx", state: "active", file }));
    expect((await mcp(b, ["call", "typed", "count=2"])).stdout).toContain('"count":2');
    const bad = await mcp(b, ["config", "add", "nope", "--http", "ftp://x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"url" must be http or https');
    expect((await mcp(b, ["config", "remove", "fx"])).code).toBe(0);
    expect(readFileSync(file, "utf8")).not.toContain('"fx"');
    expect(existsSync(file)).toBe(true);
  });

  it("config list hides the passwords of a server's URL and proxy", async () => {
    const b = box();
    b.write(join(b.home, ".config", "mcp-client", "mcp-client.json"), {
      servers: {
        remote: {
          type: "http",
          url: "https://me:url-secret@mcp.invalid/mcp",
          proxy: "http://corp:proxy-secret@proxy.invalid:3128",
        },
      },
    });
    const listed = await mcp(b, ["config", "list"]);
    expect(listed.stdout).toContain("via proxy http://corp:");
    expect(listed.stdout).not.toContain("url-secret");
    expect(listed.stdout).not.toContain("proxy-secret");
    const json = await mcp(b, ["config", "list", "--json"]);
    expect(json.stdout).not.toContain("secret");
  });

  it("project servers are skipped without a terminal or --yes, and say how to approve", async () => {
    const b = box();
    b.write(join(b.project, "mcp-client.json"), { servers: { proj: { command: process.execPath, args: [fixture] } } });
    const skipped = await mcp(b, ["servers", "--json"]);
    // One short line: which, why, where, and the command that approves it.
    expect(skipped.stderr).toBe(
      "Skipped project server proj (not approved yet; mcp-client.json). Approve: mcp config approve proj   (or --yes for one run)\n",
    );
    expect(JSON.parse(skipped.stdout)).toEqual([expect.objectContaining({ name: "proj", status: "not approved" })]);
    const approved = await mcp(b, ["--yes", "servers", "--json"]);
    expect(JSON.parse(approved.stdout)).toEqual([expect.objectContaining({ name: "proj", status: "connected" })]);
  });
});

describe("watch", () => {
  it("streams a server's notifications as JSON lines until Ctrl-C (SIGINT), then exits 0", async () => {
    const b = box();
    const server = await startV2HttpServer(); // 2026-07-28: notifications come on a subscriptions/listen stream
    try {
      const child = spawn(process.execPath, [bin, "--http", server.url, "watch", "--json"], {
        cwd: b.project,
        env: b.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      await expect.poll(() => stderr, { timeout: 15_000 }).toContain("Watching http");
      await expect
        .poll(() => server.requests.some((r) => r.body.includes("subscriptions/listen")), { timeout: 10_000 })
        .toBe(true);
      // Sent again at each poll until one arrives: the first may go out before the stream is acknowledged.
      await expect
        .poll(() => (server.notify.toolsChanged(), stdout), { timeout: 10_000 })
        .toContain("notifications/tools/list_changed");
      const line = JSON.parse(
        stdout
          .trim()
          .split("\n")
          .find((l) => l.includes("list_changed"))!,
      ) as { server: string; method: string; time: string };
      expect(line).toMatchObject({ server: "http", method: "notifications/tools/list_changed" });
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
