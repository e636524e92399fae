/**
 * `merchant-checkout doctor` (issue 27) against the mock on a port: under random brands (option
 * sets drawn by a seeded random) the options it infers are exactly the ones the mock was given,
 * and the options it prints make a mock the doctor finds the same; it makes at most one
 * invoice, which ends canceled, and never confirms, disputes or withdraws; it refuses a host
 * that is not the configured one before sending anything, asks before the invoice, and never
 * prints the secret or a signature.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { getRequestListener } from '@hono/node-server';
import { runCli } from '../../src/cli/main.js';
import { DOCTOR_OPERATIONS, FORBIDDEN_OPERATIONS, Tap, guardedFetch, RefusedRequestError } from '../../src/cli/doctor/calls.js';
import type { DoctorReport } from '../../src/cli/doctor.js';
import {
  MOCK_DEFAULTS,
  createMockService,
  startMockServer,
  type MockServer,
  type MockServerOptions,
  type MockService,
} from '../../src/mock/index.js';
import { seededRandom } from '../../src/mock/random.js';

type Env = Record<string, string | undefined>;

const run = async (args: string[], env: Env, ask?: (question: string) => Promise<string>) => {
  let out = '';
  let err = '';
  const status = await runCli(args, { env, out: (text) => void (out += text), err: (text) => void (err += text), stdin: () => '', ask });
  return { status, out, err };
};

const withMock = async <T>(options: Omit<MockServerOptions, 'port'>, body: (mock: MockServer) => Promise<T>): Promise<T> => {
  const mock = await startMockServer({ ...options, port: 0 });
  try {
    return await body(mock);
  } finally {
    await mock.close();
  }
};

/** What reached the mock that would confirm, dispute or withdraw. */
const forbiddenRequests = (mock: MockServer) =>
  mock.service.requests.filter((request) => /confirm-transfer|\/dispute|\/withdrawals/.test(request.path));
const createdInvoices = (mock: MockServer) =>
  mock.service.requests.filter(
    (request) => request.method === 'POST' && request.path === '/api/merchant/invoices' && request.status === 200,
  );

interface Brand {
  options: Omit<MockServerOptions, 'port'>;
  /** What the doctor should infer: every option it can observe for this brand. */
  expected: (url: string) => { options: Record<string, unknown>; merchant: Record<string, unknown> };
}

/** A brand drawn by `random`: every observable option set (defaults included), and some the doctor cannot see. */
const drawBrand = (random: () => number, secretKey: string): Brand => {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const payIn = random() > 0.15;
  const min = pick(payIn ? ['0.01', '1.00', '100.00', '500.00', '1000.00', '2500.50'] : ['100.00', '1000.00']);
  const cancelWithoutDeal = pick([
    'allow',
    { status: 400, message: 'Invoice has no active deal' },
    { status: 409, message: 'Start a deal first' },
    { status: 422, message: 'Нельзя отменить без сделки' },
  ] as const);
  const paymentMethodName = pick(['create', 'always', 'never'] as const);
  const page = pick([undefined, 'https://pay.brand.example/invoice', 'https://checkout.example/p/pay']);
  const brand = {
    errorFormat: pick(['documented', 'legacy'] as const),
    utcOffsetMinutes: pick([0, 180, 300, -240, 330, 345, -90, 600]),
    invoiceTtlMs: pick([15, 30, 60, 90, 1440]) * 60_000 + pick([0, 30_000]),
    amountLimits: { RUB: { min, max: MOCK_DEFAULTS.amountLimits.RUB!.max } },
    cancelWithoutDeal,
    dealIdIsInvoiceId: random() < 0.5,
    paymentMethodName,
    hostedPageRoutes: random() < 0.5,
    rates: { RUB: pick(['96.50', '91.25', '100.00', '88.1234']) },
  };
  const merchant = { storeId: 1 + Math.floor(random() * 1000), storeName: pick(['Shop A', 'Магазин', 'Brand shop #7']) };
  return {
    options: {
      ...brand,
      ...(page ? { invoicePageUrl: page } : {}),
      merchants: [{ apiKey: 'doctor-test-key', secretKey, ...merchant, payIn }],
      // What the doctor cannot observe, varied too: it must not disturb the rest.
      notificationFormat: pick(['documented', 'legacy'] as const),
      seed: Math.floor(random() * 1e6),
      dealTtlMs: { min: 10 * 60_000, max: pick([10, 20, 40]) * 60_000 },
    },
    expected: (url) => ({
      options: {
        errorFormat: brand.errorFormat,
        rates: brand.rates,
        amountLimits: brand.amountLimits,
        ...(payIn
          ? {
              utcOffsetMinutes: brand.utcOffsetMinutes,
              invoiceTtlMs: brand.invoiceTtlMs,
              invoicePageUrl: page ?? `${url}/invoice`,
              hostedPageRoutes: brand.hostedPageRoutes,
              cancelWithoutDeal,
              // A deal is started only when the cancel needs one; without a create answer that has a deal, `create` and `never` look alike.
              ...(cancelWithoutDeal === 'allow'
                ? {}
                : { dealIdIsInvoiceId: brand.dealIdIsInvoiceId, ...(paymentMethodName === 'always' ? { paymentMethodName } : {}) }),
            }
          : {}),
      },
      merchant: payIn ? { payIn, ...merchant } : { payIn },
    }),
  };
};

