/**
 * Where the kit's parts tell the journal what happened (journal.ts), each a wrapper around a
 * hook the part already has, so that no part learns of the journal: the clients' invoices
 * (created), the shop's `onChange` (each change handed on), the reconciler's report (findings),
 * the webhook sender's attempts, and the checkout proxy's answers (the payer's actions).
 */
import type { Invoice } from '../../schemas/index.js';
import type { InvoiceObserver } from '../client/merchant-client.js';
import type { InvoiceChange } from '../books/ledger.js';
import type { ReconcileReport } from '../books/reconciler.js';
import { isTerminal } from '../store/types.js';
import { remember } from '../remember.js';
import { requestPath } from '../http/runtime-seam.js';
import { maskRequisites } from './entry.js';
import type { Journal, JournalMeta } from './journal.js';

/** Where an invoice stands for the journal: its order id, and open until its deadline or settled. */
export const metaOf = (invoice: Pick<Invoice, 'status' | 'expireAt' | 'internalId'>): JournalMeta => {
  const deadline = Date.parse(invoice.expireAt);
  return {
    orderId: invoice.internalId,
    open: isTerminal(invoice.status) ? false : Number.isFinite(deadline) ? deadline : undefined,
  };
};

const amountOf = (invoice: Invoice): string => `${invoice.sum.amount} ${invoice.sum.currency}`;

/** Notes every invoice a client's call created (`onInvoice` of each client). */
export const journalCreated =
  (journal: Journal): InvoiceObserver =>
  (invoice, operation, client, created) => {
    if (!created) return undefined;
    journal.note(
      invoice.id,
      'created',
      { amount: amountOf(invoice), orderId: invoice.internalId, by: client.terminal ?? 'the shop', operation, status: invoice.status },
      metaOf(invoice),
    );
    return undefined;
  };

