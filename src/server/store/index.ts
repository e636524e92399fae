/**
 * The store the kit owns: in memory (one process, the default); the Redis store is the entry
 * `merchant-checkout/redis` (src/server/redis.ts). See types.ts for what it holds.
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
  OutboxMessage,
  OutboxOutcome,
} from './types.js';
export { createMemoryStore, DEFAULT_MEMORY_STORE_BOOKS, DEFAULT_MEMORY_STORE_ENTRIES, type MemoryStoreOptions } from './memory.js';