const envOf = (mock: MockServer, apiKey: string, secretKey: string): Env => ({
  PAYMENT_API_URL: mock.url,
  PAYMENT_API_KEY: apiKey,
  PAYMENT_SECRET_KEY: secretKey,
});

describe('merchant-checkout doctor', () => {
  test('infers exactly the options of 24 random brands, makes at most one invoice (canceled), never confirms, disputes or withdraws; its options reproduce the brand', async (t) => {
    const random = seededRandom(27);
    const seconds: number[] = [];
    for (let index = 0; index < 24; index++) {
      const secretKey = `canary-secret-${index}-${Math.floor(random() * 1e9)}`;
      const brand = drawBrand(random, secretKey);
      const report = await withMock(brand.options, async (mock) => {
        const { status, out, err } = await run(['doctor', '--yes', '--json'], envOf(mock, 'doctor-test-key', secretKey));
        const label = `brand ${index}: ${JSON.stringify(brand.options)}`;
        const report = JSON.parse(out) as DoctorReport;
        assert.equal(status, 0, `${label}\n${JSON.stringify(report.rows.filter((row) => !row.ok))}${err}`);
        const expected = brand.expected(mock.url);
        assert.deepEqual({ options: report.options, merchant: report.merchant }, expected, label);
        const payIn = brand.options.merchants[0]!.payIn !== false;
        assert.equal(createdInvoices(mock).length, payIn ? 1 : 0, label);
        assert.deepEqual(
          mock.service.listInvoices().map((invoice) => invoice.status),
          payIn ? ['canceled'] : [],
          label,
        );
        assert.deepEqual(report.invoice && { canceled: report.invoice.canceled }, payIn ? { canceled: true } : null);
        assert.deepEqual(forbiddenRequests(mock), [], label);
        assert.ok(!out.includes(secretKey) && !err.includes(secretKey), 'the secret is never printed');
        seconds.push(report.seconds);
        return report;
      });
      // The printed options, given to a mock, make a brand the doctor finds the same.
      const { publicBaseUrl: _placeholder, ...printed } = report.mockOptions as unknown as MockServerOptions;
      await withMock(printed, async (mock) => {
        const again = await run(['doctor', '--yes', '--json'], envOf(mock, 'mock-api-key', 'mock-secret-key'));
        const second = JSON.parse(again.out) as DoctorReport;
        assert.equal(again.status, 0);
        assert.deepEqual(
          { options: second.options, merchant: second.merchant },
          { options: report.options, merchant: report.merchant },
          `reproduced brand ${index}`,
        );
      });
    }
    assert.equal(seconds.length, 24);
    t.diagnostic(
      `doctor runs: ${seconds.length}, mean ${(seconds.reduce((sum, each) => sum + each, 0) / seconds.length).toFixed(3)} s, longest ${Math.max(...seconds).toFixed(3)} s`,
    );
  });

  test('refuses a host that is not the configured one (status 2) before sending anything', async () => {
    await withMock({ merchants: [{ apiKey: 'k', secretKey: 's', storeId: 1, storeName: 'S' }] }, async (mock) => {
      const port = Number(new URL(mock.url).port);
      const cases: [string[], Env, RegExp][] = [
        [
          ['doctor', '--yes', '--url', `http://127.0.0.1:${port + 1}`],
          envOf(mock, 'k', 's'),
          /refusing to run: --url .* is not the configured service/,
        ],
        [['doctor', '--yes', '--url', 'https://evil.example'], envOf(mock, 'k', 's'), /refusing to run/],
        [['doctor', '--yes', '--url', `${mock.url}/other`], envOf(mock, 'k', 's'), /refusing to run/],
        [['doctor', '--yes', '--url', mock.url.replace('http:', 'https:')], envOf(mock, 'k', 's'), /refusing to run/],
        [['doctor', '--yes', '--url', mock.url], { PAYMENT_API_KEY: 'k', PAYMENT_SECRET_KEY: 's' }, /PAYMENT_API_URL is not set/],
        [['doctor', '--yes', '--amount=-5'], envOf(mock, 'k', 's'), /--amount must be a decimal/],
        [['doctor', '--yes', '--currency', 'rub'], envOf(mock, 'k', 's'), /--currency must be/],
        [['doctor', '--bogus'], envOf(mock, 'k', 's'), /Unknown option '--bogus'/],
      ];
      for (const [args, env, message] of cases) {
        const result = await run(args, env);
        assert.equal(result.status, 2, `${args.join(' ')}: ${result.err}`);
        assert.match(result.err, message);
      }
      assert.equal(mock.service.requests.length, 0, 'nothing was sent');
      // The configured service itself, written with a trailing slash, is accepted.
      const same = await run(['doctor', '--url', `${mock.url}/`], envOf(mock, 'k', 's'));
      assert.equal(same.status, 0, same.err);
    });
  });

  test('--json is one document with the rows; the text is a table with the four columns, then the mock options and flags', async () => {
    await withMock(
      { merchants: [{ apiKey: 'k', secretKey: 's', storeId: 4, storeName: 'Four' }], errorFormat: 'legacy', utcOffsetMinutes: 300 },
      async (mock) => {
        const json = await run(['doctor', '--yes', '--json'], envOf(mock, 'k', 's'));
        const report = JSON.parse(json.out) as DoctorReport;
        assert.ok(report.rows.length >= 25, `${report.rows.length} rows`);
        for (const row of report.rows)
          for (const key of ['behaviour', 'documented', 'brand', 'kit'] as const) assert.equal(typeof row[key], 'string');
        assert.ok(report.rows.some((row) => row.behaviour === 'error bodies' && /older \{error/.test(row.brand)));
        assert.ok(
          report.mockFlags.includes('--error-format=legacy') && report.mockFlags.includes('--utc-offset=300'),
          report.mockFlags.join(' '),
        );
        assert.ok(report.notChecked.some((each) => each.option === 'notificationFormat'));
        const text = await run(['doctor', '--yes'], envOf(mock, 'k', 's'));
        assert.equal(text.status, 0);
        assert.match(text.out, /^behaviour\s+documented\s+this brand\s+what the kit does about it$/m);
        assert.match(text.out, /^timestamps\s+ISO 8601 .*\+05:00/m);
        assert.match(text.out, /merchant-checkout-mock .*--error-format=legacy/);
        assert.match(text.out, /"utcOffsetMinutes": 300/);
        assert.match(text.out, /^Not checked:$/m);
      },
    );
  });

  test('without --yes: with no terminal, or an answer other than y, no invoice is created; a y creates one and cancels it', async () => {
    await withMock({ merchants: [{ apiKey: 'k', secretKey: 's', storeId: 1, storeName: 'S' }] }, async (mock) => {
      const silent = await run(['doctor', '--json'], envOf(mock, 'k', 's'));
      assert.equal(silent.status, 0, silent.err);
      assert.match(silent.err, /no terminal to ask on and no --yes/);
      const report = JSON.parse(silent.out) as DoctorReport;
      assert.equal(report.invoice, null);
      assert.ok(report.notChecked.some((each) => each.option === 'cancelWithoutDeal' && /no test invoice/.test(each.why)));
      const questions: string[] = [];
      const no = await run(['doctor'], envOf(mock, 'k', 's'), (question) => (questions.push(question), Promise.resolve('')));
      assert.equal(no.status, 0);
      assert.match(questions[0] ?? '', /ONE test invoice .* \[y\/N\]/);
      assert.equal(mock.service.requests.filter((request) => request.method === 'POST').length, 0, 'no create was sent');
      const yes = await run(['doctor'], envOf(mock, 'k', 's'), () => Promise.resolve('y'));
      assert.equal(yes.status, 0);
      assert.deepEqual(
        mock.service.listInvoices().map((invoice) => invoice.status),
        ['canceled'],
      );
    });
  });

  test('a brand whose invoice the kit cannot read: exit status 1, the row names it, and the invoice is canceled all the same', async () => {
    // The mock behind a door that answers reads of an invoice with an id the kit refuses.
    const ready: { service?: MockService } = {};
    const listener = getRequestListener(
      async (request: Request) => {
        const answer = await ready.service!.fetch(request);
        if (
          request.method !== 'GET' ||
          !/\/api\/merchant\/invoices\/[0-9a-f-]{36}$/.test(new URL(request.url).pathname) ||
          answer.status !== 200
        )
          return answer;
        return new Response(JSON.stringify({ ...((await answer.json()) as object), id: 5 }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      },
      { overrideGlobalObjects: false },
    );
    const server = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ready.service = createMockService({ merchants: [{ apiKey: 'k', secretKey: 's', storeId: 1, storeName: 'S' }], publicBaseUrl: url });
    try {
      const { status, out } = await run(['doctor', '--yes', '--json'], {
        PAYMENT_API_URL: url,
        PAYMENT_API_KEY: 'k',
        PAYMENT_SECRET_KEY: 's',
      });
      const report = JSON.parse(out) as DoctorReport;
      assert.equal(status, 1);
      const failed = report.rows.filter((row) => !row.ok);
      assert.ok(
        failed.some((row) => row.behaviour === 'read: GET /invoices/{id}' && /CANNOT read it: id/.test(row.kit)),
        JSON.stringify(failed),
      );
      assert.deepEqual(
        ready.service.listInvoices().map((invoice) => invoice.status),
        ['canceled'],
      );
      assert.equal(report.invoice?.canceled, true, 'the cancel answer said canceled');
    } finally {
      ready.service.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('the secret and the signatures appear in no output, whatever the brand', async () => {
    const secret = `canary-${crypto.randomUUID()}`;
    for (const errorFormat of ['documented', 'legacy'] as const) {
      await withMock(
        { merchants: [{ apiKey: 'canary-key', secretKey: secret, storeId: 1, storeName: 'S' }], errorFormat, quirks: 3 },
        async (mock) => {
          const outputs = [
            await run(['doctor', '--yes'], envOf(mock, 'canary-key', secret)),
            await run(['doctor', '--yes', '--json'], envOf(mock, 'canary-key', secret)),
            await run(['doctor', '--json'], envOf(mock, 'canary-key', secret)),
          ];
          const signatures = [
            ...new Set(
              mock.service.requests
                .map((request) => request.headers['x-signature'])
                .filter((signature): signature is string => Boolean(signature)),
            ),
          ];
          assert.ok(signatures.length > 5);
          for (const { out, err, status } of outputs) {
            assert.equal(status, 0, `${errorFormat}: ${out}${err}`);
            for (const canary of [secret, ...signatures]) assert.ok(!out.includes(canary) && !err.includes(canary), `${canary} printed`);
          }
        },
      );
    }
  });

  test("the doctor's calls are an allow-list without confirm, dispute or withdraw; its transport refuses them and other hosts unsent", async () => {
    for (const name of ['confirmTransfer', 'openDispute', 'createWithdrawal']) {
      assert.ok(!(DOCTOR_OPERATIONS as readonly string[]).includes(name), name);
      assert.ok(
        FORBIDDEN_OPERATIONS.some((row) => row.name === name),
        name,
      );
    }
    let sent = 0;
    const send = guardedFetch(new URL('https://pay.brand.example/base'), new Tap(), () => (sent++, Promise.resolve(new Response('[]'))));
    const id = crypto.randomUUID();
    for (const [method, url] of [
      ['POST', `https://pay.brand.example/base/api/merchant/invoices/${id}/confirm-transfer`],
      ['POST', `https://pay.brand.example/base/api/merchant/invoices/${id}/dispute`],
      ['POST', 'https://pay.brand.example/base/api/merchant/withdrawals'],
      ['GET', 'https://other.example/base/api/merchant/accounts'],
      ['GET', 'https://pay.brand.example/api/merchant/accounts'],
    ] as const) {
      await assert.rejects(send(new Request(url, { method })), RefusedRequestError, `${method} ${url}`);
    }
    assert.equal(sent, 0);
    await send(new Request('https://pay.brand.example/base/api/merchant/accounts'));
    assert.equal(sent, 1);
  });
});
