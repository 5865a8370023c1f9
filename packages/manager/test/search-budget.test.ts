// Tool search over the manager's tools, and result budgets, against server-everything.
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { everythingEntry } from "mcp-test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { MCPManager, MemoryPinStore, type MCPManagerOptions } from "../src/index.js";
import { ToolSearchIndex, words } from "../src/search.js";

const managers: MCPManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.disconnectAll();
});
async function everything(options: MCPManagerOptions = {}): Promise<MCPManager> {
  const m = new MCPManager({
    pins: { store: new MemoryPinStore() },
    cache: false,
    reconnect: false,
    oauth: false,
    ...options,
  });
  managers.push(m);
  const { errors } = await m.connectServers({
    everything: { command: process.execPath, args: [everythingEntry, "stdio"], timeout: 20_000 },
  });
  expect(errors.size).toBe(0);
  return m;
}
const fake = (
  server: string,
  tool: string,
  description: string,
  properties: Record<string, { description?: string }> = {},
) => ({
  name: `mcp__${server}__${tool}`,
  serverName: server,
  toolName: tool,
  title: undefined,
  description,
  inputSchema: { type: "object" as const, properties },
  outputSchema: undefined,
  annotations: undefined,
  deferred: false,
  call: () => Promise.resolve({ content: [] }),
});

describe("searchTools", () => {
  it("ranks server-everything's tools by name, description and parameters", async () => {
    const m = await everything();
    expect(m.searchTools("add two numbers")[0]!.toolName).toBe("get-sum");
    expect(m.searchTools("echo", { limit: 1 }).map((t) => t.toolName)).toEqual(["echo"]);
    expect(m.searchTools("tiny image")[0]!.toolName).toBe("get-tiny-image");
    expect(m.searchTools("zebra")).toEqual([]);
    // The tools found are the manager's own: they call.
    const [echo] = m.searchTools("echo a message back");
    expect(await echo!.call({ message: "found" })).toMatchObject({ content: [{ text: "Echo: found" }] });
  });

  it("splits names the way people write them; an exact name comes first; parameter descriptions count", () => {
    expect(words("getFileContents list_directories read-files")).toEqual([
      "get",
      "file",
      "content",
      "list",
      "directory",
      "read",
      "file",
    ]);
    const index = new ToolSearchIndex([
      fake("fs", "read_file", "Read the complete contents of a file", {
        path: { description: "Path of the file to read" },
      }),
      fake("fs", "list_directory", "List a directory's entries"),
      fake("gh", "create_issue", "Open an issue in a repository", { labels: { description: "Labels such as bug" } }),
      fake("db", "query", "Run SQL"),
    ]);
    expect(index.search("read a file").map((t) => t.toolName)).toEqual(["read_file"]);
    expect(index.search("bug report").map((t) => t.toolName)).toEqual(["create_issue"]);
    expect(index.search("query")[0]!.toolName).toBe("query");
    expect(index.search("directories")[0]!.toolName).toBe("list_directory");
  });
});

describe("result budgets", () => {
  it("text over maxResultChars is cut; the last line names a file (mode 600) holding all of it; the folder goes with the manager", async () => {
    const m = await everything();
    const echo = m.getTools().find((t) => t.toolName === "echo")!;
    const message = "abcdefghij".repeat(30);
    const result = await echo.call({ message }, { maxResultChars: 50 });
    const texts = result.content.map((c) => (c as { text: string }).text);
    expect(texts[0]).toBe(`Echo: ${message}`.slice(0, 50));
    const path = /^\[Result cut to 50 of 306 characters\. The whole result is in (\S+)\]$/.exec(texts.at(-1)!)?.[1];
    expect(path).toBeDefined();
    expect(readFileSync(path!, "utf8")).toBe(`Echo: ${message}`);
    expect(statSync(path!).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path!)).mode & 0o777).toBe(0o700);
    // Within the budget: the result as the server sent it. No budget: off by default.
    expect(await echo.call({ message: "short" }, { maxResultChars: 50 })).toEqual(
      await echo.call({ message: "short" }),
    );
    expect((await echo.call({ message })).content).toHaveLength(1);
    await m.disconnectAll();
    expect(existsSync(dirname(path!))).toBe(false);
  });

  it("the manager's own budget, an image over maxMediaBytes saved to a file, and kept results that outlive the manager", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-results-test-"));
    const m = await everything({ maxResultChars: 1_000_000, results: { dir, keep: true, maxMediaBytes: 100 } });
    const image = m.getTools().find((t) => t.toolName === "get-tiny-image")!;
    const result = await image.call({});
    const note = result.content
      .map((c) => (c as { text?: string }).text ?? "")
      .find((t) => t.startsWith("[image image/png"));
    const path = /saved to (\S+)\]$/.exec(note!)?.[1];
    expect(readFileSync(path!).subarray(1, 4).toString()).toBe("PNG");
    expect(result.content.some((c) => c.type === "image")).toBe(false);
    await m.disconnectAll();
    expect(existsSync(path!)).toBe(true);
  });
});
