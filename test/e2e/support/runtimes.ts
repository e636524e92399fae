/**
 * The runtimes besides Node that the kit is tested on (test/e2e/runtimes.test.ts), named once:
 * docs/server.md's table of runtimes and features names each (test/repo/runtimes.test.ts).
 * Each comes from an npm package of the devDependencies (`bun`, `deno`, `miniflare` with workerd).
 */
export const RUNTIMES = ['Bun', 'Deno', 'workerd'] as const;
export type Runtime = (typeof RUNTIMES)[number];

/** The runtimes that keep a timer running between requests (workerd does not: the kit's timer is off there, `kit.cron` reconciles). */
export const TIMER_RUNTIMES: readonly Runtime[] = ['Bun', 'Deno'];
