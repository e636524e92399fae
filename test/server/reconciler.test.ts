/**
 * The reconciler (issue 24, point 4): every invoice the kit met and that is not settled is read
 * again on its schedule, by one instance at a time; what it finds takes the books' one path to
 * the shop; a settled invoice is read no more; a shop may reconcile given ids on demand.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import {
  DEFAULT_FINAL_FIRST_MS,
  DEFAULT_OPEN_INTERVAL_MS,
  DEFAULT_SETTLE_AFTER_MS,
  MerchantClient,
  createCheckoutServer,
  createMemoryStore,
  type CheckoutServer,
  type CheckoutServerOptions,
  type CheckoutStore,
  type InvoiceChange,
} from '../../src/server/node.js';
import { documentedPaidNotification } from '../fixtures/documented.js';
import { createScriptedService, type NotifiedInvoiceJson, type ScriptedService } from '../support/scripted-service.js';

const START = Date.parse('2024-11-23T20:40:12+00:00');
let now = START;
let service: ScriptedService;
let store: CheckoutStore;
let changes: InvoiceChange[];
const kits: CheckoutServer[] = [];

const makeKit = (options: Partial<CheckoutServerOptions> = {}) => {
  const client = new MerchantClient({
    baseUrl: 'https://pay.example',
    apiKey: 'reconcile-key',
    secretKey: 'reconcile-secret',
    fetch: (request) => service.fetch(request),
  });
  const kit = createCheckoutServer({
    client,
    store,
    authorize: () => true,
    now: () => now,
    reconcile: false,
    onChange: (change) => void changes.push(change),
    ...options,
  });
  kits.push(kit);
  return { kit, client };
};

beforeEach(() => {
  now = START;
  service = createScriptedService();
  store = createMemoryStore();
  changes = [];
});

afterEach(async () => {
  await Promise.all(kits.splice(0).map((kit) => kit.close()));
});

/** The documented invoice in a state, dated `at` (ms). */
const invoiceAt = (status: string, dealStatus: string, at: number, amount = '3650.00'): NotifiedInvoiceJson => {
  const { invoice } = documentedPaidNotification();
  invoice.status = status;
  invoice.updatedAt = new Date(at).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  invoice.deal.status = dealStatus;
  invoice.receivedSumFromTaker.amount = amount;
  invoice.deal.payment.takerSum.amount = amount;
  if (status === 'new') Object.assign(invoice, { receivedSumFromTaker: null, deal: { ...invoice.deal, payment: null } });
  return invoice;
};
const ID = documentedPaidNotification().invoice.id;

/** Moves the clock and runs one pass, as the timer would. */
const after = async (kit: CheckoutServer, ms: number) => {
  now += ms;
  return kit.reconciler.pass();
};

