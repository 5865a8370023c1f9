// The page's schema helpers: what a generated form starts with, what it refuses, what it sends.
import { describe, expect, it } from "vitest";
import {
  choicesOf,
  expandTemplate,
  initialValue,
  missingRequired,
  prune,
  templateVariables,
  typeOf,
  withoutLeftOut,
} from "../web/schema.js";

const order = {
  type: "object",
  properties: {
    customer: {
      type: "object",
      properties: { name: { type: "string" }, vip: { type: "boolean", default: false } },
      required: ["name"],
    },
    lines: {
      type: "array",
      items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer", default: 1 } } },
    },
    speed: { type: "string", enum: ["standard", "express"], default: "standard" },
    note: { type: ["string", "null"] },
  },
  required: ["customer", "lines"],
};

describe("schema helpers", () => {
  it("starts a form from defaults, with nested objects present and nothing invented", () => {
    expect(initialValue(order)).toEqual({ customer: { vip: false }, speed: "standard" });
    expect(initialValue({ type: "object", properties: { list: { type: "array", default: [1] } } })).toEqual({
      list: [1],
    });
  });

  it("names the required fields left empty, by path", () => {
    expect(missingRequired(order, initialValue(order))).toEqual(["customer.name", "lines"]);
    expect(missingRequired(order, { customer: { name: "" }, lines: [] })).toEqual(["customer.name"]);
    expect(missingRequired(order, { customer: { name: "Ada" }, lines: [] })).toEqual([]);
    expect(missingRequired(undefined, {})).toEqual([]);
  });

  it("asks nothing of an optional nested object left out, and does not send it; one begun is checked", () => {
    const scenario = {
      type: "object",
      properties: {
        name: { type: "string" },
        overrides: {
          type: "object",
          properties: {
            growth: { type: "number" },
            churn: { type: "number" },
            note: { type: "string", default: "" },
            live: { type: "boolean", default: true },
          },
          required: ["growth", "churn"],
        },
      },
      required: ["name"],
    };
    const start = { ...(initialValue(scenario) as object), name: "base" };
    expect(missingRequired(scenario, start)).toEqual([]);
    expect(withoutLeftOut(scenario, prune(start))).toEqual({ name: "base" });
    const begun = { name: "base", overrides: { growth: 2, live: true } };
    expect(missingRequired(scenario, begun)).toEqual(["overrides.churn"]);
    expect(withoutLeftOut(scenario, begun)).toEqual(begun);
    // A required object is checked however empty.
    expect(missingRequired({ ...scenario, required: ["name", "overrides"] }, start)).toEqual([
      "overrides.growth",
      "overrides.churn",
    ]);
  });

  it("reads types and choices loosely", () => {
    expect(typeOf(order.properties.note)).toBe("string");
    expect(typeOf({ properties: {} })).toBe("object");
    expect(typeOf({ enum: [1, 2] })).toBe("number");
    expect(choicesOf({ enum: ["a", "b"], enumNames: ["A"] })).toEqual([
      { value: "a", label: "A" },
      { value: "b", label: "b" },
    ]);
    expect(choicesOf({ oneOf: [{ const: "x", title: "Ex" }] })).toEqual([{ value: "x", label: "Ex" }]);
    expect(choicesOf({ anyOf: [{ const: 1 }] })).toEqual([{ value: 1, label: "1" }]);
    expect(choicesOf({ anyOf: [{ type: "string" }] })).toBeUndefined();
  });

  it("drops untouched optional fields but keeps false and 0", () => {
    expect(prune({ a: "", b: undefined, c: 0, d: false, e: { f: "" }, g: ["", 1] })).toEqual({
      c: 0,
      d: false,
      e: {},
      g: ["", 1],
    });
  });

  it("finds and expands URI template variables (RFC 6570 levels 1-3)", () => {
    expect(templateVariables("demo://resource/dynamic/text/{resourceId}")).toEqual(["resourceId"]);
    expect(templateVariables("file:///{+path}{?q,lang}")).toEqual(["path", "q", "lang"]);
    expect(expandTemplate("demo://x/{id}", { id: "a b/c" })).toBe("demo://x/a%20b%2Fc");
    expect(expandTemplate("file:///{+path}", { path: "a b/c" })).toBe("file:///a%20b/c");
    expect(expandTemplate("s://x{?q,lang}", { q: "cats", lang: "" })).toBe("s://x?q=cats");
    expect(expandTemplate("s://x{/a,b}", { a: "1", b: "2" })).toBe("s://x/1/2");
    expect(expandTemplate("s://x{?q}", {})).toBe("s://x");
  });
});