/** The shop's `onChange` with each change noted once it was handed on (and whether the shop's handler took it). */
export const journalChanges =
  (journal: Journal, onChange: ((change: InvoiceChange) => void | Promise<void>) | undefined) =>
  async (change: InvoiceChange): Promise<void> => {
    const details = {
      change: change.id,
      changeKind: change.kind,
      source: change.source,
      verified: change.verified,
      status: change.current.status,
      amount: change.current.receivedSumFromTaker ?? change.current.sum,
      fields: change.changes.map((field) => field.field).join(', ') || null,
    };
    try {
      await onChange?.(change);
    } catch (error) {
      journal.note(change.invoiceId, 'change', {
        ...details,
        handled: false,
        error: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
    journal.note(change.invoiceId, 'change', { ...details, handled: true }, metaOf(change.invoice));
  };

/** The reconciler's `onReport` with each finding noted. */
export const journalFindings =
  (journal: Journal, onReport: ((report: ReconcileReport) => void) | undefined) =>
  (report: ReconcileReport): void => {
    for (const finding of report.findings) {
      if (finding.invoiceId === null || finding.finding === 'unchanged') continue;
      journal.note(finding.invoiceId, 'reconciled', {
        finding: finding.finding,
        status: finding.status,
        change: finding.change?.id ?? null,
        error: finding.error,
      });
    }
    onReport?.(report);
  };

/** What the webhook sender tells of an attempt (`createWebhookSender({ onAttempt })`). */
export interface WebhookAttempt {
  /** The change's id (the webhook's `webhook-id`). */
  id: string;
  /** The HTTP status the shop answered, or null when it did not answer. */
  status: number | null;
  /** Delivered, tried again later, or given up. */
  outcome: 'delivered' | 'retry' | 'failed';
  /** Why it failed. */
  error?: string;
  /** How long the attempt took, in ms. */
  ms: number;
  /** When it is tried again (epoch ms), for `retry`. */
  nextAt?: number | undefined;
}

/** An `onAttempt` for the webhook sender that notes each attempt in the change's invoice's journal. */
export const journalWebhookAttempt =
  (journal: Journal) =>
  (attempt: WebhookAttempt): void => {
    // A change's id is `{invoice id}:{fingerprint}`.
    const invoiceId = attempt.id.split(':')[0] ?? '';
    if (invoiceId === '') return;
    journal.note(invoiceId, 'webhook', {
      change: attempt.id,
      httpStatus: attempt.status,
      outcome: attempt.outcome,
      ms: attempt.ms,
      error: attempt.error,
      nextTry: attempt.nextAt === undefined ? null : new Date(attempt.nextAt).toISOString(),
    });
  };

/** The payer's routes of the checkout protocol the journal hears (src/schemas/checkout-routes.ts). */
const PAYER_ROUTE = /^\/invoices\/([0-9a-fA-F-]{36})(?:\/(deal|cancel|receipt|dispute))?$/;

interface ProjectedDeal {
  id?: unknown;
  isActive?: unknown;
  paymentMethodName?: unknown;
  paymentOption?: unknown;
  paymentMethod?: unknown;
  requisites?: { requisites?: unknown } | null;
}

const activeDealOf = (body: unknown): ProjectedDeal | undefined => {
  const deals = (body as { deals?: unknown } | null)?.deals ?? (body as { invoice?: { deals?: unknown } } | null)?.invoice?.deals;
  if (!Array.isArray(deals)) return undefined;
  return (deals as ProjectedDeal[]).find((deal) => deal?.isActive === true);
};

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** How many deals' requisites this process remembers having shown (the oldest forgotten first). */
const SHOWN_REMEMBERED = 10_000;

/**
 * The checkout proxy with the payer's actions noted: a deal started (bank, requisites masked),
 * requisites first shown (by this process) on a read, "I have paid" with a receipt (its size),
 * a cancel or a dispute asked, and each one's outcome. The answer is the proxy's, unchanged; a
 * read's body is looked at only until its deal's requisites were noted.
 */
export const tapCheckout = (
  checkout: (request: Request) => Promise<Response>,
  basePath: string,
  journal: Journal,
): ((request: Request) => Promise<Response>) => {
  if (!journal.enabled) return checkout;
  const prefix = basePath.replace(/\/+$/, '');
  const invoices = `${prefix}/invoices/`;
  /** Deals whose requisites were noted as shown, by deal id (or invoice id when a deal has none). */
  const shown = new Map<string, true>();
  /** Invoices whose reads show no requisites yet are looked at again; those already noted are not. */
  const noted = new Map<string, true>();

  const noteShown = (invoiceId: string, deal: ProjectedDeal | undefined, route: string) => {
    const requisites = maskRequisites(text(deal?.requisites?.requisites));
    if (!deal || requisites === null) return;
    const key = text(deal.id) ?? invoiceId;
    if (shown.has(key)) return;
    remember(shown, key, true, SHOWN_REMEMBERED);
    remember(noted, invoiceId, true, SHOWN_REMEMBERED);
    journal.note(invoiceId, 'requisites_shown', { bank: text(deal.paymentMethodName), requisites, route });
  };

  /** A copy of an answer's JSON, read in the background (the answer itself goes out at once). */
  const bodyOf = (answer: Response): Promise<unknown> =>
    answer
      .clone()
      .json()
      .catch(() => undefined);

  const observe = (request: Request, answer: Response): void => {
    // The adapter's path (no URL is built for it): most reads stop at the first test.
    const path = requestPath(request);
    if (!path.startsWith(invoices)) return;
    const match = PAYER_ROUTE.exec(path.slice(prefix.length));
    if (!match) return;
    const invoiceId = match[1]!.toLowerCase();
    const action = match[2];
    if (request.method === 'GET' && action === undefined) {
      if (answer.ok && !noted.has(invoiceId)) void bodyOf(answer).then((body) => noteShown(invoiceId, activeDealOf(body), 'read'));
      return;
    }
    if (request.method !== 'POST' || action === undefined) return;
    const size = Number(request.headers.get('content-length'));
    void bodyOf(answer).then((body) => {
      const outcome = answer.ok
        ? 'ok'
        : (text((body as { error?: { code?: unknown } } | undefined)?.error?.code) ?? `http ${answer.status}`);
      if (action === 'deal') {
        const deal = answer.ok ? activeDealOf(body) : undefined;
        journal.note(invoiceId, 'deal_started', {
          bank: text(deal?.paymentMethodName),
          option: text(deal?.paymentOption),
          method: text(deal?.paymentMethod),
          requisites: maskRequisites(text(deal?.requisites?.requisites)),
          outcome,
        });
        if (answer.ok) noteShown(invoiceId, deal, 'deal');
        return;
      }
      journal.note(invoiceId, 'payer_action', {
        action: action === 'receipt' ? 'said_paid' : action === 'cancel' ? 'cancel' : 'dispute',
        uploadBytes: action === 'cancel' || !Number.isFinite(size) || size === 0 ? null : size,
        outcome,
      });
    });
  };

  return async (request) => {
    const answer = await checkout(request);
    try {
      observe(request, answer);
    } catch {
      // The journal never changes the payer's answer.
    }
    return answer;
  };
};
