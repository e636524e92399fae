/**
 * `merchant-checkout/redis`: the store in Redis, for several instances of a shop's kit. Its own
 * entry, so that `merchant-checkout/server` never names the `redis` package (an optional peer
 * dependency): a shop that keeps the memory store never has its bundler look for it.
 *
 * ```ts
 * import { createRedisStore } from 'merchant-checkout/redis';
 * const kit = createCheckoutServer({ client, authorize, store: createRedisStore({ url: process.env.REDIS_URL! }) });
 * ```
 *
 * @module redis
 */
export { createRedisStore, DEFAULT_REDIS_PREFIX, type RedisStore, type RedisStoreOptions } from './store/redis.js';
export { RedisSettingWarning, type RedisSettingName } from './store/redis-settings.js';
