/**
 * The reconciler (docs/ARCHITECTURE.md, "The merchant's books"): the service gives up on a
 * notification after two minutes and can change a final invoice later, so every invoice the
 * kit has met and that is not settled is read again on the schedule of `schedule.ts`, by one
 * instance at a time (the store's `claimDue`), and what it finds takes the books' one path
 * to the shop. A shop may also reconcile given invoices at once (`reconcile`), e.g. from cron,
 * and a host whose instances sleep between requests runs passes from a scheduler's call within
 * a time budget (`drain`, which the kit's `cron` handler serves: books/cron.ts).
 */
import type { Invoice } from '../../schemas/index.js';
import type { MerchantClient } from '../client/merchant-client.js';
import { MerchantApiError } from '../client/errors.js';
import type { TrackedInvoice } from '../store/types.js';
import type { KitCore } from './core.js';
import type { ApplyOutcome, InvoiceChange } from './ledger.js';
import type { Context as TraceContext } from '@opentelemetry/api';
import { reconcilePass } from '../telemetry.js';
import type { OptionShapeOf } from '../options-check.js';
import { errorContext } from '../http/error-context.js';

/**
 * What a read found: `paid_never_notified` (the books learn of the payment from this read),
 * `amount_corrected`, `disputed`, `dispute_resolved`, `status_changed` (canceled, expired, …),
 * `changed` (a deal), `unchanged`, `not_found` (no terminal knows the id), `error` (the read
 * or the shop's handler failed: tried again later).
 */
export type ReconcileFindingKind =
  | 'paid_never_notified'
  | 'amount_corrected'
  | 'disputed'
  | 'dispute_resolved'
  | 'status_changed'
  | 'changed'
  | 'unchanged'
  | 'not_found'
  | 'error';

/** One invoice's finding. */
export interface ReconcileFinding {
  /** The invoice id (as asked, or as the service answered an internal id). */
  invoiceId: string | null;
  /** The shop's order id, when known. */
  internalId: string | null;
  /** What the read found. */
  finding: ReconcileFindingKind;
  /** The invoice's status as read, when it was read. */
  status: string | null;
  /** The change handed to the shop, when there was one. */
  change?: InvoiceChange;
  /** What failed, for `error` and `not_found`. */
  error?: string;
}

/** What one pass (scheduled, or asked for) found. */
export interface ReconcileReport {
  /** When the pass started (epoch ms of the reconciler's clock). */
  startedAt: number;
  /** How many invoices were read. */
  checked: number;
  /** One per invoice read (a scheduled pass's `onReport` gets only those that found something). */
  findings: ReconcileFinding[];
}

/** What `reconcile` is asked to read now. */
export interface ReconcileRequest {
  /** The service's invoice ids. */
  ids?: readonly string[];
  /** The shop's own ids (`internalId`); each terminal is asked until one knows it. */
  internalIds?: readonly string[];
}

/** What {@link Reconciler.drain} is given. */
export interface DrainOptions {
  /** How long it may read, in ms: no read starts after it, and a read still waiting for the service is aborted at it. */
  budgetMs: number;
  /** The caller's signal (a request's): its abort cuts the reads as the budget's end does. */
  signal?: AbortSignal | undefined;
}

/** What {@link Reconciler.drain} did. */
export interface DrainReport {
  /** When it started (epoch ms of the reconciler's clock). */
  startedAt: number;
  /** Passes made: claims of the invoices due. */
  passes: number;
  /** Invoices read. */
  checked: number;
  /** Changes handed to `onChange`. */
  changes: number;
  /** Reads that failed (the service or the shop's handler): each is tried again 30 s later. */
  errors: number;
  /** What the reads found, but `unchanged`. */
  findings: ReconcileFinding[];
  /**
   * Why it stopped: `nothing_due` (a pass found fewer invoices due than `batch`), `budget` (its
   * time was spent) or `aborted` (the caller left). Invoices claimed and not read are due again at once.
   */
  stopped: 'nothing_due' | 'budget' | 'aborted';
  /** Whether invoices may still be due: it stopped before a pass found fewer than `batch`, or left claimed ones unread. */
  stillDue: boolean;
}

