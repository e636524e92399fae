/**
 * Each invoice's journal (issue 40) as the kit writes it: created, a deal and its bank with the
 * requisites masked, the requisites first shown, a forged notification refused and a wrong
 * token refused, the payment and its correction verified and handed to the shop; bounded
 * entries; a journal write that fails never fails a notification's acknowledgment.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import {
  DEFAULT_NOTIFICATIONS_PATH,
  createJournalConsole,
  createMemoryStore,
  type CheckoutStore,
  type InvoiceChange,
} from '../../src/server/index.js';
import { encodeEntry, maskRequisites } from '../../src/server/journal/entry.js';
import { createJournal } from '../../src/server/journal/journal.js';
import { createSqliteStore } from '../../src/server/sqlite.js';
import { kitOnMock, type KitOnMock } from '../support/kit-on-mock.js';

const MERCHANT = { apiKey: 'journal-api-key', secretKey: 'journal-secret-key', storeId: 40, storeName: 'Journal Shop' };
const TOKEN = 'journal-notification-token';
const ORIGIN = 'https://shop.example';
const NOTIFY_URL = `${ORIGIN}${DEFAULT_NOTIFICATIONS_PATH}`;

const worlds: KitOnMock[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) {
    await world.kit.close();
    world.mock.close();
  }
});

const world = (store?: CheckoutStore) => {
  const made = kitOnMock(MERCHANT, {
    notifications: { token: TOKEN },
    reconcile: false,
    onChange: (change: InvoiceChange) => void change,
    ...(store ? { store } : {}),
  });
  worlds.push(made);
  return made;
};

const notify = (kit: KitOnMock['kit'], body: unknown, token = TOKEN) =>
  kit.fetch(
    new Request(NOTIFY_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-notification-token': token },
      body: JSON.stringify(body),
    }),
  );

describe('the journal of an invoice', () => {
  test('a paid-then-corrected invoice whose first notification was forged: every step, in order, with its verdict; no secret or whole requisite', async () => {
    const { mock, client, kit } = world();
    const orderId = `order-${crypto.randomUUID()}`;
    const invoice = await client.createInvoice({
      type: 'in',
      amount: '1500.00',
      currency: 'RUB',
      notificationUrl: NOTIFY_URL,
      notificationToken: TOKEN,
      internalId: orderId,
    });
    const variants = (await (
      await kit.fetch(new Request(`${ORIGIN}/checkout-api/invoices/${invoice.id}/available-payment-variants`))
    ).json()) as {
      option: string;
      method: string;
    }[];
    const deal = await kit.fetch(
      new Request(`${ORIGIN}/checkout-api/invoices/${invoice.id}/deal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ option: variants[0]!.option, method: variants[0]!.method }),
      }),
    );
    assert.equal(deal.status, 200);
    const requisites = ((await deal.json()) as { deals: { isActive: boolean; requisites: { requisites: string } }[] }).deals.find(
      (one) => one.isActive,
    )!.requisites.requisites;
    await kit.fetch(new Request(`${ORIGIN}/checkout-api/invoices/${invoice.id}`));
    assert.equal(
      (await notify(kit, { invoice: { ...invoice, status: 'paid', updatedAt: new Date(Date.now() + 3_600_000).toISOString() } })).status,
      409,
      'the forged paid is refused',
    );
    assert.equal((await notify(kit, { invoice: { id: invoice.id, status: 'paid' } }, 'a-wrong-token')).status, 401);
    mock.markPaid(invoice.id);
    await mock.notificationsSettled();
    mock.correctAmount(invoice.id, '1400.00');
    await mock.notificationsSettled();
    await kit.journal.idle();

    const view = await kit.journal.read(invoice.id);
    const steps = [...view.entries].reverse().map((entry) => {
      const { details } = entry;
      if (entry.kind === 'notification')
        return `notification ${String(details.tokenCheck)} ${String(details.verdict)} ${String(details.outcome ?? details.reason ?? '')}`;
      if (entry.kind === 'change') return `change ${String(details.changeKind)} ${String(details.source)}`;
      return entry.kind;
    });
    assert.deepEqual(
      steps.map((step) => step.replace(/differs: .*/, 'differs')),
      [
        'created',
        // The books learn the deal from the service's answer before the route answers the payer.
        'change deal_updated read',
        'deal_started',
        'requisites_shown',
        'notification accepted unconfirmed differs',
        'notification wrong refused missing or wrong token',
        'change paid notification',
        'notification accepted verified paid',
        'change amount_corrected notification',
        'notification accepted verified amount_corrected',
      ],
    );
    const started = view.entries.find((entry) => entry.kind === 'deal_started')!;
    assert.equal(started.details.requisites, maskRequisites(requisites));
    assert.match(String(started.details.requisites), /^•••• \d{4}$/);
    assert.equal(view.entries.find((entry) => entry.kind === 'created')!.details.amount, '1500.00 RUB');
    assert.deepEqual(await kit.journal.find(orderId), [invoice.id]);
    const text = JSON.stringify(view);
    for (const secret of [TOKEN, 'a-wrong-token', MERCHANT.secretKey, MERCHANT.apiKey, requisites, requisites.replace(/\D/g, '')]) {
      assert.equal(text.includes(secret), false, `no ${secret} in the journal`);
    }
  });

  test('bounded: the newest entries are kept, the dropped counted; an entry over its cap is cut and marked', async () => {
    const store = createMemoryStore({ warn: false });
    const { kit } = kitOnMock(MERCHANT, { store, journal: { maxEntries: 3, maxEntryBytes: 256 }, reconcile: false });
    const id = crypto.randomUUID();
    for (let index = 0; index < 5; index++) kit.journal.note(id, 'action', { action: `step ${index}` });
    kit.journal.note(id, 'action', { action: 'x'.repeat(10_000), checkoutToken: 's3cr3t' });
    await kit.journal.idle();
    const view = await kit.journal.read(id);
    assert.deepEqual([view.total, view.dropped, view.entries.length], [6, 3, 3]);
    const [cut] = view.entries;
    assert.equal(cut!.truncated, true);
    assert.ok(String(cut!.details.action).length <= 65);
    assert.equal('checkoutToken' in cut!.details, false, 'a secret-named field is never written');
    assert.ok(encodeEntry(0, 'action', { a: 'ü'.repeat(1000) }, 256).length <= 256);
    await kit.close();
  });

  test("a journal that cannot write never fails a notification's acknowledgment; the failure is reported", async () => {
    const inner = createMemoryStore({ warn: false });
    const failing: CheckoutStore = {
      ...inner,
      journal: { ...inner.journal!, append: () => Promise.reject(new Error('journal disk full')) },
    };
    const errors: unknown[] = [];
    const made = kitOnMock(MERCHANT, {
      store: failing,
      notifications: { token: TOKEN },
      reconcile: false,
      onError: (error) => void errors.push(error),
    });
    worlds.push(made);
    const invoice = await made.client.createInvoice({
      type: 'in',
      amount: '1700.00',
      currency: 'RUB',
      notificationUrl: NOTIFY_URL,
      notificationToken: TOKEN,
      startDeal: true,
    });
    made.mock.markPaid(invoice.id);
    await made.mock.notificationsSettled();
    const record = made.mock.notifications.find((each) => each.invoiceId === invoice.id);
    assert.equal(record?.state, 'delivered', 'acknowledged 200 although the journal failed');
    await made.kit.journal.idle();
    assert.ok(made.kit.journal.failures() > 0);
    assert.ok(errors.some((error) => error instanceof Error && error.message === 'journal disk full'));
  });

  test('kept keepDays after its last entry: a journal silent longer is gone (memory and SQLite)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'journal-keep-'));
    try {
      for (const store of [createMemoryStore({ warn: false }), createSqliteStore({ path: join(folder, 'keep.db') })]) {
        let clock = Date.parse('2026-11-01T00:00:00Z');
        const journal = createJournal(
          store,
          { keepDays: 30 },
          () => clock,
          (error) => assert.fail(String(error)),
        );
        const [settled, recent] = [crypto.randomUUID(), crypto.randomUUID()];
        await journal.write(settled, 'change', { changeKind: 'paid' }, { open: false });
        clock += 29 * 24 * 3_600_000;
        await journal.write(recent, 'created', { amount: '1500.00 RUB' });
        assert.equal((await journal.read(settled)).total, 1, 'kept within 30 days');
        clock += 2 * 24 * 3_600_000;
        await journal.write(recent, 'action', { action: 'read_now' });
        assert.equal((await journal.read(settled)).total, 0, 'gone 31 days after its last entry');
        assert.equal((await journal.read(recent)).total, 2);
        await journal.write(settled, 'action', { action: 'read_now' });
        assert.deepEqual(
          (await journal.read(settled)).entries.map((entry) => [entry.seq, entry.kind]),
          [[1, 'action']],
          'a late entry starts it again',
        );
        await store.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('the console refuses an unknown option naming the right one, and a short key', () => {
    const { kit } = world();
    assert.throws(() => createJournalConsole({ kit, key: 'k'.repeat(16), pth: '/support' } as never), /did you mean `path`/);
    assert.throws(() => createJournalConsole({ kit, key: 'short' }), /key must be at least 16 characters/);
  });

  test('journal: false keeps none; an unknown journal option is refused naming the right one', () => {
    const { kit } = kitOnMock(MERCHANT, { journal: false, reconcile: false });
    worlds.push({ kit, mock: { close: () => undefined } } as unknown as KitOnMock);
    assert.equal(kit.journal.enabled, false);
    assert.throws(() => kitOnMock(MERCHANT, { journal: { maxEntires: 3 } as never, reconcile: false }), /maxEntries/);
  });
});
