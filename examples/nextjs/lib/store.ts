import type { CheckoutStore } from 'merchant-checkout/server';
import { createRedisStore } from 'merchant-checkout/redis';

/**
 * Where the kit keeps its books and the invoices it reconciles. On a serverless host every
 * instance must reach the same store: Redis at REDIS_URL. Without it the kit keeps them in
 * memory, for trying the example only: a restart loses them and each instance has its own (on one
 * long-lived server, createSqliteStore from merchant-checkout/sqlite keeps them on disk).
 */
export const store = (): CheckoutStore | undefined =>
  process.env.REDIS_URL ? createRedisStore({ url: process.env.REDIS_URL }) : undefined;
