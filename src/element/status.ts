/**
 * What an invoice status means to the payer. The service documents `new`, `paid`,
 * `canceled`, `expired` and `dispute`; obvious synonyms are mapped too, and any other string
 * is `other`: shown as written, never a crash.
 */
import { plainText } from './format.js';

/**
 * - `open`: the payer can still pay (a deal may be waiting for the transfer, or none yet);
 * - `paid`, `canceled`, `expired`: final, nothing will change any more;
 * - `dispute`: the payer reported a transfer that was not confirmed; it ends paid or canceled;
 * - `other`: a status this element does not know; it is shown and still re-read, as it may
 *   be an intermediate one (a check in progress).
 */
export type StatusMeaning = 'open' | 'paid' | 'canceled' | 'expired' | 'dispute' | 'other';

// A Map, not an object: a status named `constructor` or `__proto__` must not find a prototype member.
const MEANINGS = new Map<string, StatusMeaning>();
const name = (meaning: StatusMeaning, statuses: string) => {
  for (const status of statuses.split(' ')) MEANINGS.set(status, meaning);
};
name('open', 'new created pending waiting transfer_waiting awaiting_payment in_progress processing');
name('paid', 'paid completed complete success succeeded successful done confirmed finished');
name('canceled', 'canceled cancelled cancel');
name('expired', 'expired timeout timed_out overdue');
name('dispute', 'dispute disputed in_dispute');

/** Case, spaces, dashes and bidi controls do not matter: `Transfer-Waiting` is `transfer_waiting`. */
export const normalizeStatus = (status: string): string =>
  plainText(status)
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** What a status of the service means to the checkout: open, paid, canceled, expired, dispute or other. */
export const statusMeaning = (status: string): StatusMeaning => MEANINGS.get(normalizeStatus(status)) ?? 'other';

/** A final status never changes again: polling stops. */
export const isFinalStatus = (status: string): boolean => {
  const meaning = statusMeaning(status);
  return meaning === 'paid' || meaning === 'canceled' || meaning === 'expired';
};
