/**
 * The OpenAPI files under `openapi/` are generated (scripts/gen-openapi.ts) and shipped. These
 * tests keep them current, check them with a real OpenAPI validator, and hold the mock's and
 * the proxy's real answers to them with a JSON Schema 2020-12 validator (ajv), quirks included.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { ISO_8601_PATTERN, OPENAPI_FILES, renderCheckout, renderGateway, renderMerchantApi } from '../../scripts/gen-openapi.js';
import { createMockService, type MockService } from '../../src/mock/index.js';
import { normalizeTimestamp } from '../../src/schemas/patterns.js';
import { MerchantClient, createCheckoutHandler } from '../../src/server/node.js';
import { OPERATIONS } from '../../src/schemas/operations.js';
import { documentedNotificationVariant, documentedPaidNotification } from '../fixtures/documented.js';

type JsonObject = Record<string, unknown>;

const BASE_URL = 'https://pay.openapi.test';
const SHOP = { apiKey: 'openapi-key', secretKey: 'openapi-secret', storeId: 7, storeName: 'OpenAPI Shop' };
const QUIRK_SEEDS = [1, 2, 3, 4, 5] as const;
const TIMEOUT = 30_000;

const readDocument = (file: string): JsonObject => JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
const merchantApi = readDocument(OPENAPI_FILES.merchantApi);
const checkout = readDocument(OPENAPI_FILES.checkout);
const gateway = readDocument(OPENAPI_FILES.gateway);

// ── The files ────────────────────────────────────────────────────────────────────────

describe('the OpenAPI files', () => {
  test('openapi/merchant-api.json is current', { timeout: TIMEOUT }, () => {
    assert.equal(readFileSync(OPENAPI_FILES.merchantApi, 'utf8'), renderMerchantApi(), 'openapi/merchant-api.json is stale: run npm run openapi');
  });

  test('openapi/checkout.json is current', { timeout: TIMEOUT }, () => {
    assert.equal(readFileSync(OPENAPI_FILES.checkout, 'utf8'), renderCheckout(), 'openapi/checkout.json is stale: run npm run openapi');
  });

  test('openapi/gateway.json is current', { timeout: TIMEOUT }, () => {
    assert.equal(readFileSync(OPENAPI_FILES.gateway, 'utf8'), renderGateway(), 'openapi/gateway.json is stale: run npm run openapi');
  });

  for (const [name, document] of [
    ['merchant-api.json', merchantApi],
    ['checkout.json', checkout],
    ['gateway.json', gateway],
  ] as const) {
    test(`${name} is a valid OpenAPI 3.1 document (swagger-parser)`, { timeout: TIMEOUT }, async () => {
      const api = await SwaggerParser.validate(structuredClone(document) as never);
      assert.equal((api as { openapi?: string }).openapi, '3.1.0');
    });
  }

  test('swagger-parser does refuse a broken copy (the validator is not vacuous)', { timeout: TIMEOUT }, async () => {
    const broken = structuredClone(checkout) as { paths: Record<string, Record<string, JsonObject>> };
    broken.paths['/invoices/{id}']!.get!.responses = { 200: { content: {} } };
    await assert.rejects(SwaggerParser.validate(broken as never));
  });

  test('every row of OPERATIONS is described, with its security', { timeout: TIMEOUT }, () => {
    const paths = merchantApi.paths as Record<string, Record<string, { operationId: string; security: unknown[] }>>;
    for (const [name, row] of Object.entries(OPERATIONS)) {
      const operation = paths[row.path]?.[row.method.toLowerCase()];
      assert.ok(operation, `${name}: ${row.method} ${row.path} is missing`);
      assert.equal(operation.operationId, name);
      assert.deepEqual(operation.security, row.signing === 'public' ? [] : [{ identity: [], signature: [] }], name);
    }
  });

  test('the timestamp pattern accepts exactly what the kit reads (normalizeTimestamp)', { timeout: TIMEOUT }, () => {
    const pattern = new RegExp(ISO_8601_PATTERN);
    const samples = [
      '2026-11-22T10:30:00+03:00', '2026-11-22T10:30:00+0300', '2026-11-22T10:30:00+03', '2026-11-22T10:30:00Z',
      '2026-11-22t10:30z', '2026-11-22T10:30', '2026-11-22 10:30:00', '2026-11-22T10:30:00.123456789-05:30',
      '2026-11-22T10:30:00,5+01:00', ' 2026-11-22T10:30:00Z ', '2026-11-22T23:59:60Z', '2026-11-22T10:30:00.1234567890Z',
      '2026-11-22T24:00:00Z', '2026-11-22T10:60:00Z', '2026-13-01T10:00:00Z', '2026-11-22T10:30:00+24:00',
      '2026-11-22T10:30:00+03:60', '2026-11-22', '10:30:00', 'x', '', '2026-11-22T10:30:00+3', '2026-11-22T10:30:00 +03:00',
    ];
    for (const sample of samples) {
      assert.equal(pattern.test(sample), normalizeTimestamp(sample) !== undefined, `${JSON.stringify(sample)}`);
    }
  });
});

// ── Validating answers ───────────────────────────────────────────────────────────────

interface Captured {
  method: string;
  path: string;
  status: number;
  contentType: string;
  text: string;
}

/** Validators of one document's answers, by path template, method and status. */
class AnswerValidator {
  readonly #ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, validateFormats: false });
  readonly #cache = new Map<string, ValidateFunction>();
  readonly #document: JsonObject;
  readonly #id: string;
  readonly #prefix: string;
  /** Which `METHOD template status` were seen (for the coverage checks). */
  readonly seen = new Set<string>();

