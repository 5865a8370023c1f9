// A tool result for a person (what `mcp call` prints, plain, Markdown or raw), from server-everything's real results.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { displayContent, displayContents, displayResult, fileSaver, saidByText } from "../src/display.js";
import { useEverything } from "./helpers.js";

const everything = useEverything();
const root = mkdtempSync(join(tmpdir(), "mcp-display-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
/** A saver into a new folder, and what that folder holds. */
function saver(): { save: ReturnType<typeof fileSaver>; dir: string; files: () => string[] } {
  const dir = join(root, `d${++folders}`, "not-yet");
  return { save: fileSaver(dir, "get tiny/image"), dir, files: () => readdirSync(dir).sort() };
}
const call = (name: string, args: Record<string, unknown> = {}) => everything.tool(name).call(args);

describe("displayResult", () => {
  it("text: the image saved to a file (folder made) and named dimmed; the text as the server wrote it", async () => {
    const result = await call("get-tiny-image");
    const image = result.content.find((b) => b.type === "image")!;
    const { save, dir, files } = saver();
    const lines = displayResult(result, "text", { save, dim: (t) => `<${t}>` });
    expect(lines.every((l) => l.stream === "stdout")).toBe(true);
    expect(lines.map((l) => l.text)).toEqual([
      "Here's the image you requested:",
      `<image image/png> saved to ${join(dir, files()[0]!)}`,
      "The image above is the MCP logo.",
    ]);
    expect(files()).toEqual([expect.stringMatching(/^get_tiny_image-[0-9a-z]+-1\.png$/)]);
    expect(readFileSync(join(dir, files()[0]!)).equals(Buffer.from(image.data, "base64"))).toBe(true);
  });

  it("markdown: the image linked, blocks apart by a blank line, one piece; raw: only the text on stdout", async () => {
    const result = await call("get-tiny-image");
    const md = saver();
    const [piece, ...more] = displayResult(result, "markdown", md);
    expect(more).toEqual([]);
    expect(piece!.text).toBe(
      `Here's the image you requested:\n\n![image/png](${join(md.dir, md.files()[0]!)})\n\nThe image above is the MCP logo.`,
    );
    const raw = saver();
    expect(displayResult(result, "raw", raw)).toEqual([
      { stream: "stdout", text: "Here's the image you requested:" },
      { stream: "stderr", text: `image image/png saved to ${join(raw.dir, raw.files()[0]!)}` },
      { stream: "stdout", text: "The image above is the MCP logo." },
    ]);
  });

  it("structured content once: not repeated when the text says it, fenced JSON in Markdown when it does not", async () => {
    const result = await call("get-structured-content", { location: "Chicago" });
    expect(saidByText(result.content, result.structuredContent)).toBe(true);
    expect(displayResult(result, "text", saver()).map((l) => l.text)).toEqual([
      result.content[0]!.type === "text" ? result.content[0]!.text : "",
    ]);
    const unsaid = { ...result, content: [{ type: "text" as const, text: "see below" }] };
    expect(saidByText(unsaid.content, unsaid.structuredContent)).toBe(false);
    const json = JSON.stringify(result.structuredContent, null, 2);
    expect(displayResult(unsaid, "text", saver()).map((l) => l.text)).toEqual([
      "see below",
      "structured content:",
      json,
    ]);
    expect(displayResult(unsaid, "markdown", saver())).toEqual([
      { stream: "stdout", text: `see below\n\n\`\`\`json\n${json}\n\`\`\`` },
    ]);
  });

  it("an embedded text resource: its text (fenced by type in Markdown); resource links named, as links in Markdown", async () => {
    const reference = await call("get-resource-reference", { resourceId: 2 });
    const resource = reference.content.find((b) => b.type === "resource")!;
    const text = "text" in resource.resource ? resource.resource.text : "";
    expect(displayResult(reference, "text", saver()).map((l) => l.text)).toContain(text);
    expect(
      displayResult(reference, "raw", saver())
        .filter((l) => l.stream === "stdout")
        .map((l) => l.text),
    ).toContain(text);
    const links = await call("get-resource-links", { count: 2 });
    const link = links.content.find((b) => b.type === "resource_link")!;
    expect(displayResult(links, "text", saver()).map((l) => l.text)).toContain(`resource ${link.uri} (${link.name})`);
    expect(displayResult(links, "markdown", saver())[0]!.text).toContain(`[${link.name}](${link.uri})`);
    expect(displayResult(links, "raw", saver())).toContainEqual({ stream: "stderr", text: `resource ${link.uri}` });
  });

  it("markdown: a destination with a space in <…>, text whose backticks would close a fence gets a longer one", () => {
    const result = {
      content: [
        { type: "resource_link" as const, uri: "file:///a b(1).txt", name: "" },
        { type: "resource" as const, resource: { uri: "x:y", mimeType: "application/json", text: "```\n{}\n" } },
      ],
    };
    expect(displayResult(result, "markdown", saver())[0]!.text).toBe(
      "[file:///a b(1).txt](<file:///a b(1).txt>)\n\n````json\n```\n{}\n````",
    );
  });
});

describe("displayContent and displayContents", () => {
  it("binary resource contents saved (by MIME type, else .bin), each file numbered; text as it is", () => {
    const { save, dir, files } = saver();
    const blob = Buffer.from([1, 2, 3]).toString("base64");
    expect(displayContents({ uri: "x:1", text: "hello" }, { save })).toBe("hello");
    const pdf = displayContents({ uri: "x:2", mimeType: "application/pdf", blob }, { save });
    const bin = displayContent([{ type: "resource", resource: { uri: "x:3", blob } }], { save, dim: (t) => `<${t}>` });
    expect(files()).toEqual([expect.stringMatching(/-1\.pdf$/), expect.stringMatching(/-2\.bin$/)]);
    expect(pdf).toBe(`application/pdf saved to ${join(dir, files()[0]!)}`);
    expect(bin).toEqual([`<binary> saved to ${join(dir, files()[1]!)}`]);
    expect(readFileSync(join(dir, files()[1]!))).toEqual(Buffer.from([1, 2, 3]));
  });
});
