/**
 * The mock driven the way the service's documentation tells an integrator to drive the
 * service: plain HTTP requests signed by hand (HMAC-SHA1 over METHOD + URL + JSON body, in
 * Base64), no client of this project, and notifications received by a plain node:http server.
 * Only the mock itself is started through the package, so the mock cannot merely agree with
 * our own client.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { startMockServer, type MockServer } from '../../src/mock/index.js';

const API_KEY = 'doc-api-key';
const SECRET = 'doc-secret';

// From the documentation: stringToSign = method + url + bodyContent; base64(hmac_sha1(secret)).
const calculateSignature = (method: string, url: string, bodyContent: string, secret: string): string =>
  createHmac('sha1', secret)
    .update(method + url + bodyContent)
    .digest('base64');

let mock: MockServer;
let base: string;
let receiver: ReturnType<typeof createServer>;
let notifyUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

before(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  notifyUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
  mock = await startMockServer({ merchants: [{ apiKey: API_KEY, secretKey: SECRET, storeId: 1, storeName: 'Demo Test' }], port: 0 });
  base = mock.url;
});

after(async () => {
  await mock.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const json = async (response: Response): Promise<{ status: number; body: unknown }> => ({
  status: response.status,
  body: JSON.parse(await response.text()) as unknown,
});

const merchantJson = async (method: 'GET' | 'POST', path: string, body?: object) => {
  const url = `${base}/api/merchant${path}`;
  const text = body === undefined ? '' : JSON.stringify(body);
  const headers: Record<string, string> = { 'X-Identity': API_KEY, 'X-Signature': calculateSignature(method, url, text, SECRET) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return json(await fetch(url, { method, headers, ...(body === undefined ? {} : { body: text }) }));
};

// "Для типа контента multipart/form-data строка для подписи создается путем конкатенации только метода запроса и URL запроса."
const merchantMultipart = async (path: string, fields: Record<string, string | Blob>) => {
  const url = `${base}/api/merchant${path}`;
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, 'check.png');
  }
  return json(
    await fetch(url, {
      method: 'POST',
      headers: { 'X-Identity': API_KEY, 'X-Signature': calculateSignature('POST', url, '', SECRET) },
      body: form,
    }),
  );
};

type Deal = {
  id: string;
  status: string;
  paymentMethod: string;
  paymentOption: string;
  requisites: { requisites: string; holder: string };
  disputeReason: string | null;
  disputeReasonData: unknown;
  isActive: boolean;
};
type Invoice = {
  id: string;
  internalId: string;
  status: string;
  sum: { amount: string; currency: string; subunit: number };
  deals: Deal[];
};

test('create → variants → start-deal → confirm-transfer → dispute, with a notification, as documented', async () => {
  const created = await merchantJson('POST', '/invoices', {
    type: 'in',
    amount: '1000',
    currency: 'RUB',
    notificationUrl: notifyUrl,
    notificationToken: 'merchant_notification_token',
    internalId: '00001',
    userId: 'uid-1',
    paymentOption: null,
    paymentMethod: null,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const invoice = created.body as Invoice;
  assert.deepEqual([invoice.status, invoice.sum, invoice.deals], ['new', { amount: '1000.00', currency: 'RUB', subunit: 2 }, []]);

  const variants = await merchantJson('GET', `/invoices/${invoice.id}/available-payment-variants`);
  const list = variants.body as { option: string; method: string }[];
  assert.ok(list.length > 0 && list.every((v) => Object.keys(v).join() === 'option,method'));
  // The hosted page's own call: only X-Identity.
  const hosted = await json(
    await fetch(`${base}/api/public/invoices/${invoice.id}/available-payment-variants`, { headers: { 'X-Identity': API_KEY } }),
  );
  assert.deepEqual(hosted.body, list);

  const choice = list.find((v) => v.option === 'TO_CARD') ?? list[0]!;
  const started = await merchantJson('POST', `/invoices/${invoice.id}/start-deal`, {
    paymentMethod: choice.method,
    paymentOption: choice.option,
  });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const deal = (started.body as Invoice).deals[0]!;
  assert.equal((started.body as Invoice).deals.length, 1, 'documented: success is deals with 1 element');
  assert.deepEqual(
    [deal.status, deal.isActive, deal.paymentMethod, deal.paymentOption],
    ['transfer_waiting', true, choice.method, choice.option],
  );
  assert.ok(deal.requisites.requisites && deal.requisites.holder);

  const confirmed = await merchantMultipart(`/invoices/${invoice.id}/confirm-transfer`, {
    attachment: new Blob(['\x89PNG receipt'], { type: 'image/png' }),
  });
  assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
  assert.equal((confirmed.body as Invoice).deals[0]?.status, 'transfer_confirmed');

  const disputed = await merchantMultipart(`/invoices/${invoice.id}/dispute`, {
    dealId: deal.id,
    attachment: new Blob(['\x89PNG receipt'], { type: 'image/png' }),
    'disputeReasonData[amount]': '210',
    disputeReason: 'invalid_sum',
  });
  assert.equal(disputed.status, 200, JSON.stringify(disputed.body));
  const after = disputed.body as Invoice;
  assert.equal(after.status, 'dispute');
  assert.deepEqual(
    [after.deals[0]?.status, after.deals[0]?.disputeReason, after.deals[0]?.disputeReasonData],
    ['dispute', 'invalid_sum', { amount: '210' }],
  );

  for (const path of [`/invoices/${invoice.id}`, '/invoices/internal-id/00001']) {
    const found = await merchantJson('GET', path);
    assert.equal((found.body as Invoice).status, 'dispute', path);
  }

  const deadline = Date.now() + 5_000;
  while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(received.length, 1, 'the status change to dispute was notified');
  const [notification] = received;
  assert.equal(notification?.headers['x-notification-token'], 'merchant_notification_token');
  const body = JSON.parse(notification.body) as {
    notificationType: string;
    notificationDate: string;
    invoice: { id: string; status: string; deal: { id: string; status: string } };
  };
  assert.equal(body.notificationType, 'invoice');
  assert.match(body.notificationDate, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
  assert.deepEqual(
    [body.invoice.id, body.invoice.status, body.invoice.deal.id, body.invoice.deal.status],
    [invoice.id, 'dispute', deal.id, 'dispute'],
  );
});

test('the lists, the QR code and the errors, as documented', async () => {
  const methods = await merchantJson('GET', '/payment-methods');
  assert.ok(
    (methods.body as { code: string; name: string; currency: string }[]).some(
      (m) => m.code === 'sberbank' && m.name === 'Сбербанк' && m.currency === 'RUB',
    ),
  );
  const publicMethods = await json(await fetch(`${base}/api/public/payment-methods/RUB`));
  assert.ok((publicMethods.body as { code: string; name: string }[]).some((m) => m.code === 'alfabank' && m.name === 'Альфа-Банк'));
  const options = await merchantJson('GET', '/payment-options');
  assert.ok((options.body as { code: string }[]).some((o) => o.code === 'SBP'));
  const rates = await merchantJson('GET', '/currency-rates/current');
  assert.deepEqual(Object.keys(rates.body as object), ['in', 'out']);

  const created = await merchantJson('POST', '/invoices', {
    type: 'in',
    amount: '1500',
    currency: 'RUB',
    notificationUrl: notifyUrl,
    notificationToken: 't',
    startDeal: true,
  });
  const svg = await fetch(`${base}/api/public/invoices/${(created.body as Invoice).id}/qr-code`);
  assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
  assert.match(await svg.text(), /<svg/);

  assert.deepEqual(
    await merchantJson('POST', '/invoices', { type: 'in', currency: 'RUB', notificationUrl: notifyUrl, notificationToken: 't' }),
    {
      status: 400,
      body: [{ message: 'this value should not be blank. field: "amount"' }],
    },
  );
  assert.deepEqual(
    (
      await merchantJson('POST', '/invoices', {
        type: 'in',
        amount: '999',
        currency: 'RUB',
        notificationUrl: notifyUrl,
        notificationToken: 't',
      })
    ).body,
    [{ message: 'Invoice amount should be not less than 1000.00' }],
  );
  const unsigned = await json(await fetch(`${base}/api/merchant/accounts`, { headers: { 'X-Identity': API_KEY, 'X-Signature': 'AAAA' } }));
  assert.equal(unsigned.status, 401);
  assert.equal((await merchantJson('GET', '/invoices/00000000-0000-4000-8000-000000000000')).status, 404);
});
