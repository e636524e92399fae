/**
 * `merchant-checkout reconcile`: reads given invoices from the service now and reports what
 * each was found in, for a shop's cron. With `--notify`, each invoice's state is posted as the
 * service's documented notification to the shop's own receiver (the kit's, or the gateway's),
 * which reads the invoice again and tells the shop of a change once: a payment whose every
 * notification was lost is credited, a correction posted, and nothing twice, however often the
 * command runs. Without it, the command only reads and reports.
 */
import { readFileSync } from 'node:fs';
import { commandArgs } from './args.js';
import { table } from './table.js';
import { MerchantApiError, type Invoice, type MerchantClient } from '../server/node.js';
import { SettingError, clientsFrom } from '../gateway/env.js';

/** What the command found of one invoice. */
export interface CronFinding {
  invoiceId: string | null;
  internalId: string | null;
  status: string | null;
  /** What the payer paid (`receivedSumFromTaker`), as `"5004.50 RUB"`, once paid. */
  paid: string | null;
  /** `paid_never_notified`, `amount_corrected`, `disputed`, …, `unchanged` (the receiver knew it), `read` (no --notify), `not_found`, `error`. */
  finding: string;
  error?: string;
}

/** The receiver's answer's `change` → what it means for the shop. */
const FINDING_OF_CHANGE: Readonly<Record<string, string>> = {
  paid: 'paid_never_notified',
  amount_corrected: 'amount_corrected',
  disputed: 'disputed',
  dispute_resolved: 'dispute_resolved',
  canceled: 'status_changed',
  expired: 'status_changed',
  reopened: 'status_changed',
  status_changed: 'status_changed',
  deal_updated: 'changed',
  first_seen: 'changed',
};

export const RECONCILE_HELP = `merchant-checkout reconcile: read invoices from the payment service now, and report what each was found in

Usage: merchant-checkout reconcile [--id ID]... [--internal-id ID]... [--ids-file FILE] [--notify URL] [--json]

  --id ID            an invoice id (repeat, or give several separated by commas)
  --internal-id ID   the shop's own order id (internalId); each terminal is asked
  --ids-file FILE    invoice ids, one a line (# comments allowed); "-" reads standard input
  --notify URL       post each invoice's state, as the service's notification, to the shop's
                     receiver at URL (with PAYMENT_NOTIFICATION_TOKEN): the receiver reads it
                     again and tells the shop of a change once
  --json             the report as JSON
  --help             this text

Exit status: 0 every invoice read (and accepted by the receiver), 1 some failed, 2 a setting
or an argument is wrong.
`;

const split = (values: readonly string[] | undefined): string[] =>
  (values ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);

const readIds = (file: string, stdin: () => string): string[] =>
  (file === '-' ? stdin() : readFileSync(file, 'utf8'))
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);

const money = (invoice: Invoice) =>
  invoice.receivedSumFromTaker ? `${invoice.receivedSumFromTaker.amount} ${invoice.receivedSumFromTaker.currency}` : null;

/** The invoice by the shop's own id, from the first terminal that knows it. */
const byInternalId = async (clients: readonly MerchantClient[], internalId: string): Promise<Invoice | undefined> => {
  for (const client of clients) {
    try {
      return await client.getInvoiceByInternalId(internalId);
    } catch (error) {
      if (!(error instanceof MerchantApiError && error.status === 404)) throw error;
    }
  }
  return undefined;
};

const byId = async (clients: readonly MerchantClient[], id: string): Promise<Invoice | undefined> => {
  for (const client of clients) {
    try {
      return await client.getInvoice(id);
    } catch (error) {
      if (!(error instanceof MerchantApiError && error.status === 404)) throw error;
    }
  }
  return undefined;
};

