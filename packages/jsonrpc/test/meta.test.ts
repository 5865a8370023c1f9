// withMeta: what the endpoint (progress tokens) and the client (2026-07-28 envelopes) add to `_meta`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withMeta } from "../src/internal.js";

describe("withMeta", () => {
  it("adds its entries to a copy of _meta, over keys already there, and changes nothing it was given", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.option(fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.constant(null), fc.string()), {
          nil: undefined,
        }),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (rest, meta, entries) => {
          const params = meta === undefined ? { ...rest } : { ...rest, _meta: meta };
          const before = structuredClone(params);
          const out = withMeta(params, entries);
          expect(params).toEqual(before);
          expect(out["_meta"]).not.toBe(params._meta);
          const kept = typeof meta === "object" && meta !== null ? meta : {};
          expect(out["_meta"]).toEqual({ ...kept, ...entries });
          expect({ ...out, _meta: undefined }).toEqual({ ...params, _meta: undefined });
        },
      ),
    );
    expect(withMeta(undefined, { progressToken: 1 })).toEqual({ _meta: { progressToken: 1 } });
  });
});
