/**
 * The invoices' journals in memory (memory.ts): the journals of the newest `maxInvoices`
 * invoices, each its newest entries. A restart loses them, as it loses the rest of the memory store.
 */
import type { JournalRecord, JournalStore } from './types.js';
import { remember } from '../remember.js';

interface MemoryJournal {
  seq: number;
  records: JournalRecord[];
  lastAt: number;
  orderId: string | undefined;
  deadline: number | undefined;
}

export const memoryJournal = (maxInvoices: number): JournalStore => {
  const journals = new Map<string, MemoryJournal>();
  const byOrder = new Map<string, Set<string>>();
  return {
    append: (invoiceId, append, { maxEntries, ttlMs }) => {
      const now = append.at;
      let journal = journals.get(invoiceId);
      if (journal && journal.lastAt + ttlMs < now) journal = undefined;
      journal ??= { seq: 0, records: [], lastAt: now, orderId: undefined, deadline: undefined };
      journal.seq++;
      journal.records.push({ seq: journal.seq, entry: append.entry });
      if (journal.records.length > maxEntries) journal.records.splice(0, journal.records.length - maxEntries);
      journal.lastAt = now;
      if (append.orderId !== undefined && journal.orderId !== append.orderId) {
        journal.orderId = append.orderId;
        remember(byOrder, append.orderId, (byOrder.get(append.orderId) ?? new Set()).add(invoiceId), maxInvoices);
      }
      if (append.open === false) journal.deadline = undefined;
      else if (append.open !== undefined) journal.deadline = append.open;
      remember(journals, invoiceId, journal, maxInvoices);
      return Promise.resolve(journal.seq);
    },
    read: (invoiceId, limit) => {
      const journal = journals.get(invoiceId);
      if (!journal) return Promise.resolve({ records: [], total: 0 });
      const records = limit <= 0 ? [] : journal.records.slice(-limit).reverse();
      return Promise.resolve({ records: records.map((record) => ({ ...record })), total: journal.seq });
    },
    find: (orderId, limit) =>
      Promise.resolve([...(byOrder.get(orderId) ?? [])].filter((id) => journals.get(id)?.orderId === orderId).slice(0, limit)),
    overdue: (now, limit) => {
      const open: { invoiceId: string; deadline: number }[] = [];
      for (const [invoiceId, journal] of journals)
        if (journal.deadline !== undefined && journal.deadline < now) open.push({ invoiceId, deadline: journal.deadline });
      return Promise.resolve(open.sort((a, b) => a.deadline - b.deadline).slice(0, Math.max(0, limit)));
    },
  };
};
