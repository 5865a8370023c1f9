// `@mcp/manager/config` is a subset of `@mcp/manager`: every value the subpath exports is the very
// same one the main entry exports (the index re-exports the subpath's module, so a name added to the
// subpath must be added there too, or this fails).
import { describe, expect, it } from "vitest";
import * as config from "../src/config.js";
import * as manager from "../src/index.js";

describe("@mcp/manager/config inside @mcp/manager", () => {
  it("exports nothing the main entry does not, and the same values", () => {
    const names = Object.keys(config);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names)
      expect(manager[name as keyof typeof manager], name).toBe(config[name as keyof typeof config]);
  });
});
