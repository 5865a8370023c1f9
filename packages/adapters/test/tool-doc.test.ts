// A tool's docs as parts (what `mcp tools <server>.<tool>` lays out), from server-everything's real
// tool definitions, and from a definition with what those lack (a destructive hint, a description
// of several lines, no parameters).
import { describe, expect, it } from "vitest";
import { toolDoc } from "../src/arguments.js";
import { useEverything } from "./helpers.js";

const everything = useEverything();

describe("toolDoc", () => {
  it("get-sum: its title, description and hints, its two required numbers, no output fields, an example call", () => {
    const tool = everything.tool("get-sum");
    expect(toolDoc({ ...tool, name: tool.toolName })).toEqual({
      title: "Get Sum Tool",
      description: [tool.description!.trim()],
      hints: ["read-only", "idempotent"],
      parameters: [
        { name: "a", type: "number", required: true, description: "First number", default: undefined },
        { name: "b", type: "number", required: true, description: "Second number", default: undefined },
      ],
      returns: undefined,
      example: ["a=1", "b=1"],
    });
  });

  it("get-structured-content: the fields its output schema names", () => {
    const tool = everything.tool("get-structured-content");
    const doc = toolDoc({ ...tool, name: tool.toolName });
    expect(doc.returns).toEqual(Object.keys(tool.outputSchema!["properties"] as object));
    expect(doc.returns!.length).toBeGreaterThan(0);
    expect(doc.example).toEqual(["location=New York"]);
  });

  it("a title that is not the name, the description's own lines, what the annotations say; no parameters", () => {
    const doc = toolDoc({
      name: "wipe",
      title: "Wipe the disk",
      description: "  Wipes it.\n\nThen says so.\n",
      inputSchema: { type: "object" },
      annotations: { destructiveHint: true, idempotentHint: true },
    });
    expect(doc).toEqual({
      title: "Wipe the disk",
      description: ["Wipes it.", "", "Then says so."],
      hints: ["destructive", "idempotent"],
      parameters: [],
      returns: undefined,
      example: [],
    });
    // A title that only repeats the name says nothing more; no description is no lines.
    expect(toolDoc({ name: "wipe", title: "wipe" })).toMatchObject({ title: undefined, description: [] });
  });
});