/** The reconciler's options (besides the schedule, which the kit's core holds). */
export interface ReconcilerOptions {
  /** How often to look for invoices due, in ms (default 5 000). */
  tickMs?: number;
  /** At most this many invoices per look, per instance (default 100). */
  batch?: number;
  /** Reads at once (default 8). */
  concurrency?: number;
  /** How long a claimed invoice is this instance's to read before another may take it, in ms (default 60 000). */
  leaseMs?: number;
  /** Told of every scheduled pass that found something (not of passes where everything was unchanged). */
  onReport?: (report: ReconcileReport) => void;
}

/** The keys of the reconciler's own options, in the kit's `reconcile` (options-check.ts). */
export const RECONCILER_OPTIONS = {
  tickMs: true,
  batch: true,
  concurrency: true,
  leaseMs: true,
  onReport: true,
} as const satisfies OptionShapeOf<ReconcilerOptions>;

/** The kit's reconciler: a timer of scheduled passes, and reads on demand. */
export interface Reconciler {
  /** Starts reading due invoices every `tickMs` (the kit starts it; idempotent). */
  start(): void;
  /** Stops the timer and waits for a pass under way. */
  stop(): Promise<void>;
  /** One pass now: reads the invoices due by the clock. */
  pass(): Promise<ReconcileReport>;
  /** Reads the given invoices now, whether tracked or not, and reports what each was found in. */
  reconcile(request: ReconcileRequest): Promise<ReconcileReport>;
  /**
   * Passes, one after another, until nothing is due or `budgetMs` is spent (or `signal`
   * aborts): a scheduler's call on a host whose instances sleep between requests (the kit's
   * `cron` handler). Safe to run at once on one instance or several: each due invoice is
   * claimed by one caller (`claimDue`). A change already being handed to `onChange` is waited
   * for (at most `handlerTimeoutMs`); an invoice whose books another instance holds is not
   * waited for past the budget, but due again.
   */
  drain(options: DrainOptions): Promise<DrainReport>;
}

/** How often the reconciler looks for due invoices, by default (ms). */
export const DEFAULT_RECONCILE_TICK_MS = 5_000;
const DEFAULT_BATCH = 100;
const DEFAULT_CONCURRENCY = 8;
const DEFAULT_LEASE_MS = 60_000;
/** After a failed read (the service or the shop's handler down): try again this soon, in ms. */
const RETRY_MS = 30_000;
/** After this many reads answered "not found" in a row, an invoice is no longer tracked. */
const MAX_MISSES = 3;

/** The finding of an applied state. */
export const findingOf = (outcome: ApplyOutcome): ReconcileFindingKind => {
  if (outcome.outcome !== 'delivered') return 'unchanged';
  switch (outcome.change.kind) {
    case 'paid':
      return outcome.change.changes.some((change) => change.field === 'status' && change.from === 'dispute')
        ? 'dispute_resolved'
        : 'paid_never_notified';
    case 'amount_corrected':
      return 'amount_corrected';
    case 'disputed':
      return 'disputed';
    case 'dispute_resolved':
      return 'dispute_resolved';
    case 'deal_updated':
    case 'first_seen':
      return 'changed';
    default:
      return 'status_changed';
  }
};

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs `work` over `items`, at most `limit` at once. */
const pool = async <T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) => {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
};

/** An invoice by the shop's own id, from the first terminal that knows it. */
const byInternalId = async (
  reader: KitCore['reader'],
  internalId: string,
  traceContext: TraceContext | undefined,
): Promise<{ invoice: Invoice; client: MerchantClient } | undefined> => {
  for (const client of reader.clients) {
    try {
      return { invoice: await client.getInvoiceByInternalId(internalId, { traceContext }), client };
    } catch (error) {
      if (!(error instanceof MerchantApiError && error.status === 404)) throw error;
    }
  }
  return undefined;
};

/** Reads the invoices asked for now, tracked or not, `concurrency` at a time; `check` takes each to the books. */
const reconcileGiven = async (
  core: KitCore,
  check: (found: { invoice: Invoice; client: MerchantClient }) => Promise<ReconcileFinding>,
  concurrency: number,
  request: ReconcileRequest,
  traceContext: TraceContext | undefined,
): Promise<ReconcileReport> => {
  const startedAt = core.now();
  const asked: ({ id: string; internalId: null } | { id: null; internalId: string })[] = [
    ...(request.ids ?? []).map((id) => ({ id, internalId: null }) as const),
    ...(request.internalIds ?? []).map((internalId) => ({ id: null, internalId }) as const),
  ];
  const findings: ReconcileFinding[] = [];
  await pool(asked, concurrency, async ({ id, internalId }) => {
    try {
      const found = id !== null ? await core.reader.read(id, { traceContext }) : await byInternalId(core.reader, internalId, traceContext);
      findings.push(
        found
          ? await check(found)
          : { invoiceId: id, internalId, finding: 'not_found', status: null, error: 'no terminal knows this invoice' },
      );
    } catch (error) {
      findings.push({ invoiceId: id, internalId, finding: 'error', status: null, error: message(error) });
    }
  });
  return { startedAt, checked: asked.length, findings };
};

