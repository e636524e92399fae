/**
 * The mock's state: amounts, timestamps, invoice URLs, expiry by the clock, deals with
 * realistic requisites, variants, and the options that stand for what the documentation does
 * not show.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BANKS, MOCK_DEFAULTS, createMockService } from '../../src/mock/index.js';
import { isLuhnValid } from '../../src/mock/requisites.js';
import { MERCHANT, START, createInvoiceBody, inProcessMock, manualClock, messagesOf, signedRequest } from './helpers.js';

/** A small seeded generator, so that many different draws are checked reproducibly. */
const seeded = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

describe('amounts, timestamps and URLs', () => {
  test('amounts are written with exactly subunit digits', async () => {
    const mock = inProcessMock({ amountLimits: { RUB: { min: '0.01', max: '999999999999999.99' } } });
    const client = mock.client();
    for (const [amount, currency, written] of [
      ['1500', 'RUB', '1500.00'],
      ['0.5', 'RUB', '0.50'],
      ['007.10', 'KZT', '7.10'],
      ['12.3', 'USDT', '12.30000000'],
      ['123456789012345.99', 'RUB', '123456789012345.99'],
    ] as const) {
      const invoice = await client.createInvoice({ ...createInvoiceBody({ amount, currency }), type: 'in' });
      assert.equal(invoice.sum.amount, written, `${amount} ${currency}`);
      assert.equal(invoice.sum.subunit, written.split('.')[1]?.length);
    }
    await mock.close();
  });

  test('timestamps are ISO 8601 +00:00 in whole seconds (documented); expireAt is createdAt + TTL; invoiceUrl has the page form', async () => {
    const clock = manualClock(START + 789);
    const mock = inProcessMock({ now: clock.now, invoiceTtlMs: 15 * 60_000, invoicePageUrl: 'https://pay.example.com/checkout/' });
    const invoice = await mock.client().createInvoice({ ...createInvoiceBody({ startDeal: true }), type: 'in' });
    assert.equal(invoice.createdAt, '2026-11-22T07:00:00+00:00');
    assert.equal(invoice.updatedAt, invoice.createdAt);
    assert.equal(invoice.expireAt, '2026-11-22T07:15:00+00:00');
    assert.equal(Date.parse(invoice.createdAt), START);
    assert.equal(invoice.deals[0]?.canceledAt, invoice.expireAt, "a deal's deadline never passes its invoice's expiry");
    assert.equal(invoice.invoiceUrl, `https://pay.example.com/checkout?id=${invoice.id}`);
    await mock.close();

    const moscow = inProcessMock({ now: clock.now, utcOffsetMinutes: 180 });
    assert.equal((await moscow.client().createInvoice({ ...createInvoiceBody(), type: 'in' })).createdAt, '2026-11-22T10:00:00+03:00');
    await moscow.close();
  });

  test("a deal's canceledAt is its deadline, 15–30 minutes after its start; past it the deal expires and the invoice stays new", async () => {
    const clock = manualClock();
    const mock = inProcessMock({ now: clock.now });
    const invoice = await mock.client().createInvoice({ ...createInvoiceBody({ startDeal: true, internalId: 'deadline' }), type: 'in' });
    const deadline = Date.parse(invoice.deals[0]!.canceledAt!) - START;
    assert.ok(deadline >= 15 * 60_000 && deadline <= 30 * 60_000, `deadline after ${deadline} ms`);
    clock.advance(deadline);
    const later = await mock.client().getInvoiceByInternalId('deadline');
    assert.deepEqual([later.status, later.deals[0]?.status, later.deals[0]?.isActive], ['new', 'expired', false]);
    await mock.close();
  });
});

describe('expiry', () => {
  test('an invoice expires at expireAt by the clock: status, deal, and a notification', async () => {
    const clock = manualClock();
    const sent: unknown[] = [];
    const mock = inProcessMock({
      now: clock.now,
      notificationAllowed: () => true,
      notificationFetch: async (request) => {
        sent.push(await request.json());
        return new Response(null, { status: 200 });
      },
    });
    const client = mock.client();
    const invoice = await client.createInvoice({ ...createInvoiceBody({ internalId: 'slow-payer', startDeal: true }), type: 'in' });
    clock.advance(MOCK_DEFAULTS.invoiceTtlMs - 1);
    assert.equal((await client.getInvoiceByInternalId('slow-payer')).status, 'new');
    clock.advance(1);
    const expired = await client.getInvoiceByInternalId('slow-payer');
    assert.equal(expired.status, 'expired');
    assert.equal(expired.expireAt, invoice.expireAt);
    assert.equal(expired.updatedAt, invoice.expireAt);
    assert.equal(expired.deals[0]?.isActive, false);
    assert.equal(expired.deals[0]?.status, 'expired');
    await mock.service.notificationsSettled();
    assert.equal(sent.length, 1);
    assert.equal((sent[0] as { invoice: { status: string } }).invoice.status, 'expired');
    await mock.close();
  });

  test('with the real clock, a timer expires the invoice without any request', async () => {
    const seen: string[] = [];
    const mock = inProcessMock({
      invoiceTtlMs: 60,
      notificationAllowed: () => true,
      notificationFetch: async (request) => {
        seen.push(((await request.json()) as { invoice: { status: string } }).invoice.status);
        return new Response(null, { status: 200 });
      },
    });
    const invoice = await mock.client().createInvoice({ ...createInvoiceBody(), type: 'in' });
    const deadline = Date.now() + 2_000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(seen, ['expired']);
    assert.equal(mock.service.getInvoice(invoice.id)?.status, 'expired');
    await mock.close();
  });
});

