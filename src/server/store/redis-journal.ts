/**
 * The invoices' journals in the Redis store (redis.ts): `{prefix}j:{invoice id}` the entries (a
 * list of `seq|entry`, trimmed to the newest), `{prefix}jn:{invoice id}` the last seq,
 * `{prefix}jo:{order id}` the invoices of an order (a set), each expiring `ttlMs` after the last
 * entry; `{prefix}jdue` the open invoices by deadline (a sorted set; a member past its deadline
 * by more than `ttlMs` is dropped when the list is read).
 */
import type { Command } from './redis-client.js';
import type { JournalStore } from './types.js';
import { JOURNAL_APPEND_SCRIPT, JOURNAL_OVERDUE_SCRIPT, JOURNAL_READ_SCRIPT } from './redis-scripts.js';

/** How long an open invoice stays listed past its deadline at most, when no entry closes it (30 days). */
const OVERDUE_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

export const redisJournal = (command: Command, prefix: string): JournalStore => {
  const dueKey = `${prefix}jdue`;
  return {
    append: async (invoiceId, append, { maxEntries, ttlMs }) =>
      Number(
        await command((client) =>
          client.eval(JOURNAL_APPEND_SCRIPT, {
            keys: [`${prefix}j:${invoiceId}`, `${prefix}jn:${invoiceId}`, `${prefix}jo:${append.orderId ?? ''}`, dueKey],
            arguments: [
              invoiceId,
              append.entry,
              String(Math.max(1, Math.floor(maxEntries))),
              String(Math.max(1, Math.floor(ttlMs))),
              append.orderId ?? '',
              append.open === undefined ? '' : append.open === false ? 'closed' : 'open',
              append.open === undefined || append.open === false ? '0' : String(Math.floor(append.open)),
            ],
          }),
        ),
      ),
    read: async (invoiceId, limit) => {
      const [total, ...items] = (await command((client) =>
        client.eval(JOURNAL_READ_SCRIPT, {
          keys: [`${prefix}j:${invoiceId}`, `${prefix}jn:${invoiceId}`],
          arguments: [String(Math.max(0, Math.floor(limit)))],
        }),
      )) as string[];
      const records = items.map((item) => {
        const bar = item.indexOf('|');
        return { seq: Number(item.slice(0, bar)), entry: item.slice(bar + 1) };
      });
      return { records, total: Number(total ?? 0) };
    },
    find: async (orderId, limit) => {
      const ids = (await command((client) =>
        client.eval("return redis.call('SMEMBERS', KEYS[1])", { keys: [`${prefix}jo:${orderId}`], arguments: [] }),
      )) as string[];
      return ids.sort().slice(0, Math.max(0, limit));
    },
    overdue: async (now, limit) => {
      const flat = (await command((client) =>
        client.eval(JOURNAL_OVERDUE_SCRIPT, {
          keys: [dueKey],
          arguments: [String(Math.floor(now)), String(Math.max(0, Math.floor(limit))), String(OVERDUE_KEPT_MS)],
        }),
      )) as string[];
      const listed: { invoiceId: string; deadline: number }[] = [];
      for (let index = 0; index + 1 < flat.length; index += 2) listed.push({ invoiceId: flat[index]!, deadline: Number(flat[index + 1]) });
      return listed;
    },
  };
};