/**
 * Tells `onReport` of a scheduled pass that found something; an `onReport` that throws is told
 * to `report` and changes nothing of what was read and handed on.
 */
const teller =
  (onReport: ReconcilerOptions['onReport'], report: (error: unknown) => void) =>
  (result: ReconcileReport): void => {
    const notable = result.findings.filter((finding) => finding.finding !== 'unchanged');
    try {
      if (notable.length > 0) onReport?.({ startedAt: result.startedAt, checked: result.checked, findings: notable });
    } catch (error) {
      report(error);
    }
  };

/** One scheduled pass's report, with how many invoices it claimed and how many of those it left unread. */
type PassResult = ReconcileReport & { claimed: number; cut: number };

/**
 * Passes one after another until one claims fewer than `batch` (nothing more was due) or `cut`
 * aborts, which the budget's end and the caller's `signal` do.
 */
const drainPasses = async (
  pass: (signal: AbortSignal) => Promise<PassResult>,
  batch: number,
  startedAt: number,
  { budgetMs, signal }: DrainOptions,
  cut: AbortController,
): Promise<DrainReport> => {
  const budget = setTimeout(() => cut.abort(), budgetMs);
  const leave = () => cut.abort();
  signal?.addEventListener('abort', leave, { once: true });
  if (signal?.aborted) leave();
  const result: DrainReport = { startedAt, passes: 0, checked: 0, changes: 0, errors: 0, findings: [], stopped: 'budget', stillDue: true };
  try {
    while (!cut.signal.aborted) {
      const one = await pass(cut.signal);
      result.passes++;
      result.checked += one.checked;
      for (const finding of one.findings) {
        if (finding.change) result.changes++;
        if (finding.finding === 'error') result.errors++;
        if (finding.finding !== 'unchanged') result.findings.push(finding);
      }
      if (cut.signal.aborted) {
        result.stillDue = one.cut > 0 || one.claimed >= batch;
      } else if (one.claimed < batch) {
        result.stopped = 'nothing_due';
        result.stillDue = false;
        return result;
      }
    }
    if (signal?.aborted) result.stopped = 'aborted';
    return result;
  } finally {
    clearTimeout(budget);
    signal?.removeEventListener('abort', leave);
  }
};