  constructor(document: JsonObject, id: string, prefix = '') {
    this.#document = document;
    this.#id = id;
    this.#prefix = prefix;
    // Each component on its own URI; `#/components/schemas/X` references are rebased onto them.
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    for (const [name, schema] of Object.entries(schemas)) this.#ajv.addSchema(this.#rebase(schema) as JsonObject, `${id}/components/schemas/${name}`);
  }

  /** The template of `path` (`/api/merchant/invoices/{id}`), or undefined. */
  template(method: string, path: string): string | undefined {
    const segments = path.slice(this.#prefix.length).split('/');
    const paths = this.#document.paths as Record<string, JsonObject>;
    // Literal segments before parameters: `/invoices/internal-id/x` is not `/invoices/{id}/…`.
    const fitting = Object.keys(paths).filter((template) => {
      const parts = template.split('/');
      return parts.length === segments.length && parts.every((part, i) => part.startsWith('{') || part === segments[i]) && paths[template]![method.toLowerCase()];
    });
    return fitting.sort((a, b) => a.split('{').length - b.split('{').length)[0];
  }

  check(answer: Captured): void {
    const where = `${answer.method} ${answer.path} → ${answer.status}`;
    const template = this.template(answer.method, answer.path);
    assert.ok(template, `${where}: no such operation in the OpenAPI file`);
    const operation = (this.#document.paths as Record<string, Record<string, { responses: Record<string, JsonObject> }>>)[template]![answer.method.toLowerCase()]!;
    let response = operation.responses[String(answer.status)];
    assert.ok(response, `${where}: status ${answer.status} is not described for ${answer.method} ${template}`);
    this.seen.add(`${answer.method} ${template} ${answer.status}`);
    if (typeof response.$ref === 'string') response = this.#resolve(response.$ref);
    const content = response.content as Record<string, { schema: JsonObject }>;
    const mediaType = answer.contentType.split(';')[0]!.trim().toLowerCase();
    assert.ok(content[mediaType], `${where}: content type ${answer.contentType} is not described (${Object.keys(content).join(', ')})`);
    if (mediaType !== 'application/json') {
      assert.match(answer.text, /<svg[\s>]/i, `${where}: not SVG`);
      return;
    }
    const key = `${template} ${answer.method} ${answer.status} ${mediaType}`;
    let validate = this.#cache.get(key);
    if (!validate) {
      validate = this.#ajv.compile(this.#rebase(content[mediaType].schema) as JsonObject);
      this.#cache.set(key, validate);
    }
    const body: unknown = answer.text.trim() === '' ? null : JSON.parse(answer.text);
    if (!validate(body)) {
      assert.fail(`${where}: the answer does not fit the OpenAPI file: ${this.#ajv.errorsText(validate.errors)}\n${answer.text.slice(0, 2000)}`);
    }
  }

  /** Whether `value` fits `schema`, a schema of the document (its references resolved against the components). */
  fits(schema: JsonObject, value: unknown): boolean {
    return this.#ajv.validate(this.#rebase(schema) as JsonObject, value);
  }

  /** A schema of the document whose `#/components/schemas/…` references point at the added components. */
  #rebase(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map((item) => this.#rebase(item));
    if (schema === null || typeof schema !== 'object') return schema;
    return Object.fromEntries(
      Object.entries(schema).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? value.replace(/^#\/components\//, `${this.#id}/components/`) : this.#rebase(value)]),
    );
  }

  #resolve(ref: string): JsonObject {
    return ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<JsonObject>((node, key) => node[key] as JsonObject, this.#document);
  }
}

/** A `fetch` around `inner` that keeps each raw answer (status, content type, body text). */
const capturing = (inner: (request: Request) => Promise<Response>, answers: Captured[]) => async (request: Request): Promise<Response> => {
  const method = request.method;
  const path = new URL(request.url).pathname;
  const response = await inner(request);
  const text = await response.clone().text();
  answers.push({ method, path, status: response.status, contentType: response.headers.get('content-type') ?? '', text });
  return response;
};

/** Runs a call whose failure is an answer too (it is captured and validated like the others). */
const attempt = async <T>(call: () => Promise<T>): Promise<T | undefined> => {
  try {
    return await call();
  } catch {
    return undefined;
  }
};

/** A mock control whose refusal (the state does not allow it) only changes what the next reads show. */
const quietly = (action: () => void): void => {
  try {
    action();
  } catch {
    // The reads after it are checked whatever the state.
  }
};

const newMock = (quirks: number | undefined): MockService =>
  createMockService({ merchants: [SHOP], publicBaseUrl: BASE_URL, seed: quirks ?? 11, ...(quirks === undefined ? {} : { quirks }) });

const receipt = () => new Blob(['%PDF-1.4 receipt'], { type: 'application/pdf' });

/** Drives every operation of the service through `MerchantClient`, answers captured. */
const driveService = async (mock: MockService, answers: Captured[]): Promise<void> => {
  const fetch = capturing(mock.fetch, answers);
  const client = new MerchantClient({ baseUrl: BASE_URL, apiKey: SHOP.apiKey, secretKey: SHOP.secretKey, fetch });
  const intruder = new MerchantClient({ baseUrl: BASE_URL, apiKey: SHOP.apiKey, secretKey: 'not-the-secret', fetch });
  const payIn = (internalId: string, startDeal: boolean) =>
    client.createInvoice({
      type: 'in',
      amount: '1500.00',
      currency: 'RUB',
      notificationUrl: 'http://127.0.0.1:9/notify',
      notificationToken: 'token',
      internalId,
      startDeal,
    });

  // An invoice with a deal: read it every way, then cancel it.
  const withDeal = await attempt(() => payIn('order-1', true));
  if (withDeal) {
    await attempt(() => client.getInvoice(withDeal.id));
    await attempt(() => client.getInvoiceByInternalId('order-1'));
    await attempt(() => client.listPaymentVariants(withDeal.id));
    await attempt(() => client.getInvoiceQrCode(withDeal.id));
    await attempt(() => client.cancelInvoice(withDeal.id));
    await attempt(() => client.getInvoice(withDeal.id));
  }
  // One without: start a deal, confirm the transfer, dispute it, read it paid.
  const plain = await attempt(() => payIn('order-2', false));
  if (plain) {
    const variants = await attempt(() => client.listPaymentVariants(plain.id));
    const variant = variants?.[0];
    await attempt(() => client.startDeal(plain.id, { paymentMethod: variant?.method ?? null, paymentOption: variant?.option ?? null }));
    const confirmed = await attempt(() => client.confirmTransfer(plain.id, receipt()));
    const dealId = confirmed?.deals.find((deal) => deal.id)?.id;
    if (dealId) await attempt(() => client.openDispute(plain.id, { dealId, reason: 'invalid_sum', amount: '1000.00', attachment: receipt() }));
    quietly(() => mock.resolveDispute(plain.id, 'paid'));
    await attempt(() => client.getInvoice(plain.id));
  }
  // Paid and expired invoices carry sums and inactive deals.
  const paid = await attempt(() => payIn('order-3', true));
  if (paid) {
    quietly(() => mock.markPaid(paid.id));
    await attempt(() => client.getInvoice(paid.id));
  }
  const expired = await attempt(() => payIn('order-4', true));
  if (expired) {
    quietly(() => mock.expire(expired.id));
    await attempt(() => client.getInvoice(expired.id));
  }
  await attempt(() => client.listPaymentMethods());
  await attempt(() => client.listPaymentMethods('RUB'));
  await attempt(() => client.listPaymentOptions());
  await attempt(() => client.getCurrencyRates());
  const accounts = await attempt(() => client.listAccounts());
  const accountId = accounts?.[0]?.id;
  if (accountId) {
    const withdrawal = await attempt(() => client.createWithdrawal({ accountId, amount: '10', address: 'TXyz0penApiAddress', code2FA: '123456' }));
    if (withdrawal) await attempt(() => client.getWithdrawal(withdrawal.id));
  }
  await attempt(() => client.listPublicPaymentMethods('RUB'));

  // Refusals: 400 (amount under the limit; cancel without a deal), 401, 404.
  await attempt(() => client.createInvoice({ type: 'in', amount: '1.00', currency: 'RUB', notificationUrl: 'http://127.0.0.1:9/n', notificationToken: 't' }));
  const noDeal = await attempt(() => payIn('order-5', false));
  if (noDeal) await attempt(() => client.cancelInvoice(noDeal.id));
  await attempt(() => intruder.listAccounts());
  await attempt(() => client.getInvoice('00000000-0000-4000-8000-000000000000'));
  await attempt(() => client.getWithdrawal('00000000-0000-4000-8000-000000000000'));
  await attempt(() => client.getInvoiceByInternalId('no-such-order'));
};

const modes = [{ name: 'quirks off', quirks: undefined }, ...QUIRK_SEEDS.map((seed) => ({ name: `quirks on, seed ${seed}`, quirks: seed }))];

describe('the notification webhook of openapi/merchant-api.json', () => {
  test('describes the documented notification and its header, and refuses what the kit cannot read', { timeout: TIMEOUT }, () => {
    const validator = new AnswerValidator(merchantApi, 'https://openapi.test/merchant-api-webhook.json');
    type Webhook = { post: { parameters: { name: string; in: string }[]; requestBody: { content: { 'application/json': { schema: JsonObject } } } } };
    const webhook = (merchantApi.webhooks as Record<string, Webhook>).invoiceNotification!.post;
    assert.deepEqual(webhook.parameters.map(({ name, in: where }) => `${where} ${name}`), ['header X-Notification-Token']);
    const body = webhook.requestBody.content['application/json'].schema;
    assert.ok(validator.fits(body, documentedPaidNotification()), 'the documented paid notification, verbatim');
    for (const [status, deal] of [['dispute', 'dispute'], ['expired', 'expired'], ['canceled', 'canceled']]) {
      assert.ok(validator.fits(body, documentedNotificationVariant(status!, deal!)), status);
    }
    const broken = documentedPaidNotification() as unknown as { invoice: { sum: { amount: unknown } } };
    broken.invoice.sum.amount = 3650;
    assert.equal(validator.fits(body, broken), false, 'an amount that is a number');
  });
});

describe('the mock answers as openapi/merchant-api.json describes', () => {
  for (const { name, quirks } of modes) {
    test(name, { timeout: TIMEOUT }, async () => {
      const mock = newMock(quirks);
      const answers: Captured[] = [];
      try {
        await driveService(mock, answers);
      } finally {
        mock.close();
      }
      const validator = new AnswerValidator(merchantApi, 'https://openapi.test/merchant-api.json');
      for (const answer of answers) {
        assert.ok(answer.status < 500, `${answer.method} ${answer.path}: ${answer.status} ${answer.text.slice(0, 300)}`);
        validator.check(answer);
      }
      // Every operation answered 2xx at least once, and each documented refusal was seen.
      for (const row of Object.values(OPERATIONS)) {
        assert.ok(validator.seen.has(`${row.method} ${row.path} 200`), `${row.name} never answered 200 (${quirks === undefined ? 'no quirks' : `quirks ${quirks}`})`);
      }
      const statuses = new Set([...validator.seen].map((key) => key.split(' ').at(-1)));
      for (const status of ['400', '401', '404']) assert.ok(statuses.has(status), `no ${status} answer was checked`);
    });
  }

  test('the answer schemas refuse what the kit refuses (the check is not vacuous)', { timeout: TIMEOUT }, () => {
    const validator = new AnswerValidator(merchantApi, 'https://openapi.test/merchant-api-negative.json');
    const invoice = { id: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b', type: 'in', status: 'new', sum: { amount: '1500.00', currency: 'RUB', subunit: 2 }, expireAt: '2026-11-22T10:30:00+0300' };
    const answer = (body: unknown, status = 200): Captured => ({ method: 'GET', path: '/api/merchant/invoices/x', status, contentType: 'application/json', text: JSON.stringify(body) });
    validator.check(answer(invoice));
    validator.check(answer([invoice]));
    validator.check(answer({ ...invoice, storeName: 42, createdAt: 'yesterday', unknownField: true }));
    validator.check(answer(null, 404));
    validator.check(answer([{ message: 'Pay in disabled' }], 404));
    for (const broken of [[invoice, invoice], { ...invoice, sum: { amount: '15,00', currency: 'RUB', subunit: 2 } }, { ...invoice, expireAt: '22.11.2026' }, { ...invoice, id: 'x' }]) {
      assert.throws(() => validator.check(answer(broken)), /does not fit/);
    }
    assert.throws(() => validator.check(answer({ message: 'x' }, 400)), /does not fit/);
  });
});

// ── The proxy ────────────────────────────────────────────────────────────────────────

const driveProxy = async (mock: MockService, answers: Captured[]): Promise<void> => {
  const client = new MerchantClient({ baseUrl: BASE_URL, apiKey: SHOP.apiKey, secretKey: SHOP.secretKey, fetch: mock.fetch });
  const handler = capturing(createCheckoutHandler({ client, authorize: () => true }), answers);
  const proxy = 'https://shop.openapi.test';
  const get = (path: string) => handler(new Request(`${proxy}${path}`));
  const post = (path: string, body?: unknown, contentType = 'application/json') =>
    handler(new Request(`${proxy}${path}`, { method: 'POST', ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': contentType } }) }));
  const upload = (path: string, fields: Record<string, string | Blob>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return handler(new Request(`${proxy}${path}`, { method: 'POST', body: form }));
  };
  const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])], 'receipt.png', { type: 'image/png' });
  const create = (startDeal: boolean) =>
    client.createInvoice({ type: 'in', amount: '2500.00', currency: 'RUB', notificationUrl: 'http://127.0.0.1:9/notify', notificationToken: 'token', startDeal });

  const withDeal = await create(true);
  await get(`/invoices/${withDeal.id}`);
  await get(`/invoices/${withDeal.id}/available-payment-variants`);
  await post(`/invoices/${withDeal.id}/cancel`);
  await get(`/invoices/${withDeal.id}`);

  const plain = await create(false);
  const variantsAnswer = await get(`/invoices/${plain.id}/available-payment-variants`);
  const [variant] = (await variantsAnswer.json()) as { option: string; method: string }[];
  await post(`/invoices/${plain.id}/deal`, { option: variant?.option ?? 'SBP', method: variant?.method ?? 'sberbank' });
  await get(`/invoices/${plain.id}`);
  await upload(`/invoices/${plain.id}/receipt`, { attachment: png() });
  await upload(`/invoices/${plain.id}/dispute`, { reason: 'invalid_sum', amount: '2000.00', attachment: png() });
  // Refused: the invoice's dispute is open already.
  await upload(`/invoices/${plain.id}/dispute`, { reason: 'no_payment', attachment: png() });
  mock.markPaid(plain.id);
  await get(`/invoices/${plain.id}`);
  await get('/banks?currency=RUB');
  await get('/banks?currency=rub');

  // Refusals.
  await get('/invoices/00000000-0000-4000-8000-000000000000');
  await get('/invoices/not-a-uuid');
  await post(`/invoices/${plain.id}/deal`, { option: 'SBP' });
  await post(`/invoices/${plain.id}/deal`, 'option=SBP', 'application/x-www-form-urlencoded');
  await handler(new Request(`${proxy}/invoices/${plain.id}`, { method: 'DELETE' }));
  const noDeal = await create(false);
  await post(`/invoices/${noDeal.id}/cancel`);
  await upload(`/invoices/${noDeal.id}/receipt`, { attachment: new File(['not a picture'], 'receipt.png', { type: 'image/png' }) });
  await upload(`/invoices/${noDeal.id}/receipt`, { attachment: png() });
};

describe('the proxy answers as openapi/checkout.json describes', () => {
  for (const { name, quirks } of modes.slice(0, 3)) {
    test(name, { timeout: TIMEOUT }, async () => {
      const mock = newMock(quirks);
      const answers: Captured[] = [];
      try {
        await driveProxy(mock, answers);
      } finally {
        mock.close();
      }
      const validator = new AnswerValidator(checkout, 'https://openapi.test/checkout.json');
      for (const answer of answers) {
        // A method the protocol does not have (DELETE) is answered 405 on a documented path.
        if (!validator.template(answer.method, answer.path)) {
          assert.equal(answer.status, 405, `${answer.method} ${answer.path}`);
          continue;
        }
        validator.check(answer);
      }
      for (const key of [
        'GET /invoices/{id} 200',
        'GET /invoices/{id}/available-payment-variants 200',
        'POST /invoices/{id}/cancel 200',
        'POST /invoices/{id}/deal 200',
        'POST /invoices/{id}/receipt 200',
        'POST /invoices/{id}/dispute 200',
        'POST /invoices/{id}/dispute 409',
        'POST /invoices/{id}/receipt 415',
        'GET /banks 200',
        'GET /banks 400',
      ]) {
        assert.ok(validator.seen.has(key), `${key} was never checked`);
      }
      assert.ok([...validator.seen].some((key) => / 4\d\d$/.test(key)), 'no error answer was checked');
    });
  }
});
