// The provider's schema (as written, or the strict subset) and the check of the model's
// arguments against the server's own schema.
import { describe, expect, it } from "vitest";
import { argumentIssues, argumentProblem, fromStrictArguments, providerSchema, toolSearch } from "../src/index.js";

const withDefs = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    Point: {
      type: "object",
      properties: { x: { type: "number" }, y: { type: "number", default: 0 } },
      required: ["x"],
    },
  },
  properties: {
    from: { $ref: "#/$defs/Point", description: "start" },
    tags: { type: "array", items: { type: "string", minLength: 1 } },
    mode: { oneOf: [{ const: "fast" }, { const: "safe" }] },
  },
  required: ["from"],
  additionalProperties: true,
};

describe("providerSchema", () => {
  it("as the server wrote it by default (an object schema)", () => {
    expect(providerSchema(withDefs, false)).toBe(withDefs);
    expect(providerSchema({ properties: {} }, false)).toEqual({ type: "object", properties: {} });
  });

  it("strict: $refs inlined, keywords outside the subset dropped, objects closed, optional properties nullable and required", () => {
    expect(providerSchema(withDefs, true)).toEqual({
      type: "object",
      properties: {
        from: {
          type: "object",
          description: "start",
          properties: { x: { type: "number" }, y: { type: ["number", "null"] } },
          required: ["x", "y"],
          additionalProperties: false,
        },
        tags: { type: ["array", "null"], items: { type: "string" } },
        mode: { anyOf: [{ anyOf: [{ const: "fast" }, { const: "safe" }] }, { type: "null" }] },
      },
      required: ["from", "tags", "mode"],
      additionalProperties: false,
    });
  });

  it("strict: a definition that refers to itself stays a $defs entry", () => {
    const tree = {
      type: "object",
      $defs: {
        Node: {
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } },
          required: ["children"],
        },
      },
      properties: { root: { $ref: "#/$defs/Node" } },
      required: ["root"],
    };
    const strict = providerSchema(tree, true) as {
      properties: { root: { properties: { children: { items: unknown } } } };
      $defs: Record<string, unknown>;
    };
    expect(strict.properties.root.properties.children.items).toEqual({ $ref: "#/$defs/Node" });
    expect(Object.keys(strict.$defs)).toEqual(["Node"]);
  });

  it("fromStrictArguments takes out the nulls that meant 'left out', nested and through $refs", () => {
    expect(fromStrictArguments(withDefs, { from: { x: 1, y: null }, tags: null, mode: "fast" })).toEqual({
      from: { x: 1 },
      mode: "fast",
    });
  });
});

describe("argumentProblem (the server's schema, JSON Schema 2020-12 and draft-07)", () => {
  it("names the field that is wrong, or says nothing when the arguments fit", () => {
    expect(argumentProblem(withDefs, { from: { x: 1 }, tags: ["a"], mode: "safe" })).toBeUndefined();
    expect(argumentProblem(withDefs, { from: { x: "one" } })).toMatch(/^argument "from\.x": /);
    expect(argumentProblem(withDefs, { from: { x: 1 }, tags: [""] })).toMatch(/^argument "tags\.0": /);
    expect(argumentProblem(withDefs, {})).toMatch(/^the arguments: .*"from"/);
    const draft7 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { n: { type: "integer", maximum: 3 } },
    };
    expect(argumentProblem(draft7, { n: 4 })).toMatch(/^argument "n": /);
  });
});

describe("toolSearch (a search meta-tool)", () => {
  const tool = (name: string, description: string) => ({
    name,
    description,
    inputSchema: { type: "object" as const },
    call: () => Promise.resolve({ content: [] }),
  });
  const all = [
    tool("mcp__fs__read_file", "Read a file"),
    tool("mcp__gh__create_issue", "Create a GitHub issue"),
    tool("mcp__fs__write_file", "Write a file"),
  ];
  const source = {
    getTools: () => all,
    searchTools: (query: string) =>
      all.filter((t) => query.split(" ").some((w) => t.description.toLowerCase().includes(w))),
  };

  it("starts with the meta-tool alone; what a search finds is sent from then on", async () => {
    const search = toolSearch(source, { alwaysLoaded: (t) => t.name === "mcp__gh__create_issue" });
    expect(search.tools().map((t) => t.name)).toEqual(["search_tools", "mcp__gh__create_issue"]);
    const result = await search.tool.call({ query: "file" });
    expect(result.content[0]).toEqual({
      type: "text",
      text: 'Loaded 2 tools for "file"; call them from your next step:\n- mcp__fs__read_file: Read a file\n- mcp__fs__write_file: Write a file',
    });
    expect(search.tools().map((t) => t.name)).toEqual([
      "search_tools",
      "mcp__fs__read_file",
      "mcp__gh__create_issue",
      "mcp__fs__write_file",
    ]);
    expect((await search.tool.call({ query: "zebra" })).content[0]).toMatchObject({
      text: 'No tool matches "zebra". Try other words.',
    });
  });
});

describe("argumentIssues, the check mcp call runs", () => {
  it("a schema the validator cannot resolve (a remote $ref) leaves the judgement to the server", () => {
    expect(
      argumentIssues({ type: "object", properties: { a: { $ref: "https://example.invalid/schema.json" } } }, { a: 1 }),
    ).toEqual([]);
    expect(argumentIssues({ type: "object", required: ["a"] }, {})).toEqual([
      {
        keyword: "required",
        field: "a",
        error: 'Instance does not have required property "a".',
        message: 'missing required argument "a"',
      },
    ]);
  });
});