export const createReconciler = (core: KitCore, options: ReconcilerOptions = {}): Reconciler => {
  const tickMs = options.tickMs ?? DEFAULT_RECONCILE_TICK_MS;
  const batch = options.batch ?? DEFAULT_BATCH;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  for (const [name, value] of Object.entries({ tickMs, batch, concurrency, leaseMs })) {
    if (!(value > 0 && Number.isFinite(value))) throw new TypeError(`reconcile.${name} must be a positive number`);
  }
  const { store, reader, now } = core;
  /** Tells the kit's `onError` of a failure of a pass nobody waits for (about `invoiceId`, when one). */
  const report = (error: unknown, invoiceId?: string) => core.report(error, errorContext('reconciler', undefined, invoiceId));
  /** "Not found" answers in a row, per invoice (this instance's count). */
  const misses = new Map<string, number>();

  /** Takes what a read found to the books; waiting for another caller's claim of them ends when `signal` aborts. */
  const check = async (found: { invoice: Invoice; client: MerchantClient }, signal?: AbortSignal): Promise<ReconcileFinding> => {
    const { invoice, client } = found;
    const outcome = await core.learn(invoice, client, { source: 'reconcile', verified: true, signal });
    const finding: ReconcileFinding = {
      invoiceId: invoice.id,
      internalId: invoice.internalId,
      finding: findingOf(outcome),
      status: invoice.status,
    };
    if (outcome.outcome === 'delivered') finding.change = outcome.change;
    return finding;
  };

  /** Reads one tracked invoice; undefined when `signal` cut the read (the caller puts it back). */
  const checkTracked = async (
    item: TrackedInvoice,
    traceContext: TraceContext | undefined,
    signal: AbortSignal | undefined,
  ): Promise<ReconcileFinding | undefined> => {
    try {
      const found = await reader.read(item.id, { terminal: item.terminal, traceContext, signal });
      if (!found) {
        const count = (misses.get(item.id) ?? 0) + 1;
        if (count >= MAX_MISSES) {
          misses.delete(item.id);
          await store.untrack(item.id);
        } else {
          misses.set(item.id, count);
          await store.reschedule(item.id, now() + core.schedule.openIntervalMs * count);
        }
        return { invoiceId: item.id, internalId: null, finding: 'not_found', status: null, error: 'no terminal knows this invoice' };
      }
      misses.delete(item.id);
      return await check(found, signal);
    } catch (error) {
      if (signal?.aborted) return undefined;
      await store.reschedule(item.id, now() + RETRY_MS).catch((error: unknown) => report(error, item.id));
      return { invoiceId: item.id, internalId: null, finding: 'error', status: null, error: message(error) };
    }
  };

  /**
   * One claim of the invoices due, read `concurrency` at a time. Once `signal` aborts no read
   * starts and a read waiting for the service is cut; what was claimed and not read is due again
   * at once, not when its lease lapses.
   */
  const passOnce = (signal?: AbortSignal): Promise<PassResult> =>
    reconcilePass('scheduled', async (traceContext) => {
      const startedAt = now();
      const due = await store.claimDue(startedAt, batch, leaseMs);
      const findings: ReconcileFinding[] = [];
      const unread: TrackedInvoice[] = [];
      await pool(due, concurrency, async (item) => {
        const finding = signal?.aborted ? undefined : await checkTracked(item, traceContext, signal);
        if (finding) findings.push(finding);
        else unread.push(item);
      });
      await Promise.all(unread.map((item) => store.reschedule(item.id, now()))).catch((error: unknown) => report(error));
      return { startedAt, checked: findings.length, findings, claimed: due.length, cut: unread.length };
    });

  const tell = teller(options.onReport, report);

  let running: Promise<ReconcileReport> | undefined;
  const pass = (): Promise<ReconcileReport> =>
    (running ??= (async () => {
      try {
        const { startedAt, checked, findings } = await passOnce();
        return { startedAt, checked, findings };
      } finally {
        running = undefined;
      }
    })());

  let timer: ReturnType<typeof setTimeout> | undefined;
  let started = false;
  const tick = async () => {
    try {
      tell(await pass());
    } catch (error) {
      // The store is away: the next tick tries again.
      report(error);
    }
    if (started) {
      timer = setTimeout(() => void tick(), tickMs);
      (timer as { unref?: () => void }).unref?.();
    }
  };

  /** The drains under way, each with its way to be cut when the reconciler stops. */
  const draining = new Map<Promise<DrainReport>, AbortController>();

  const drain = ({ budgetMs, signal }: DrainOptions): Promise<DrainReport> => {
    if (!(typeof budgetMs === 'number' && budgetMs > 0 && Number.isFinite(budgetMs))) {
      return Promise.reject(new TypeError('drain: budgetMs must be a positive number of milliseconds'));
    }
    const cut = new AbortController();
    const passTold = async (passSignal: AbortSignal) => {
      const one = await passOnce(passSignal);
      tell(one);
      return one;
    };
    const work = drainPasses(passTold, batch, now(), { budgetMs, signal }, cut);
    draining.set(work, cut);
    void work.catch(() => undefined).finally(() => draining.delete(work));
    return work;
  };

  const reconcile = (request: ReconcileRequest): Promise<ReconcileReport> =>
    reconcilePass('asked', (traceContext) => reconcileGiven(core, check, concurrency, request, traceContext));

  return {
    start: () => {
      if (started) return;
      started = true;
      timer = setTimeout(() => void tick(), tickMs);
      (timer as { unref?: () => void }).unref?.();
    },
    stop: async () => {
      started = false;
      clearTimeout(timer);
      for (const cut of draining.values()) cut.abort();
      const under = running ? [running, ...draining.keys()] : [...draining.keys()];
      await Promise.all(under.map((work) => work.catch(() => undefined)));
    },
    pass,
    reconcile,
    drain,
  };
};
