// Tool arguments from words a person typed (HTTPie style), typed by the tool's schema, and a schema
// in words (what `mcp call` and `mcp tools` are built on).
import { describe, expect, it } from "vitest";
import {
  ArgumentsError,
  describeSchemaType,
  exampleArguments,
  exampleValue,
  parseArguments,
  promptArguments,
  toolHints,
  toolParameters,
  toolSignature,
} from "../src/arguments.js";

const schema = {
  type: "object",
  properties: {
    count: { type: "integer" },
    ratio: { type: ["number", "null"] },
    flag: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    ids: { type: "array", items: { type: "number" } },
    filter: { type: "object" },
    mode: { enum: ["fast", "slow"] },
    note: { type: "string" },
  },
  required: ["count"],
};

function thrown(run: () => unknown): ArgumentsError {
  try {
    run();
  } catch (error) {
    if (error instanceof ArgumentsError) return error;
    throw error;
  }
  throw new Error("expected an ArgumentsError");
}

describe("parseArguments", () => {
  it("types key=value by the schema; leaves what does not fit as text for the validator; key:= is raw JSON", () => {
    expect(
      parseArguments(
        ["count=3", "ratio=0.5", "flag=true", "tags=a, b", "ids=1,2", 'filter={"a":1}', "mode=fast", "note=007"],
        schema,
      ),
    ).toEqual({
      count: 3,
      ratio: 0.5,
      flag: true,
      tags: ["a", "b"],
      ids: [1, 2],
      filter: { a: 1 },
      mode: "fast",
      note: "007",
    });
    expect(parseArguments(["count=x", "flag=yes", "count2= ", "tags="], schema)).toEqual({
      count: "x",
      flag: "yes",
      count2: " ",
      tags: [],
    });
    expect(parseArguments(['tags=["x,y"]', 'note:="quoted"', 'extra:=[1,{"b":null}]'], schema)).toEqual({
      tags: ["x,y"],
      note: "quoted",
      extra: [1, { b: null }],
    });
    expect(parseArguments(['{"count": 1, "note": "a=b"}'], schema)).toEqual({ count: 1, note: "a=b" });
    expect(parseArguments([], undefined)).toEqual({});
  });

  it("reads @file only through readFile; \\@ is a value that starts with @; a read failure names the argument", () => {
    const files: Record<string, string> = { "note.txt": "from a file", "tags.json": '["p","q"]', "n.txt": "42" };
    const readFile = (name: string): string => {
      if (!(name in files)) throw new Error(`cannot read ${name}: no such file`);
      return files[name]!;
    };
    expect(
      parseArguments(["note=@note.txt", "tags:=@tags.json", "count=@n.txt", "other=@note.txt"], schema, { readFile }),
    ).toEqual({
      note: "from a file",
      tags: ["p", "q"],
      count: 42,
      other: "from a file",
    });
    expect(parseArguments(["note=\\@home"], schema, { readFile })).toEqual({ note: "@home" });
    // No readFile: "@…" is text like any other, nothing is read.
    expect(parseArguments(["note=@note.txt"], schema)).toEqual({ note: "@note.txt" });
    const missing = thrown(() => parseArguments(["note=@gone.txt"], schema, { readFile }));
    expect(missing.message).toBe('argument "note": cannot read gone.txt: no such file');
    expect(missing.argument).toBe("note");
  });

  it("words that make no arguments are an ArgumentsError saying what and where", () => {
    const json = thrown(() => parseArguments(["count:={nope"], schema));
    expect(json.message).toMatch(/^argument "count": not valid JSON \(/);
    expect(json.argument).toBe("count");
    expect(thrown(() => parseArguments(["[1, 2]"], schema)).message).toBe(
      'expected key=value, key:=<json> (or one JSON object), got "[1, 2]"',
    );
    expect(thrown(() => parseArguments(["{ nope"], schema)).message).toMatch(/^argument "arguments": not valid JSON/);
    expect(thrown(() => parseArguments(["=x"], schema)).message).toBe(
      'expected key=value, key:=<json> (or one JSON object), got "=x"',
    );
    expect(thrown(() => parseArguments(["noequals"], schema)).argument).toBeUndefined();
  });
});

describe("a schema in words", () => {
  it("toolSignature and describeSchemaType: required and optional, unions, enums, consts, arrays", () => {
    expect(toolSignature("typed", schema)).toBe(
      'typed(count: integer, ratio?: number, flag?: boolean, tags?: string[], ids?: number[], filter?: object, mode?: "fast" | "slow", note?: string)',
    );
    expect(toolSignature("none", undefined)).toBe("none()");
    expect(describeSchemaType({ anyOf: [{ type: "string" }, { type: "null" }, { type: "string" }] })).toBe("string");
    expect(describeSchemaType({ oneOf: [{ const: 1 }, { type: "array", items: { type: "integer" } }] })).toBe(
      "1 | integer[]",
    );
    expect(describeSchemaType({ anyOf: [{ type: "null" }] })).toBe("any");
    expect(describeSchemaType(undefined)).toBe("any");
  });

  it("exampleValue: default, example, enum or const first; else one of the type, by format or name", () => {
    expect(exampleValue({ type: "string", default: "d", examples: ["e"] })).toBe("d");
    expect(exampleValue({ type: "string", examples: ["e"], enum: ["x"] })).toBe("e");
    expect(exampleValue({ enum: ["x", "y"] })).toBe("x");
    expect(exampleValue({ const: 7 })).toBe(7);
    expect(exampleValue({ type: "integer", minimum: 5 })).toBe(5);
    expect(exampleValue({ type: "number" })).toBe(1);
    expect(exampleValue({ type: "boolean" })).toBe(true);
    expect(exampleValue({ type: "string", format: "date-time" })).toBe("2026-01-01T00:00:00Z");
    expect(exampleValue({ type: "string" }, "homepageUrl")).toBe("https://example.com");
    expect(exampleValue({ type: "string" }, "filePath")).toBe("./README.md");
    expect(exampleValue({ type: "string" }, "folder")).toBe(".");
    expect(exampleValue({ type: "string" }, "message")).toBe("text");
    expect(
      exampleValue({
        type: "object",
        required: ["path", "lines"],
        properties: { path: { type: "string" }, lines: { type: "array", items: { type: "integer" } }, skip: {} },
      }),
    ).toEqual({ path: "./README.md", lines: [1] });
  });
});

describe("a tool's parameters for a person", () => {
  const order = {
    type: "object",
    properties: {
      customer: {
        type: "object",
        description: "who  orders,\n  in full",
        properties: { name: { type: "string" }, address: { type: "object", properties: { city: { type: "string" } } } },
        required: ["name"],
      },
      lines: {
        type: "array",
        items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer", default: 1 } } },
      },
      speed: { enum: ["fast", "slow"], description: "how fast" },
      level: { enum: [1, 2] },
      deep: {
        type: "object",
        properties: {
          a: { type: "object", properties: { b: { type: "object", properties: { c: { type: "string" } } } } },
        },
      },
      note: { type: ["string", "null"] },
    },
    required: ["customer", "lines", "speed"],
  };

  it("toolParameters: one per property, nested objects and arrays of objects by path, three levels at most", () => {
    const list = toolParameters(order);
    expect(list.map((p) => p.name)).toEqual([
      "customer",
      "customer.name",
      "customer.address",
      "customer.address.city",
      "lines",
      "lines[].sku",
      "lines[].qty",
      "speed",
      "level",
      "deep",
      "deep.a",
      "deep.a.b",
      "note",
    ]);
    const byName = Object.fromEntries(list.map((p) => [p.name, p]));
    expect(byName["customer"]).toEqual({
      name: "customer",
      type: "object",
      required: true,
      description: "who orders, in full",
      default: undefined,
    });
    expect(byName["customer.name"]?.required).toBe(true);
    expect(byName["customer.address"]?.required).toBe(false);
    expect(byName["lines"]?.type).toBe("object[]");
    expect(byName["lines[].qty"]).toMatchObject({ type: "integer", default: 1, required: false });
    expect(byName["speed"]).toMatchObject({ type: "string", description: 'how fast; one of "fast", "slow"' });
    expect(byName["level"]).toMatchObject({ type: "number", description: "one of 1, 2" });
    expect(byName["note"]?.type).toBe("string");
    expect(toolParameters(undefined)).toEqual([]);
    expect(toolParameters({ type: "object" })).toEqual([]);
  });

  it("exampleArguments: a word for each required argument, as parseArguments reads it back", () => {
    const words = exampleArguments(order);
    expect(words).toEqual(['customer:={"name":"text"}', "lines:=[{}]", "speed=fast"]);
    expect(parseArguments(words, order)).toEqual({ customer: { name: "text" }, lines: [{}], speed: "fast" });
    const at = {
      type: "object",
      properties: { handle: { type: "string", default: "@me" }, n: { type: "integer" } },
      required: ["handle", "n"],
    };
    expect(exampleArguments(at)).toEqual(["handle=\\@me", "n=1"]);
    expect(parseArguments(exampleArguments(at), at)).toEqual({ handle: "@me", n: 1 });
    expect(exampleArguments(undefined)).toEqual([]);
  });

  it("toolHints: the annotations in words; destructive is not said of a read-only tool", () => {
    expect(toolHints({ readOnlyHint: true, destructiveHint: true, idempotentHint: true, openWorldHint: true })).toEqual(
      ["read-only", "idempotent", "open world"],
    );
    expect(toolHints({ destructiveHint: true, openWorldHint: false })).toEqual(["destructive"]);
    expect(toolHints(undefined)).toEqual([]);
  });
});

describe("promptArguments", () => {
  // server-everything's args-prompt, as its prompts/list gives it.
  const prompt = {
    name: "args-prompt",
    arguments: [
      { name: "city", description: "Name of the city", required: true },
      { name: "state", description: "Name of the state", required: false },
    ],
  };

  it("gives every value as text (JSON for what is not a string) and names the required ones missing", () => {
    expect(promptArguments(prompt, parseArguments(["state=CA", "n:=2", "tags:=[1]"], undefined))).toEqual({
      args: { state: "CA", n: "2", tags: "[1]" },
      missing: ["city"],
    });
    expect(promptArguments(prompt, { city: "Paris" })).toEqual({ args: { city: "Paris" }, missing: [] });
    expect(promptArguments({ name: "simple-prompt" }, {})).toEqual({ args: {}, missing: [] });
  });
});
