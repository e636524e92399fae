/**
 * Quirks vary answers deterministically per seed over every permitted shape and never what a
 * checkout must show strictly; a seed repeats ids and requisites; fixtures load what `dump()`
 * writes; the request log keeps method, path, query, headers and body.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMockService, type MockFixtures } from '../../src/mock/index.js';
import { FROZEN, MERCHANT, createInvoiceBody, inProcessMock, multipartRequest, signedRequest, type MockUnderTest } from './helpers.js';

/** Any timestamp form ISO 8601 allows → ms (Date.parse does not read `+0300`, `+03` or `t`). */
const instant = (text: string): number => {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)$/.exec(text);
  assert.ok(m, `a timestamp: ${text}`);
  const [, date, hh, mm, ss = '00', fraction = '0', zone = 'Z'] = m;
  const offset = /^[Zz]$/.test(zone) ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(3).replace(':', '') || '00'}`;
  return Date.parse(`${date}T${hh}:${mm}:${ss}.${fraction.padEnd(3, '0').slice(0, 3)}${offset}`);
};

const TIMESTAMP_KEYS = new Set(['createdAt', 'expireAt', 'updatedAt', 'canceledAt', 'expiredAt', 'date', 'notificationDate']);

/** The same script against a mock: every answer's text, in order. */
const script = async (mock: MockUnderTest): Promise<string[]> => {
  const texts: string[] = [];
  const keep = async (answer: Promise<{ text: string; status: number }>) => {
    const { text, status } = await answer;
    assert.equal(status, 200, text);
    texts.push(text);
    return JSON.parse(text) as unknown;
  };
  const one = (value: unknown) => (Array.isArray(value) ? value[0] : value) as { id: string; deals: { id: string }[] };
  for (let i = 0; i < 10; i++) {
    const paid = one(
      await keep(
        signedRequest(mock, 'POST', '/api/merchant/invoices', {
          body: JSON.stringify(createInvoiceBody({ internalId: `q-${i}`, startDeal: true })),
        }),
      ),
    );
    await keep(signedRequest(mock, 'GET', `/api/merchant/invoices/${paid.id}`));
    await keep(signedRequest(mock, 'GET', `/api/merchant/invoices/${paid.id}/available-payment-variants`));
    mock.service.markPaid(paid.id);
    await keep(signedRequest(mock, 'GET', `/api/merchant/invoices/internal-id/q-${i}`));
    const canceled = one(
      await keep(signedRequest(mock, 'POST', '/api/merchant/invoices', { body: JSON.stringify(createInvoiceBody({ startDeal: true })) })),
    );
    await keep(signedRequest(mock, 'POST', `/api/merchant/invoices/${canceled.id}/cancel`));
    await withExpiredDeal(mock, keep);
    await keep(
      signedRequest(mock, 'POST', '/api/merchant/withdrawals', {
        body: JSON.stringify({ accountId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', amount: '1', address: 'TQ', code2FA: '1' }),
      }),
    );
    await keep(signedRequest(mock, 'GET', '/api/merchant/currency-rates/current'));
    await keep(signedRequest(mock, 'GET', '/api/merchant/accounts'));
    await moneyMoves(mock, keep, i);
  }
  return texts;
};

/** The answers where money moves: a pay-out, a corrected payment, a dispute after paid, the lists. */
const moneyMoves = async (
  mock: MockUnderTest,
  keep: (answer: Promise<{ text: string; status: number }>) => Promise<unknown>,
  i: number,
): Promise<void> => {
  const first = (value: unknown) => (Array.isArray(value) ? value[0] : value) as { id: string };
  const payout = {
    type: 'out',
    paymentMethod: 'vtb',
    paymentOption: 'TO_CARD',
    paymentRequisites: { requisites: '2200 2400 0000 0000', holder: 'Иван П.' },
  };
  const out = first(await keep(signedRequest(mock, 'POST', '/api/merchant/invoices', { body: JSON.stringify(createInvoiceBody(payout)) })));
  await keep(signedRequest(mock, 'GET', `/api/merchant/invoices/${out.id}`));
  const paid = first(
    await keep(
      signedRequest(mock, 'POST', '/api/merchant/invoices', {
        body: JSON.stringify(createInvoiceBody({ internalId: `m-${i}`, startDeal: true })),
      }),
    ),
  );
  mock.service.markPaid(paid.id);
  mock.service.correctAmount(paid.id, '1500.50');
  mock.service.openDispute(paid.id);
  await keep(signedRequest(mock, 'GET', `/api/merchant/invoices/internal-id/m-${i}`));
  mock.service.resolveDispute(paid.id, 'AMOUNT_CHANGED', '1499.00');
  await keep(signedRequest(mock, 'GET', `/api/merchant/invoices/${paid.id}`));
  await keep(signedRequest(mock, 'GET', '/api/merchant/payment-methods?currency=RUB'));
  await keep(signedRequest(mock, 'GET', '/api/merchant/payment-options'));
  await keep(signedRequest(mock, 'GET', '/api/merchant/accounts'));
};

/** An invoice whose deal passed its deadline: a deal no checkout shows. */
const withExpiredDeal = async (
  mock: MockUnderTest,
  keep: (answer: Promise<{ text: string; status: number }>) => Promise<unknown>,
): Promise<void> => {
  const created = (await keep(
    signedRequest(mock, 'POST', '/api/merchant/invoices', { body: JSON.stringify(createInvoiceBody({ startDeal: true })) }),
  )) as { id: string } | { id: string }[];
  const id = Array.isArray(created) ? created[0]!.id : created.id;
  await mock.service.advanceClock(31 * 60_000);
  await keep(signedRequest(mock, 'GET', `/api/merchant/invoices/${id}`));
};

const quirky = (seed: number) => inProcessMock({ ...FROZEN, seed: 11, quirks: seed });

describe('quirks', () => {
  test('the same seed gives the same answers; another seed other ones', async () => {
    const [a, b, c] = [quirky(5), quirky(5), quirky(6)];
    const [ta, tb, tc] = [await script(a), await script(b), await script(c)];
    assert.deepEqual(ta, tb);
    assert.notDeepEqual(ta, tc);
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  test('every documented variation occurs, and strictly shown fields never change', async () => {
    const plainMock = inProcessMock({ ...FROZEN, seed: 11 });
    const quirkMock = quirky(9);
    const [plain, varied] = [await script(plainMock), await script(quirkMock)];
    const seen = new Set<string>();
    const see = (name: string, when: boolean) => void (when && seen.add(name));
    const compare = (p: unknown, q: unknown, key: string | undefined, shownDeal: boolean): void => {
      if (typeof p === 'string' && key && TIMESTAMP_KEYS.has(key)) {
        assert.equal(instant(q as string), instant(p), `${key}: ${String(q)} is ${p}`);
        const text = q as string;
        see('+03:00', /[+-]\d{2}:\d{2}$/.test(text) && !text.endsWith('+00:00'));
        see('+0300', /[+-]\d{4}$/.test(text));
        see('+03', /[+-]\d{2}$/.test(text));
        see('Z', /Z$/.test(text));
        see('no seconds', /[Tt]\d{2}:\d{2}(?:[Zz+-]|$)/.test(text));
        see('fraction', /\.\d{1,9}/.test(text));
        see('9 digits', /\.\d{9}/.test(text));
        see('lower-case t/z', /t|z$/.test(text));
        return;
      }
      if (Array.isArray(p)) {
        if (Array.isArray(q)) p.forEach((item, i) => compare(item, q[i], undefined, false));
        else see('null instead of []', q === null && key === 'disputeReasonData');
        return;
      }
      if (typeof p !== 'object' || p === null) {
        if (['id', 'status', 'amount', 'currency', 'subunit'].includes(key ?? '') || shownDeal) assert.equal(q, p, `${key} never varies`);
        return;
      }
      const po = p as Record<string, unknown>;
      const qo = q as Record<string, unknown>;
      const shown = po.isActive === true;
      for (const name of Object.keys(po)) {
        if (!(name in qo)) see(`missing ${name}`, true);
        else if (name === 'requisites' && shown) assert.deepEqual(qo[name], po[name], 'the shown deal keeps requisites and holder');
        else if (name === 'requisites' && (qo[name] as { holder: unknown }).holder === null) see('holder null', true);
        else compare(po[name], qo[name], name, false);
      }
      for (const name of Object.keys(qo)) see('extra field', !(name in po) && name !== 'balance');
      if ('balance' in qo && 'sum' in po) {
        assert.deepEqual(qo.balance, po.sum, 'the older account shape carries the same sum');
        see('older account shape', true);
      }
    };
    plain.forEach((text, i) => {
      const p = JSON.parse(text) as unknown;
      let q = JSON.parse(varied[i]!) as unknown;
      see('escaped slashes', varied[i]!.includes('\\/'));
      if (Array.isArray(q) && !Array.isArray(p)) {
        see('object as a one-element list', q.length === 1);
        q = q[0];
      } else if (!Array.isArray(q) && Array.isArray(p)) {
        see('one-element list as an object', p.length === 1);
        q = [q];
      }
      compare(p, q, undefined, false);
    });
    const expected = [
      '+03:00',
      '+0300',
      '+03',
      'Z',
      'no seconds',
      'fraction',
      '9 digits',
      'lower-case t/z',
      'escaped slashes',
      'object as a one-element list',
      'one-element list as an object',
      'null instead of []',
      'holder null',
      'extra field',
      'missing paymentMethodName',
      'missing flow',
      'missing flowData',
      'missing attachments',
      'missing disputeResult',
      'missing rate',
      'missing storeName',
      'missing isSumChanged',
      'missing status',
      'missing accountId',
      'missing qrCodeLink',
      'older account shape',
      'missing frozenSum',
      'missing withdrawalFee',
    ];
    assert.deepEqual(
      expected.filter((name) => !seen.has(name)),
      [],
      'every variation occurs',
    );
    await plainMock.close();
    await quirkMock.close();
  });
});

describe('seed, fixtures and the request log', () => {
  test('a seed repeats ids, requisites and variants', async () => {
    const run = async (seed: number) => {
      const mock = inProcessMock({ ...FROZEN, seed });
      const created = await signedRequest(mock, 'POST', '/api/merchant/invoices', {
        body: JSON.stringify(createInvoiceBody({ startDeal: true })),
      });
      const id = (created.json as { id: string }).id;
      const variants = await signedRequest(mock, 'GET', `/api/merchant/invoices/${id}/available-payment-variants`);
      await mock.close();
      return created.text + variants.text;
    };
    assert.equal(await run(42), await run(42));
    assert.notEqual(await run(42), await run(43));
  });

  test('fixtures load what dump() writes; the loaded mock answers as the first one did', async () => {
    const first = inProcessMock({ ...FROZEN, seed: 3, controls: true });
    const client = first.client();
    const paid = await client.createInvoice({ ...createInvoiceBody({ internalId: 'f-paid', startDeal: true }), type: 'in' });
    first.service.markPaid(paid.id);
    const disputed = await client.createInvoice({ ...createInvoiceBody({ internalId: 'f-dispute', startDeal: true }), type: 'in' });
    first.service.openDispute(disputed.id, { reason: 'invalid_sum', amount: '1400' });
    await client.createWithdrawal({ accountId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', amount: '3', address: 'TQ', code2FA: '1' });
    // What money left behind: a running pay-out's hold, the sums a unique amount expects, a deal a cancel took off.
    const payee = { requisites: '2200 2400 0000 0000', holder: 'Иван П.' };
    await client.createInvoice({
      ...createInvoiceBody({ internalId: 'f-out' }),
      type: 'out',
      paymentMethod: 'vtb',
      paymentOption: 'TO_CARD',
      paymentRequisites: payee,
    });
    await client.createInvoice({ ...createInvoiceBody({ internalId: 'f-unique', maxAmount: '1600' }), type: 'in' });
    const canceled = await client.createInvoice({ ...createInvoiceBody({ internalId: 'f-canceled', startDeal: true }), type: 'in' });
    await client.cancelInvoice(canceled.id);
    const dump = first.service.dump();
    const overHttp = (await (await first.fetch(new Request(`${first.baseUrl}/__mock/state`))).json()) as MockFixtures;
    assert.deepEqual(overHttp, JSON.parse(JSON.stringify(dump)));

    const second = inProcessMock({ ...FROZEN, fixtures: JSON.parse(JSON.stringify(dump)) as unknown });
    assert.deepEqual(second.service.dump(), dump, 'a round trip changes nothing');
    for (const internalId of ['f-paid', 'f-dispute', 'f-out', 'f-unique', 'f-canceled']) {
      const [a, b] = [
        await signedRequest(first, 'GET', `/api/merchant/invoices/internal-id/${internalId}`),
        await signedRequest(second, 'GET', `/api/merchant/invoices/internal-id/${internalId}`),
      ];
      assert.equal(b.text, a.text);
    }
    const accounts = await signedRequest(second, 'GET', '/api/merchant/accounts');
    assert.equal(accounts.text, (await signedRequest(first, 'GET', '/api/merchant/accounts')).text, 'balances and frozen sums too');
    second.service.openDispute(canceled.id);
    assert.equal(second.service.getInvoice(canceled.id)?.deals[0]?.id, canceled.deals[0]?.id, 'the deal the cancel took off is kept');
    await first.close();
    await second.close();

    // A hand-written fixture needs little.
    const service = createMockService({
      merchants: [MERCHANT],
      publicBaseUrl: 'https://pay.mock.test',
      fixtures: { invoices: [{ id: '0a0eb051-b255-42a8-a7bc-606e1c04233e', amount: '666', deals: [{ status: 'transfer_confirmed' }] }] },
    });
    const loaded = service.getInvoice('0a0eb051-b255-42a8-a7bc-606e1c04233e');
    assert.deepEqual([loaded?.sum.amount, loaded?.deals[0]?.status, loaded?.deals[0]?.isActive], ['666.00', 'transfer_confirmed', true]);
    service.close();
  });

  test('the request log: method, path, query, headers with the signature, body text or multipart parts', async () => {
    const mock = inProcessMock();
    const body = JSON.stringify(createInvoiceBody({ startDeal: true }));
    const created = await signedRequest(mock, 'POST', '/api/merchant/invoices', { body });
    const id = (created.json as { id: string }).id;
    await signedRequest(mock, 'GET', '/api/merchant/payment-methods?currency=KZT');
    await multipartRequest(mock, `/api/merchant/invoices/${id}/confirm-transfer`, {
      attachment: new Blob(['12345'], { type: 'application/pdf' }),
      note: 'paid',
    });
    const [post, list, multipart] = mock.service.requests;
    assert.deepEqual([post?.method, post?.path, post?.query, post?.body, post?.status], ['POST', '/api/merchant/invoices', '', body, 200]);
    assert.equal(post?.headers['x-identity'], MERCHANT.apiKey);
    assert.match(post?.headers['x-signature'] ?? '', /^[A-Za-z0-9+/]{27}=$/);
    assert.deepEqual([list?.path, list?.query, list?.body], ['/api/merchant/payment-methods', '?currency=KZT', '']);
    assert.deepEqual(multipart?.body, {
      parts: [
        { name: 'attachment', value: null, file: { name: 'receipt.pdf', type: 'application/pdf', size: 5 } },
        { name: 'note', value: 'paid' },
      ],
    });
    assert.match(multipart?.headers['content-type'] ?? '', /^multipart\/form-data; boundary=/);
    await mock.close();
  });
});