describe('the reconciler', () => {
  test('an invoice a payer read is tracked; a payment whose notification never came is found at the next pass', async () => {
    const { kit } = makeKit();
    service.set(invoiceAt('new', 'transfer_waiting', START));
    assert.equal((await kit.checkout(new Request(`https://shop.example/invoices/${ID}`))).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(await store.trackedCount(), 1);
    assert.equal(changes.length, 0, 'an unpaid invoice seen first needs no telling');

    // Not due yet: nothing is read.
    const reads = service.reads.get(ID) ?? 0;
    assert.equal((await after(kit, 30_000)).checked, 0);
    assert.equal(service.reads.get(ID), reads);

    service.set(invoiceAt('paid', 'completed', START + 40_000));
    const report = await after(kit, DEFAULT_OPEN_INTERVAL_MS);
    assert.equal(report.checked, 1);
    assert.equal(report.findings[0]?.finding, 'paid_never_notified');
    assert.equal(changes.length, 1);
    assert.equal(changes[0]!.kind, 'paid');
    assert.equal(changes[0]!.source, 'reconcile');
  });

  test('an open invoice is read at most once per interval; a final one at growing intervals; a settled one never again', async () => {
    const { kit } = makeKit();
    service.set(invoiceAt('new', 'transfer_waiting', START));
    await kit.reconciler.reconcile({ ids: [ID] });
    const readsAt = () => service.reads.get(ID) ?? 0;
    // Ten minutes of passes every 5 s: an open invoice is read once a minute at most.
    const open = readsAt();
    for (let step = 0; step < 120; step++) await after(kit, 5_000);
    const openReads = readsAt() - open;
    assert.ok(openReads >= 8 && openReads <= 10, `${openReads} reads in 10 minutes`);

    service.set(invoiceAt('paid', 'completed', now));
    await after(kit, DEFAULT_OPEN_INTERVAL_MS * 1.1);
    const paidAt = now;
    const final = readsAt();
    // The first read after it became final comes after DEFAULT_FINAL_FIRST_MS, not before.
    await after(kit, DEFAULT_FINAL_FIRST_MS - 10_000);
    assert.equal(readsAt(), final);
    await after(kit, 10_000);
    assert.equal(readsAt(), final + 1);
    // Through the settling window, a handful of reads; then none, and it is no longer tracked.
    while (now < paidAt + DEFAULT_SETTLE_AFTER_MS + 60_000) await after(kit, 60 * 60_000);
    const settledReads = readsAt() - final;
    assert.ok(settledReads >= 5 && settledReads <= 14, `${settledReads} reads while settling`);
    assert.equal(await store.trackedCount(), 0);
    const settled = readsAt();
    await after(kit, 7 * 24 * 60 * 60_000);
    assert.equal(readsAt(), settled, 'no read once settled');
  });

  test('a correction after payment and a dispute are found while the invoice settles', async () => {
    const { kit } = makeKit();
    service.set(invoiceAt('paid', 'completed', START, '5000.00'));
    const first = await kit.reconciler.reconcile({ ids: [ID] });
    assert.equal(first.findings[0]?.finding, 'paid_never_notified');
    service.set(invoiceAt('paid', 'completed', START + 20 * 60_000, '5004.50'));
    const corrected = await after(kit, 2 * 60 * 60_000);
    assert.equal(corrected.findings[0]?.finding, 'amount_corrected');
    const dispute = invoiceAt('dispute', 'dispute', START + 3 * 60 * 60_000, '5004.50');
    service.set(dispute);
    const disputed = await after(kit, 6 * 60 * 60_000);
    assert.equal(disputed.findings[0]?.finding, 'disputed');
    assert.deepEqual(
      changes.map((change) => change.kind),
      ['paid', 'amount_corrected', 'disputed'],
    );
  });

  test('reconcile on demand by id or by internal id reports what each was found in', async () => {
    const { kit } = makeKit();
    service.set(invoiceAt('paid', 'completed', START));
    const missing = '0f0e0d0c-0b0a-4908-8706-050403020100';
    const report = await kit.reconciler.reconcile({ ids: [ID, missing], internalIds: ['no-such-order'] });
    assert.equal(report.checked, 3);
    const byId = new Map(report.findings.map((finding) => [finding.invoiceId ?? finding.internalId, finding.finding]));
    assert.equal(byId.get(ID), 'paid_never_notified');
    assert.equal(byId.get(missing), 'not_found');
    assert.equal(byId.get('no-such-order'), 'not_found');
    const again = await kit.reconciler.reconcile({ internalIds: ['405953'] });
    assert.deepEqual([again.findings[0]?.invoiceId, again.findings[0]?.finding], [ID, 'unchanged']);
  });

  test('two instances on one store read each due invoice once per pass between them', async () => {
    const a = makeKit().kit;
    const b = makeKit().kit;
    const ids = Array.from({ length: 20 }, () => crypto.randomUUID());
    for (const id of ids) {
      service.set({ ...invoiceAt('new', 'transfer_waiting', START), id });
      await store.track(id, undefined, START);
    }
    now += 1_000;
    const [ra, rb] = await Promise.all([a.reconciler.pass(), b.reconciler.pass()]);
    assert.equal(ra.checked + rb.checked, 20);
    for (const id of ids) assert.equal(service.reads.get(id), 1, id);
  });

  test('the service down: the invoice is read again later, nothing is lost; a failing onChange too', async () => {
    let fail = true;
    const { kit } = makeKit({
      onChange: (change) => {
        if (fail) throw new Error('ledger down');
        changes.push(change);
      },
    });
    service.set(invoiceAt('paid', 'completed', START));
    await store.track(ID, undefined, START);
    service.failNext(1);
    assert.equal((await after(kit, 1_000)).findings[0]?.finding, 'error');
    assert.equal((await after(kit, 1_000)).checked, 0, 'not before the retry is due');
    assert.equal((await after(kit, 30_000)).findings[0]?.finding, 'error', 'the handler failed: nothing committed');
    fail = false;
    assert.equal((await after(kit, 30_000)).findings[0]?.finding, 'paid_never_notified');
    assert.equal(changes.length, 1);
  });

  test('a store that fails makes a pass fail, and the timer goes on to the next', async () => {
    const failing: CheckoutStore = { ...createMemoryStore(), claimDue: () => Promise.reject(new Error('redis: no answer within 1000 ms')) };
    const errors: unknown[] = [];
    const client = new MerchantClient({
      baseUrl: 'https://pay.example',
      apiKey: 'k',
      secretKey: 's',
      fetch: (request) => service.fetch(request),
    });
    const kit = createCheckoutServer({
      client,
      store: failing,
      authorize: () => true,
      reconcile: { tickMs: 10 },
      onError: (error) => void errors.push(error),
    });
    kits.push(kit);
    const deadline = Date.now() + 2000;
    while (errors.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(errors.length >= 2, 'two passes failed and were reported');
    assert.match(String(errors[0]), /no answer/);
  });
});
