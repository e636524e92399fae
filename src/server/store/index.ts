/**
 * The store shared by `createCheckoutHandler` and `createNotificationHandler`: in memory
 * (one process, the default) or in Redis (several instances). See types.ts for what it holds.
 */
export type {
  BooksClaim,
  BooksEntry,
  CheckoutStore,
  DisputeClaim,
  InvoiceMark,
  InvoiceUpdate,
  StoreListener,
  StoreSubscription,
  TrackedInvoice,
} from './types.js';
export { createMemoryStore, DEFAULT_MEMORY_STORE_BOOKS, DEFAULT_MEMORY_STORE_ENTRIES, type MemoryStoreOptions } from './memory.js';
export { createRedisStore, DEFAULT_REDIS_PREFIX, type RedisStoreOptions } from './redis.js';