/** Posts the invoice's state to the shop's receiver as the service's notification; answers the finding. */
const notify = async (url: string, token: string, invoice: Invoice, timeoutMs: number): Promise<string> => {
  const body = JSON.stringify({ notificationType: 'invoice', notificationDate: new Date().toISOString(), invoice });
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-notification-token': token },
    body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`the receiver answered ${answer.status}: ${text.slice(0, 200)}`);
  let change: unknown = null;
  try {
    change = (JSON.parse(text) as { change?: unknown }).change ?? null;
  } catch {
    // A receiver that answers 200 without the kit's body: it took the notification.
  }
  return typeof change === 'string' ? (FINDING_OF_CHANGE[change] ?? 'changed') : 'unchanged';
};

const findingsTable = (findings: readonly CronFinding[]): string =>
  table([
    ['invoice', 'internal id', 'status', 'paid', 'finding'],
    ...findings.map((f) => [
      f.invoiceId ?? '-',
      f.internalId ?? '-',
      f.status ?? '-',
      f.paid ?? '-',
      f.error ? `${f.finding}: ${f.error}` : f.finding,
    ]),
  ]);

export interface CommandIo {
  env: Readonly<Record<string, string | undefined>>;
  out: (text: string) => void;
  err: (text: string) => void;
  stdin: () => string;
  /** Asks a question on the terminal and answers the reply (doctor's consent); absent without a TTY. */
  ask?: ((question: string) => Promise<string>) | undefined;
}

/** Runs the command; answers its exit status. */
export const reconcileCommand = async (args: readonly string[], io: CommandIo): Promise<number> => {
  const values = commandArgs(
    'reconcile',
    args,
    {
      id: { type: 'string', multiple: true },
      'internal-id': { type: 'string', multiple: true },
      'ids-file': { type: 'string' },
      notify: { type: 'string' },
      json: { type: 'boolean' },
    },
    RECONCILE_HELP,
    io,
  );
  if (typeof values === 'number') return values;
  try {
    const ids = [...split(values.id), ...(values['ids-file'] ? readIds(values['ids-file'], io.stdin) : [])];
    const internalIds = split(values['internal-id']);
    if (ids.length + internalIds.length === 0) throw new SettingError('give at least one --id, --internal-id or --ids-file');
    const { clients, terminals } = clientsFrom(io.env);
    const token = io.env.PAYMENT_NOTIFICATION_TOKEN ?? terminals[0]?.notificationToken;
    if (values.notify !== undefined) {
      try {
        new URL(values.notify);
      } catch {
        throw new SettingError(`--notify must be an absolute URL, got ${JSON.stringify(values.notify)}`);
      }
      if (!token) throw new SettingError('PAYMENT_NOTIFICATION_TOKEN is not set (--notify posts with it)');
    }
    const asked = [...ids.map((id) => ({ id, internalId: null })), ...internalIds.map((internalId) => ({ id: null, internalId }))];
    const findings: CronFinding[] = [];
    for (const { id, internalId } of asked) {
      const finding: CronFinding = { invoiceId: id, internalId, status: null, paid: null, finding: 'read' };
      try {
        const invoice = id !== null ? await byId(clients, id) : await byInternalId(clients, internalId);
        if (!invoice) {
          finding.finding = 'not_found';
        } else {
          Object.assign(finding, { invoiceId: invoice.id, internalId: invoice.internalId, status: invoice.status, paid: money(invoice) });
          if (values.notify !== undefined)
            finding.finding = await notify(values.notify, token!, invoice, Math.max(...clients.map((client) => client.timeoutMs)) * 2);
        }
      } catch (error) {
        finding.finding = 'error';
        finding.error = error instanceof Error ? error.message : String(error);
      }
      findings.push(finding);
    }
    io.out(values.json ? `${JSON.stringify({ checked: findings.length, findings }, null, 2)}\n` : findingsTable(findings));
    return findings.some((finding) => finding.finding === 'error' || finding.finding === 'not_found') ? 1 : 0;
  } catch (error) {
    if (error instanceof SettingError) {
      io.err(`merchant-checkout reconcile: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
};
