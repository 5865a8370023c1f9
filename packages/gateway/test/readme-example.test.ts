// The README's example, run as it is written: compiled from the README (TypeScript's own
// transpiler), started as a program in a temporary home whose config has server-everything, and
// called through its /tools/mcp with its users' keys, by the official SDK client.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { everythingEntry, freePort, waitForPort } from "mcp-test-utils";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const here = fileURLToPath(new URL(".", import.meta.url));

describe("the README's example", () => {
  let child: ChildProcess;
  let home: string;
  let port: number;
  let script: string;

  beforeAll(async () => {
    const readme = readFileSync(join(here, "..", "README.md"), "utf8");
    const code = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(code.split("\n").length).toBeLessThan(40);
    // Next to the package, so `@mcp/gateway` resolves to itself and `@mcp/manager` to its dependency.
    script = join(here, `.readme-example-${process.pid}.mjs`);
    writeFileSync(
      script,
      ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } })
        .outputText,
    );
    home = mkdtempSync(join(tmpdir(), "gateway-readme-"));
    mkdirSync(join(home, ".config", "mcp-client"), { recursive: true });
    writeFileSync(
      join(home, ".config", "mcp-client", "mcp-client.json"),
      JSON.stringify({ servers: { everything: { command: process.execPath, args: [everythingEntry, "stdio"] } } }),
    );
    port = await freePort();
    child = spawn(process.execPath, [script], {
      cwd: home,
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: home,
        XDG_CONFIG_HOME: join(home, ".config"),
        XDG_CACHE_HOME: join(home, ".cache"),
        PORT: String(port),
        ALICE_KEY: "alice-key-0123456789",
        BOB_KEY: "bob-key-0123456789",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr!.resume();
    await waitForPort(port, child, 30_000);
  }, 60_000);

  afterAll(() => {
    child?.kill();
    rmSync(script, { force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it("serves its users their tools under /tools/mcp, asks nobody else in, and leaves the rest of the app alone", async () => {
    const url = `http://127.0.0.1:${port}/tools/mcp`;
    const connect = async (key: string): Promise<Client> => {
      const client = new Client({ name: key, version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { "x-api-key": key } } }),
      );
      return client;
    };
    const alice = await connect("alice-key-0123456789");
    const echoed = await alice.callTool({ name: "everything__echo", arguments: { message: "hi" } });
    expect(echoed.content).toEqual([{ type: "text", text: "Echo: hi" }]);
    expect((await alice.listTools()).tools.length).toBeGreaterThan(5);
    const bob = await connect("bob-key-0123456789");
    expect((await bob.listTools()).tools.map((t) => t.name)).toEqual(["everything__echo"]);
    await Promise.all([alice.close(), bob.close()]);
    expect(
      (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status,
    ).toBe(401);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("the rest of your app\n");
  });
});
