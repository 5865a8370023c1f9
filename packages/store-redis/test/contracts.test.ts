// The stores fit the interfaces they implement, checked by the compiler: the manager's ToolCache and
// PinStore and @mcp/oauth's TokenStore with `implements` in the sources, and @mcp/gateway's
// RateLimitStore and SessionStore here. The gateway is above this package, so its types are a
// devDependency read only by this test (scripts/check-layers.mjs, TEST_TYPES_ONLY): nothing of it
// runs in, or ships with, @mcp/store-redis. `pnpm typecheck` fails when a store stops fitting.
import type { RateLimitStore, SessionRecord, SessionStore } from "@mcp/gateway";
import type { PinStore, ToolCache } from "@mcp/manager";
import type { TokenStore } from "@mcp/oauth";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  RedisKeyValue,
  RedisRateLimits,
  type RedisPinStore,
  type RedisStores,
  type RedisTokenStore,
  type RedisToolCache,
} from "../src/index.js";

describe("the Redis stores and the interfaces they implement", () => {
  it("each fits its interface, and storesFromEnv() hands the gateway stores of its types", () => {
    expectTypeOf<RedisRateLimits>().toExtend<RateLimitStore>();
    expectTypeOf<RedisKeyValue<SessionRecord>>().toExtend<SessionStore>();
    expectTypeOf<RedisStores["rates"]>().toExtend<RateLimitStore>();
    expectTypeOf<RedisStores["sessions"]>().toExtend<SessionStore>();
    expectTypeOf<RedisToolCache>().toExtend<ToolCache>();
    expectTypeOf<RedisPinStore>().toExtend<PinStore>();
    expectTypeOf<RedisTokenStore>().toExtend<TokenStore>();
    // The optional method the gateway uses to cap a caller's sessions across replicas is there.
    expect(typeof RedisKeyValue.prototype.setCapped).toBe("function");
    expect(typeof RedisRateLimits.prototype.take).toBe("function");
  });
});
