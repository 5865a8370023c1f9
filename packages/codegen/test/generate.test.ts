// generateClient: the generated module compiles with the repo's TypeScript under --strict (and the
// repo's stricter flags), its types are exact (wrong arguments fail to compile), and it calls
// server-everything and a fixture server on the official SDK, whose tools it was generated from.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { connectToServer, disconnectServer, listTools, type MCPServerConfig } from "@mcp/client";
import { everythingEntry } from "mcp-test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clientModulePath,
  CodegenError,
  generateClient,
  writeClientModule,
  type GenerateClientOptions,
} from "../src/index.js";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const schemasServer = fileURLToPath(new URL("./fixtures/schemas-server.mjs", import.meta.url));

/** The module generateClient writes from a live server's tools, and how many tools it has. */
async function generateFrom(
  config: MCPServerConfig,
  options: Omit<GenerateClientOptions, "serverInfo">,
): Promise<{ text: string; count: number }> {
  const conn = await connectToServer(options.server, config);
  try {
    const tools = await listTools(conn);
    return { text: generateClient(tools, { ...options, serverInfo: conn.serverInfo }), count: tools.length };
  } finally {
    await disconnectServer(conn);
  }
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, out }));
  });
}

// What uses server-everything's client: calls that must compile and run, and mistakes that must not compile.
const useEverything = `import { connectToServer, disconnectServer } from "@mcp/client";
import { createEverythingClient, type GetSumArgs } from "./everything.js";

const conn = await connectToServer("everything", { command: process.execPath, args: [process.argv[2]!, "stdio"] });
const everything = createEverythingClient(conn);
const args: GetSumArgs = { a: 1, b: 2 };
const sum = await everything.getSum(args);
const weather = await everything.getStructuredContent({ location: "Chicago" });
if (weather.isError) throw new Error("get-structured-content failed");
const temperature: number = weather.structuredContent.temperature;
const conditions: string = weather.structuredContent.conditions;
const echoed = await everything.echo({ message: "hi" });
await everything.getEnv();
// @ts-expect-error a is a number
void (() => everything.getSum({ a: "1", b: 2 }));
// @ts-expect-error b is required
void (() => everything.getSum({ a: 1 }));
// @ts-expect-error Paris is not one of the enum's cities
void (() => everything.getStructuredContent({ location: "Paris" }));
// @ts-expect-error no such argument
void (() => everything.echo({ message: "hi", loud: true }));
// @ts-expect-error no such tool
void everything.getProduct;
// @ts-expect-error structuredContent is not a number
const wrong: number = weather.structuredContent;
void wrong;
console.log(JSON.stringify({ sum: sum.content, temperature, conditions, echoed: echoed.content }));
await disconnectServer(conn);
`;

// What uses the fixture's client: every kind of schema, typed exactly.
const useSchemas = `import { connectToServer, disconnectServer } from "@mcp/client";
import { createSchemas, type ShapeArgs, type ShapeArgsTree } from "./schemas.js";

const conn = await connectToServer("schemas", { command: process.execPath, args: [process.argv[2]!] });
const client = createSchemas(conn);
const tree: ShapeArgsTree = { label: "root", children: [{ label: "leaf", children: [] }] };
const full: ShapeArgs = {
  mode: "fast",
  kind: "shape",
  count: 2,
  origin: { x: 1, y: 2 },
  path: [{ x: 0, y: 0 }],
  tree,
  pair: ["a", 1],
  label: null,
  note: null,
  either: { id: 7 },
  both: { a: "x", b: true },
  tags: { env: "prod" },
  "content-type": "text/plain",
  nested: { deep: { flag: true } },
  self: { mode: "slow", origin: { x: 0, y: 0 }, nested: { deep: { flag: false } } },
};
const shaped = await client.shape(full);
if (shaped.isError) throw new Error("shape failed");
const mode: "fast" | "slow" = shaped.structuredContent.mode;
const x: number = shaped.structuredContent.origin.x;
await client.noArgs();
await client._2faCheck({ code: "123456" });
// @ts-expect-error mode is one of "fast" | "slow"
void (() => client.shape({ ...full, mode: "medium" }));
// @ts-expect-error kind is the const "shape"
void (() => client.shape({ ...full, kind: "circle" }));
// @ts-expect-error origin is required
void (() => client.shape({ mode: "fast", nested: { deep: { flag: true } } }));
// @ts-expect-error the nested flag is required
void (() => client.shape({ ...full, nested: { deep: {} } }));
// @ts-expect-error origin takes no other property (additionalProperties: false)
void (() => client.shape({ ...full, origin: { x: 1, y: 2, z: 3 } }));
// @ts-expect-error a tree's children are trees
void (() => client.shape({ ...full, tree: { label: "r", children: [{ name: "x" }] } }));
// @ts-expect-error pair is [string, number]
void (() => client.shape({ ...full, pair: [1, "a"] }));
// @ts-expect-error pair has exactly two items
void (() => client.shape({ ...full, pair: ["a", 1, 2] }));
// @ts-expect-error label is a string or null
void (() => client.shape({ ...full, label: 3 }));
// @ts-expect-error either is a string or { id: number }
void (() => client.shape({ ...full, either: { id: "7" } }));
// @ts-expect-error both needs a and b
void (() => client.shape({ ...full, both: { a: "x" } }));
// @ts-expect-error tags are strings
void (() => client.shape({ ...full, tags: { env: 1 } }));
// @ts-expect-error noArgs takes no argument
void (() => client.noArgs({ anything: 1 }));
// @ts-expect-error the output's origin has no z
void shaped.structuredContent.origin.z;
console.log(JSON.stringify({ mode, x, self: shaped.structuredContent["self"] }));
await disconnectServer(conn);
`;