describe('deals, requisites and variants', () => {
  test('requisites look real: Luhn-valid 16-digit cards, +79 phones with an https QR link, Cyrillic holders', async () => {
    const options = new Set<string>();
    for (let seed = 1; seed <= 40; seed++) {
      const service = createMockService({
        merchants: [MERCHANT],
        publicBaseUrl: 'https://pay.mock.test',
        random: seeded(seed),
        notificationAllowed: () => false,
      });
      const answer = await signedRequest({ baseUrl: 'https://pay.mock.test', fetch: service.fetch }, 'POST', '/api/merchant/invoices', {
        body: JSON.stringify(createInvoiceBody({ startDeal: true })),
      });
      const deal = (
        answer.json as {
          deals: {
            paymentOption: string;
            paymentMethod: string;
            paymentMethodName: string;
            requisites: { requisites: string; holder: string };
            qrCodeLink: string | null;
            rate: string;
          }[];
        }
      ).deals[0]!;
      options.add(deal.paymentOption);
      assert.match(deal.requisites.holder, /^[А-ЯЁ][а-яё]+ [А-ЯЁ][а-яё]+ [А-ЯЁ]\.$/);
      assert.notEqual(deal.paymentMethodName, deal.paymentMethod, 'a human-readable bank name');
      assert.equal(deal.rate, '96.50');
      const bank = BANKS.find((b) => b.code === deal.paymentMethod);
      assert.ok(bank, `bank ${deal.paymentMethod} is from the list`);
      assert.equal(deal.paymentMethodName, bank.name);
      const requisites = deal.requisites.requisites;
      if (deal.paymentOption === 'TO_CARD') {
        // Written as the documentation shows a card: `4444 4444 4444 4444`.
        assert.match(requisites, /^\d{4} \d{4} \d{4} \d{4}$/);
        assert.ok(isLuhnValid(requisites.replace(/ /g, '')), requisites);
        assert.ok(requisites.replace(/ /g, '').startsWith(bank.bin));
        assert.equal(new URL(deal.qrCodeLink ?? '').protocol, 'https:', 'a bank pay link');
      } else if (deal.paymentOption === 'SBP') {
        // Written as the documentation shows a phone: `+7(996)777-99-77`.
        assert.match(requisites, /^\+7\(9\d{2}\)\d{3}-\d{2}-\d{2}$/);
        assert.equal(new URL(deal.qrCodeLink ?? '').protocol, 'https:');
      } else if (deal.paymentOption === 'SBP_QR') {
        assert.match(requisites, /^https:\/\/qr\.nspk\.ru\/.*sum=150000/, 'QR data');
        assert.match(deal.qrCodeLink ?? '', /\/api\/public\/invoices\/[0-9a-f-]{36}\/qr-code$/, 'a link to the QR image');
      } else {
        assert.match(requisites, /^40817810\d{12}$/, `${deal.paymentOption}: an account number`);
      }
      service.close();
    }
    assert.ok(
      ['SBP', 'TO_CARD'].every((option) => options.has(option)),
      [...options].join(),
    );
  });

  test('variants come from a few banks, one of them with several options', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const mock = inProcessMock({ random: seeded(seed) });
      const invoice = await mock.client().createInvoice({ ...createInvoiceBody(), type: 'in' });
      const variants = await mock.client().listPaymentVariants(invoice.id);
      const perBank = new Map<string, number>();
      for (const v of variants) perBank.set(v.method, (perBank.get(v.method) ?? 0) + 1);
      assert.ok(perBank.size >= MOCK_DEFAULTS.variantBanks.min, `seed ${seed}: ${perBank.size} banks`);
      assert.ok(
        [...perBank.values()].some((count) => count > 1),
        `seed ${seed}: a bank with several options`,
      );
      assert.equal(new Set(variants.map((v) => `${v.method}/${v.option}`)).size, variants.length, 'no duplicates');
      await mock.close();
    }
  });

  test('a pay-in created with paymentMethod and paymentOption and startDeal uses them, and they are among the variants', async () => {
    const mock = inProcessMock();
    const client = mock.client();
    for (const [method, option] of [
      ['gazprombank', 'TO_CARD'],
      ['ozonbank', 'SBP'],
      ['tinkoff', 'SBP'],
    ] as const) {
      const invoice = await client.createInvoice({
        ...createInvoiceBody({ paymentMethod: method, paymentOption: option, startDeal: true }),
        type: 'in',
      });
      assert.equal(invoice.deals[0]?.paymentMethod, method);
      assert.equal(invoice.deals[0]?.paymentOption, option);
      assert.equal(invoice.paymentMethod, method);
      assert.ok((await client.listPaymentVariants(invoice.id)).some((v) => v.method === method && v.option === option));
    }
    const onlyBank = await client.createInvoice({ ...createInvoiceBody({ paymentMethod: 'vtb', startDeal: true }), type: 'in' });
    assert.equal(onlyBank.deals[0]?.paymentMethod, 'vtb');
    const post = (body: unknown) => signedRequest(mock, 'POST', '/api/merchant/invoices', { body: JSON.stringify(body) });
    assert.deepEqual(messagesOf(await post(createInvoiceBody({ paymentMethod: 'somebank' }))), ['Payment method not allowed']);
    assert.deepEqual(messagesOf(await post(createInvoiceBody({ paymentOption: 'BY_PIGEON' }))), ['Payment option not allowed']);
    await mock.close();
  });

  test("cancel needs an active deal (the reference's condition): 400 by default, or as the cancelWithoutDeal option says", async () => {
    const strict = inProcessMock();
    const bare = await strict.client().createInvoice({ ...createInvoiceBody(), type: 'in' });
    const refused = await signedRequest(strict, 'POST', `/api/merchant/invoices/${bare.id}/cancel`);
    assert.equal(refused.status, 400);
    assert.deepEqual(messagesOf(refused), ['Invoice has no active deal']);
    const withDeal = await strict.client().createInvoice({ ...createInvoiceBody({ startDeal: true }), type: 'in' });
    const canceled = await strict.client().cancelInvoice(withDeal.id);
    assert.deepEqual([canceled.status, canceled.deals], ['canceled', []]);
    await strict.close();

    const lenient = inProcessMock({ cancelWithoutDeal: 'allow' });
    const invoice = await lenient.client().createInvoice({ ...createInvoiceBody(), type: 'in' });
    assert.equal((await lenient.client().cancelInvoice(invoice.id)).status, 'canceled');
    await lenient.close();

    const custom = inProcessMock({ cancelWithoutDeal: { status: 409, message: 'no deal' } });
    const other = await custom.client().createInvoice({ ...createInvoiceBody(), type: 'in' });
    const answer = await signedRequest(custom, 'POST', `/api/merchant/invoices/${other.id}/cancel`);
    assert.deepEqual([answer.status, answer.json], [409, [{ message: 'no deal' }]]);
    await custom.close();
  });

  test('an internalId used twice finds the latest invoice (assumption)', async () => {
    const mock = inProcessMock();
    await mock.client().createInvoice({ ...createInvoiceBody({ internalId: 'again' }), type: 'in' });
    const second = await mock.client().createInvoice({ ...createInvoiceBody({ internalId: 'again' }), type: 'in' });
    assert.equal((await mock.client().getInvoiceByInternalId('again')).id, second.id);
    await mock.close();
  });

  test('internal ids with slashes, spaces and Cyrillic round-trip through the path', async () => {
    const mock = inProcessMock();
    const internalId = 'заказ/42 ?#%';
    const invoice = await mock.client().createInvoice({ ...createInvoiceBody({ internalId }), type: 'in' });
    assert.equal((await mock.client().getInvoiceByInternalId(internalId)).id, invoice.id);
    await mock.close();
  });

  test('code2FA option: only that code withdraws; others are 403', async () => {
    const mock = inProcessMock({ code2FA: '424242' });
    const body = { accountId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', amount: '2', address: 'a' };
    const wrong = await signedRequest(mock, 'POST', '/api/merchant/withdrawals', { body: JSON.stringify({ ...body, code2FA: '000000' }) });
    assert.equal(wrong.status, 403);
    const right = await signedRequest(mock, 'POST', '/api/merchant/withdrawals', { body: JSON.stringify({ ...body, code2FA: '424242' }) });
    assert.equal(right.status, 200);
    await mock.close();
  });

  test('the requests log lists every API request with its status, in order', async () => {
    const mock = inProcessMock();
    await signedRequest(mock, 'GET', '/api/merchant/accounts');
    await signedRequest(mock, 'GET', '/api/merchant/nothing');
    await signedRequest(mock, 'GET', '/api/merchant/accounts', { merchant: { apiKey: MERCHANT.apiKey, secretKey: 'wrong' } });
    assert.deepEqual(
      mock.service.requests.map(({ method, path, status }) => ({ method, path, status })),
      [
        { method: 'GET', path: '/api/merchant/accounts', status: 200 },
        { method: 'GET', path: '/api/merchant/nothing', status: 404 },
        { method: 'GET', path: '/api/merchant/accounts', status: 401 },
      ],
    );
    await mock.close();
  });

  test('createMockService refuses bad options', () => {
    assert.throws(() => createMockService({ merchants: [], publicBaseUrl: 'https://x.test' }), /at least one merchant/);
    assert.throws(() => createMockService({ merchants: [MERCHANT], publicBaseUrl: 'not a url' }), /publicBaseUrl/);
    assert.throws(() => createMockService({ merchants: [MERCHANT, MERCHANT], publicBaseUrl: 'https://x.test' }), /share the apiKey/);
  });
});
