/**
 * When the reconciler reads a tracked invoice again (see docs/ARCHITECTURE.md,
 * "The merchant's books"): an open invoice once per `openIntervalMs` (the service gives up on a notification
 * after two minutes; a payment whose notification was lost is found within one interval);
 * a final one at growing intervals until `settleAfterMs` past its last change, because the
 * service may still move it (`paid` → `dispute`, a corrected amount, `expired` → `dispute` →
 * `paid`); then never again.
 */
import { TERMINAL_INVOICE_STATUSES } from '../../schemas/index.js';
import { instant } from '../fingerprint.js';
import type { OptionShapeOf } from '../options-check.js';
import type { InvoiceSnapshot } from '../store/snapshot.js';

/** The reconciler's timing. */
export interface ReconcileSchedule {
  /** How often an open invoice (`new`, `dispute`) is read again, in ms. Default 60 000: at most one read per open invoice per minute. */
  openIntervalMs?: number;
  /** The first read after an invoice became final, in ms; each later one waits as long as the invoice has been final. Default 300 000 (5 min). */
  finalFirstMs?: number;
  /**
   * How long after its last change a final invoice is still read, in ms (default 72 h). The
   * service's documentation gives no window for disputes and corrections; three days covers
   * the corrections seen in production (minutes to hours).
   */
  settleAfterMs?: number;
}

/** The keys of the schedule, in the kit's `reconcile` (options-check.ts). */
export const RECONCILE_SCHEDULE_OPTIONS = {
  openIntervalMs: true,
  finalFirstMs: true,
  settleAfterMs: true,
} as const satisfies OptionShapeOf<ReconcileSchedule>;

/** How often an open invoice is read again, by default (ms). */
export const DEFAULT_OPEN_INTERVAL_MS = 60_000;
/** The first read after an invoice became final, by default (ms). */
export const DEFAULT_FINAL_FIRST_MS = 5 * 60_000;
/** How long after its last change a final invoice is still read, by default (ms). */
export const DEFAULT_SETTLE_AFTER_MS = 72 * 60 * 60_000;

/** The schedule with its defaults, checked. */
export const scheduleOf = (options: ReconcileSchedule = {}): Required<ReconcileSchedule> => {
  const chosen = {
    openIntervalMs: options.openIntervalMs ?? DEFAULT_OPEN_INTERVAL_MS,
    finalFirstMs: options.finalFirstMs ?? DEFAULT_FINAL_FIRST_MS,
    settleAfterMs: options.settleAfterMs ?? DEFAULT_SETTLE_AFTER_MS,
  };
  for (const [name, value] of Object.entries(chosen)) {
    if (!(value > 0 && Number.isFinite(value))) throw new TypeError(`reconcile.${name} must be a positive number of milliseconds`);
  }
  return chosen;
};

/**
 * When to read an invoice in `snapshot`'s state next (epoch ms), or undefined once it is
 * settled: final and unchanged for `settleAfterMs`. `random` spreads reads of invoices met at
 * the same moment over 10 % of the interval, never below it.
 */
export const nextReadAt = (
  snapshot: InvoiceSnapshot,
  now: number,
  schedule: Required<ReconcileSchedule>,
  options: { random?: () => number; fallbackSince?: number | undefined } = {},
): number | undefined => {
  if (!TERMINAL_INVOICE_STATUSES.includes(snapshot.status))
    return now + schedule.openIntervalMs * (1 + (options.random ?? Math.random)() * 0.1);
  // Without `updatedAt`, the invoice's own deadline (or creation) dates it: it still settles.
  const since = instant(snapshot.updatedAt) ?? options.fallbackSince ?? now;
  const age = Math.max(0, now - since);
  if (age >= schedule.settleAfterMs) return undefined;
  const wait = Math.max(schedule.finalFirstMs, age);
  return Math.min(now + wait, since + schedule.settleAfterMs);
};
