/**
 * The runtimes besides Node that the kit is tested on (test/e2e/runtimes.test.ts), named once:
 * docs/server.md's table of runtimes and features names each (test/repo/runtimes.test.ts).
 * Each comes from an npm package of the devDependencies (`bun`, `deno`, `miniflare` with workerd).
 */
export const RUNTIMES = ['Bun', 'Deno', 'workerd'] as const;
export type Runtime = (typeof RUNTIMES)[number];

/** The runtimes that keep a timer running between requests (workerd does not: the kit's timer is off there, `kit.cron` reconciles). */
export const TIMER_RUNTIMES: readonly Runtime[] = ['Bun', 'Deno'];

/** The runtimes whose platform hands the shop a scheduled event (a Worker's `scheduled` handler), which calls `kit.reconciler.drain`. */
export const SCHEDULED_RUNTIMES: readonly Runtime[] = ['workerd'];

/** The stores the kit is served on; each but `memory` keeps what it was told across a SIGKILL of the runtime's process. */
export type Store = 'SQLite' | 'Redis' | 'memory';

/** The stores the test serves the kit on, on each runtime: the whole test once per store. */
export const STORES: Readonly<Record<Runtime, readonly Store[]>> = {
  Bun: ['SQLite', 'Redis'],
  Deno: ['SQLite', 'Redis'],
  // No file system, and no TCP socket for Redis without `nodejs_compat` (docs/server.md, "Runtimes").
  workerd: ['memory'],
};
