// @mcp/store-redis: the stores a fleet shares, on Redis.
export {
  closeRedis,
  connectRedis,
  RedisConnection,
  RedisStoreError,
  type ConnectRedisOptions,
  type RedisStoreOptions,
} from "./connection.js";
export { RedisToolCache } from "./tool-cache.js";
export { RedisTokenStore, type RedisTokenStoreOptions } from "./token-store.js";
export { RedisLockTimeoutError, RedisStaleWriteError } from "./refresh-lock.js";
export { parseRedisKey, RedisKeyError } from "./sealed.js";
export { RedisKeyValue, type KeyValueStore, type RedisKeyValueOptions } from "./key-value.js";
export { RedisRateLimits, type RateTake } from "./rate-limits.js";
export { RedisPinStore } from "./pin-store.js";
export { storesFromEnv, type RedisStores, type StoresFromEnvOptions } from "./from-env.js";