describe("generateClient", () => {
  let dir: string;

  beforeAll(() => {
    // Inside the package's folder, so the module's import of @mcp/client resolves as a user's would.
    dir = mkdtempSync(join(fileURLToPath(new URL("..", import.meta.url)), ".codegen-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes modules that compile under --strict, reject wrong arguments, and call the servers", async () => {
    const everything = await generateFrom(
      { command: process.execPath, args: [everythingEntry, "stdio"] },
      { server: "everything" },
    );
    expect(everything.count).toBe(13);
    expect(everything.text).toContain("export function createEverythingClient(");
    writeFileSync(join(dir, "everything.ts"), everything.text);
    const schemas = await generateFrom(
      { command: process.execPath, args: [schemasServer] },
      { server: "schemas", name: "Schemas" },
    );
    writeFileSync(join(dir, "schemas.ts"), schemas.text);
    // The description's "*/" cannot end its comment early; the doc says which tool it is.
    expect(schemas.text).toContain("Every kind of schema *\\/ in one tool");
    expect(schemas.text).toContain("Tool `2fa.check`.");
    writeFileSync(join(dir, "use-everything.ts"), useEverything);
    writeFileSync(join(dir, "use-schemas.ts"), useSchemas);

    const flags = [
      "--ignoreConfig",
      "--strict",
      "--exactOptionalPropertyTypes",
      "--noUncheckedIndexedAccess",
      "--verbatimModuleSyntax",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--target",
      "es2022",
      "--types",
      "node",
      "--skipLibCheck",
      "--outDir",
      dir,
    ];
    const compiled = await run(
      process.execPath,
      [tsc, ...flags, "everything.ts", "schemas.ts", "use-everything.ts", "use-schemas.ts"],
      dir,
    );
    expect(compiled.out).toBe("");
    expect(compiled.code).toBe(0);

    const ran = await run(process.execPath, [join(dir, "use-everything.js"), everythingEntry], dir);
    expect(ran.code, ran.out).toBe(0);
    const result = JSON.parse(ran.out.trim().split("\n").at(-1)!) as {
      sum: { text: string }[];
      temperature: number;
      conditions: string;
      echoed: { text: string }[];
    };
    expect(result.sum[0]!.text).toBe("The sum of 1 and 2 is 3.");
    expect(typeof result.temperature).toBe("number");
    expect(result.echoed[0]!.text).toBe("Echo: hi");

    const shaped = await run(process.execPath, [join(dir, "use-schemas.js"), schemasServer], dir);
    expect(shaped.code, shaped.out).toBe(0);
    expect(JSON.parse(shaped.out.trim().split("\n").at(-1)!)).toEqual({
      mode: "fast",
      x: 1,
      self: { mode: "slow", origin: { x: 0, y: 0 }, nested: { deep: { flag: false } } },
    });
  });

  it("each mistake in the using code is a compile error (the expectations above are not vacuous)", async () => {
    // Without its @ts-expect-error, each of those lines must fail to compile, and only those.
    const expected: number[] = [];
    const kept: string[] = [];
    for (const line of useSchemas.split("\n")) {
      if (line.startsWith("// @ts-expect-error")) expected.push(kept.length + 1);
      else kept.push(line);
    }
    writeFileSync(join(dir, "loose.ts"), kept.join("\n"));
    const compiled = await run(
      process.execPath,
      [
        tsc,
        "--ignoreConfig",
        "--strict",
        "--exactOptionalPropertyTypes",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2022",
        "--types",
        "node",
        "--skipLibCheck",
        "--noEmit",
        "loose.ts",
      ],
      dir,
    );
    expect(compiled.code).not.toBe(0);
    const failing = new Set(
      compiled.out
        .split("\n")
        .flatMap((line) => /^loose\.ts\((\d+),/.exec(line)?.[1] ?? [])
        .map(Number),
    );
    expect(expected.length).toBe(14);
    expect(expected.filter((line) => !failing.has(line))).toEqual([]);
    expect([...failing].filter((line) => !expected.includes(line))).toEqual([]);
  });

  it("is pure: the same tools give the same text; it names what generated it; a name that is not an identifier is a CodegenError", () => {
    const tools = [
      {
        name: "get-sum",
        description: "Adds",
        inputSchema: {
          type: "object" as const,
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
      },
    ];
    const text = generateClient(tools, { server: "calc" });
    expect(generateClient(tools, { server: "calc" })).toBe(text);
    expect(text.split("\n")[0]).toBe('// Generated by @mcp/codegen from the tools of server "calc".');
    expect(
      generateClient(tools, {
        server: "calc",
        generator: "`mcp codegen calc`",
        serverInfo: { name: "calc-server", version: "1.2.3" },
      }).split("\n")[0],
    ).toBe('// Generated by `mcp codegen calc` from the tools of server "calc" (calc-server 1.2.3).');
    expect(text).toContain("export type GetSumArgs = {");
    expect(text).toContain(
      "export function createCalcClient(target: MCPServerConnection<MCPTransport> | ToolCaller): CalcClient {",
    );
    expect(() => generateClient(tools, { server: "calc", name: "my client" })).toThrow(CodegenError);
    expect(() => generateClient(tools, { server: "calc", name: "my client" })).toThrow(
      'name must be a TypeScript identifier, not "my client"',
    );
    expect(() => generateClient(tools, { server: "calc", name: "my client" })).toThrow(
      expect.objectContaining({ option: "name" }),
    );
  });
});

describe("clientModulePath", () => {
  it("a folder that exists, or a path ending in a slash, gets <folder>/<server>.ts (the name made a file name); any other path is the file", () => {
    const dir = mkdtempSync(join(tmpdir(), "codegen-path-"));
    try {
      expect(clientModulePath(dir, "my docs/v2")).toBe(join(dir, "my-docs-v2.ts"));
      expect(clientModulePath(join(dir, "new") + "/", "a.b_c-d")).toBe(join(dir, "new", "a.b_c-d.ts"));
      expect(clientModulePath(join(dir, "client.ts"), "docs")).toBe(join(dir, "client.ts"));
      writeFileSync(join(dir, "file"), "");
      expect(clientModulePath(join(dir, "file"), "docs")).toBe(join(dir, "file"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("writeClientModule", () => {
  it("writes the text where clientModulePath says and gives the file; a file it cannot write is a CodegenError on out naming it", () => {
    const dir = mkdtempSync(join(tmpdir(), "codegen-write-"));
    try {
      const file = writeClientModule(dir, "my docs", "export {};\n");
      expect(file).toBe(join(dir, "my-docs.ts"));
      expect(readFileSync(file, "utf8")).toBe("export {};\n");
      const missing = join(dir, "no", "such", "x.ts");
      expect(() => writeClientModule(missing, "docs", "")).toThrow(
        expect.objectContaining({
          name: "CodegenError",
          option: "out",
          message: `out ${missing}: cannot write it (ENOENT)`,
        }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
