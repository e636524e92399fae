/**
 * The console of the journal (issue 40) as the shop's support desk uses it, in Debian's
 * Chromium (playwright-core) and Firefox ESR (puppeteer-core over WebDriver BiDi), against a
 * real gateway on SQLite, the mock service on a port and a shop whose webhook endpoint fails
 * until it is back: the invoice (a deal, a forged `paid`, a wrong token, the payment
 * and its correction) shows each step in order with its verdict; "deliver again" sends the
 * change's webhook with the change's id; a wrong key sees nothing (401) and many get 429, logged;
 * no secret or whole requisite is in the page or the JSON; axe finds nothing serious; a phone's
 * 320 px needs no sideways scrolling.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import * as puppeteer from 'puppeteer-core';
import { FIREFOX_PATH } from '../support/engines.js';
import { ConsoleWatch, launchChromium } from './support/browser.js';
import { runAxe } from './support/axe.js';
import {
  BEARER,
  CONSOLE_KEY,
  GATEWAY_SECRET,
  MERCHANT,
  NOTIFICATION_TOKEN,
  WEBHOOK_SECRET,
  api,
  startConsoleWorld,
  story,
  until,
  type ConsoleWorld,
  type Story,
} from './support/console-world.js';

let world: ConsoleWorld;
let told: Story;
let chromium: Browser;

before(async () => {
  [world, chromium] = await Promise.all([startConsoleWorld(), launchChromium()]);
  told = await story(world);
});

after(async () => {
  await chromium?.close();
  await world?.close();
});

/** Every secret of the world, and the deal's whole requisites (as shown and as digits). */
const forbidden = () => [
  CONSOLE_KEY,
  BEARER,
  GATEWAY_SECRET,
  NOTIFICATION_TOKEN,
  'a-guessed-token',
  MERCHANT.apiKey,
  MERCHANT.secretKey,
  WEBHOOK_SECRET,
  WEBHOOK_SECRET.slice('whsec_'.length),
  told.checkoutToken,
  told.requisites,
  told.requisites.replace(/\D/g, ''),
];

const assertNoSecret = (text: string, where: string) => {
  for (const secret of forbidden()) assert.equal(text.includes(secret), false, `${where} shows ${secret}`);
};

/** The timeline as the page lists it: each entry's kind and its details' text, newest first. */
const timelineOf = (page: Page) =>
  page.$$eval('ol.timeline > li', (items) =>
    items.map((item) => ({ kind: item.getAttribute('data-kind'), text: item.querySelector('dl')?.textContent ?? '' })),
  );

const signIn = async (page: Page, key: string) => {
  await page.goto(`${world.url}/console?lang=en`);
  await page.getByLabel('Console key').fill(key);
  return Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in' }).click()]);
};

describe('the console in Chromium', () => {
  test('a wrong key sees nothing and gets 401; the right one finds the invoice by its order id', async () => {
    const context = await chromium.newContext({ viewport: { width: 320, height: 640 }, locale: 'en-GB' });
    const watch = new ConsoleWatch(context);
    const page = await context.newPage();
    try {
      const first = await page.goto(`${world.url}/console/invoices/${told.invoiceId}?lang=en`);
      assert.equal(first?.status(), 401);
      assert.equal(await page.locator('ol.timeline').count(), 0, 'nothing of the invoice before the key');
      assert.ok(!(await page.content()).includes(told.invoiceId.slice(0, 8)) || (await page.locator('code').count()) === 0);
      const [wrong] = await signIn(page, 'not-the-console-key-000');
      assert.equal(wrong?.status(), 401);
      await page.getByRole('alert').filter({ hasText: 'Wrong or missing key.' }).waitFor();
      const [right] = await signIn(page, CONSOLE_KEY);
      assert.equal(right?.status(), 200);
      const csp = right.headers()['content-security-policy'] ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      await page.getByLabel('Invoice id or order id').fill(told.orderId);
      await Promise.all([page.waitForURL(/\/console\/invoices\//), page.getByRole('button', { name: 'Find' }).click()]);
      assert.equal(await page.locator('h1 code').textContent(), told.invoiceId);
      assert.equal(await page.locator('[data-status]').textContent(), 'paid');

      const timeline = await timelineOf(page);
      const oldestFirst = [...timeline].reverse();
      const kinds = oldestFirst.map((entry) => entry.kind);
      assert.deepEqual(kinds.slice(0, 1), ['created']);
      const at = (kind: string, text: RegExp) => oldestFirst.findIndex((entry) => entry.kind === kind && text.test(entry.text));
      const steps = [
        at('deal_started', /bank.*requisites•••• \d{4}/),
        at('requisites_shown', /•••• \d{4}/),
        at('notification', /tokenaccepted.*verdictrefused: the service shows otherwise.*status paid \(service: new\)/),
        at('notification', /tokenwrong.*verdictrefused.*missing or wrong token/),
        at('change', /kindpaid.*found bynotification.*verifiedyes/),
        at('notification', /verdictverified with the service.*outcomepaid/),
        at('change', /kindamount_corrected.*amount1400\.00 RUB/),
        at('notification', /verdictverified with the service.*outcomeamount_corrected/),
      ];
      assert.ok(
        steps.every((index) => index > 0),
        `every step is shown: ${JSON.stringify(steps)}\n${JSON.stringify(oldestFirst, null, 1)}`,
      );
      assert.deepEqual(
        [...steps].sort((a, b) => a - b),
        steps,
        'in the order they happened',
      );
      assert.ok(oldestFirst.some((entry) => entry.kind === 'webhook' && /HTTP status500.*will retry.*next try/.test(entry.text)));
      assertNoSecret(await page.content(), 'the invoice page');

      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scroll <= 320, `the page fits a 320 px phone (${scroll} px wide)`);
      const axe = await runAxe(page, 'html');
      const serious = axe.violations.filter((one) => one.impact === 'serious' || one.impact === 'critical');
      assert.deepEqual(
        serious.map((one) => `${one.id}: ${one.nodes.map((node) => node.target.join(' ')).join(', ')}`),
        [],
      );
      // The 401s of the wrong key are what Chromium reports as failed loads; anything else is a problem.
      assert.deepEqual(
        watch.take().filter((problem) => !/status of 401 \(Unauthorized\)/.test(problem.text)),
        [],
        'no console error, no CSP violation',
      );
    } finally {
      await context.close();
    }
  });

  test('"deliver again" sends the change\'s webhook with the change\'s id, and the journal says so', async () => {
    const context = await chromium.newContext({ viewport: { width: 1024, height: 900 } });
    const page = await context.newPage();
    try {
      await signIn(page, CONSOLE_KEY);
      await page.goto(`${world.url}/console?lang=en`);
      await page.getByRole('heading', { name: 'Webhooks pending' }).waitFor();
      assert.ok((await page.content()).includes(told.paid), 'the failed payment webhook is listed as pending');
      world.setShopAnswer(200);
      const before = world.received.length;
      await page.goto(`${world.url}/console/invoices/${told.invoiceId}?lang=en`);
      const paidEntry = page
        .locator('ol.timeline > li[data-kind="change"]', { hasText: 'paid' })
        .filter({ hasNotText: 'amount_corrected' });
      await Promise.all([page.waitForURL(/done=redelivered/), paidEntry.getByRole('button', { name: /Deliver again/ }).click()]);
      await page.getByRole('status').filter({ hasText: 'Deliver again: ok' }).waitFor();
      const sent = await until('the redelivered webhook', () =>
        world.received.slice(before).find((message) => message.headers['webhook-id'] === told.paid),
      );
      assert.equal((JSON.parse(sent.body) as { data: { id: string } }).data.id, told.paid);
      await world.gateway.gateway.kit.journal.idle();
      await until('the delivery in the journal', async () => {
        const view = await world.gateway.gateway.kit.journal.read(told.invoiceId);
        return view.entries.some(
          (entry) => entry.kind === 'webhook' && entry.details.change === told.paid && entry.details.outcome === 'delivered',
        )
          ? true
          : undefined;
      });
      await page.reload();
      const timeline = await timelineOf(page);
      assert.ok(timeline.some((entry) => entry.kind === 'action' && /actiondeliver again.*byconsole/.test(entry.text)));
      await Promise.all([page.waitForURL(/done=read/), page.getByRole('button', { name: 'Read from the service now' }).click()]);
      const afterRead = await timelineOf(page);
      assert.equal(afterRead[0]?.kind, 'action', 'the read is the newest entry');
      assert.match(afterRead[0].text, /actionread from the service.*byconsole.*statuspaid/);
      await page.goto(`${world.url}/console/invoices/${told.invoiceId}?lang=ru`);
      await page.getByRole('heading', { name: 'История, новые сверху' }).waitFor();
      assert.ok((await page.content()).includes('отклонено: у сервиса иначе'));
    } finally {
      await context.close();
    }
  });
});

describe('the console and its JSON, bad input', () => {
  test('the same as JSON on /v1, no secret in it; unknown, malformed and huge ids answered clearly', async () => {
    const answer = await api(world, `/v1/invoices/${told.invoiceId}/journal`);
    assert.equal(answer.status, 200);
    const text = await answer.text();
    assertNoSecret(text, 'the JSON');
    const view = JSON.parse(text) as { invoiceId: string; entries: { kind: string; details: Record<string, unknown> }[] };
    assert.equal(view.invoiceId, told.invoiceId);
    assert.equal(view.entries.at(-1)?.kind, 'created');
    const byOrder = (await (await api(world, `/v1/orders/${told.orderId}/journal`)).json()) as { invoices: { invoiceId: string }[] };
    assert.deepEqual(
      byOrder.invoices.map((one) => one.invoiceId),
      [told.invoiceId],
    );
    assert.equal((await api(world, `/v1/invoices/${crypto.randomUUID()}/journal`)).status, 404);
    assert.equal((await api(world, '/v1/invoices/not-an-id/journal')).status, 400);
    assert.equal((await api(world, `/v1/orders/${'x'.repeat(5000)}/journal`)).status, 400);
    assert.equal(
      (await fetch(`${world.url}/v1/invoices/${told.invoiceId}/journal`, { headers: { authorization: `Bearer ${CONSOLE_KEY}` } })).status,
      401,
    );

    const session = await fetch(`${world.url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.7' },
      body: `key=${CONSOLE_KEY}`,
      redirect: 'manual',
    });
    assert.equal(session.status, 303);
    const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
    const search = (query: string) =>
      fetch(`${world.url}/console?lang=en&q=${encodeURIComponent(query)}`, { headers: { cookie }, redirect: 'manual' });
    const unknown = await search(crypto.randomUUID());
    assert.equal(unknown.status, 404);
    assert.match(await unknown.text(), /Nothing is known of/);
    const malformed = await search('<script>alert(1)</script>');
    assert.equal(malformed.status, 400);
    const malformedText = await malformed.text();
    assert.match(malformedText, /not an invoice id or an order id/);
    assert.doesNotMatch(malformedText, /<script>alert/);
    const huge = await search('y'.repeat(8000));
    assert.equal(huge.status, 400);
    assert.equal((await search(told.invoiceId)).status, 303);
    const json = await fetch(`${world.url}/console/api/invoices/${told.invoiceId}/journal`, {
      headers: { authorization: `Bearer ${CONSOLE_KEY}` },
    });
    assert.equal(json.status, 200);
  });

  test('a console key guessed wrong many times: 401 each, then 429 for that client, logged; another client still signs in', async () => {
    const guess = (n: number, client: string) =>
      fetch(`${world.url}/console/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
        body: `key=guess-${n}`,
        redirect: 'manual',
      });
    const statuses: number[] = [];
    for (let n = 0; n < 7; n++) statuses.push((await guess(n, '203.0.113.9')).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429]);
    const held = await fetch(`${world.url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.9' },
      body: `key=${CONSOLE_KEY}`,
      redirect: 'manual',
    });
    assert.equal(held.status, 429, 'held off even with the right key until the window ends');
    assert.ok(Number(held.headers.get('retry-after')) > 0);
    const other = await fetch(`${world.url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '192.0.2.44' },
      body: `key=${CONSOLE_KEY}`,
      redirect: 'manual',
    });
    assert.equal(other.status, 303);
    const refusals = world.logLines.filter((line) => line.includes('"console key refused"') && line.includes('203.0.113.9'));
    assert.equal(refusals.length, 8);
    assert.ok(refusals.at(-1)!.includes('"locked":true'));
    assertNoSecret(world.logLines.join('\n'), 'the log');
  });
});

describe('the console in Firefox', () => {
  test('signs in, finds the invoice by its id, shows its steps newest first, in Russian too, within 320 px; a wrong key gets 401', async () => {
    const firefox = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true });
    try {
      const page = await firefox.newPage();
      await page.setViewport({ width: 320, height: 640 });
      const denied = await page.goto(`${world.url}/console?lang=en`);
      assert.equal(denied?.status(), 401);
      await page.type('#key', 'wrong-key-in-firefox-0000');
      const [wrong] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
      assert.equal(wrong?.status(), 401);
      assert.equal(await page.$('ol.timeline'), null);
      await page.type('#key', CONSOLE_KEY);
      await Promise.all([page.waitForNavigation(), page.click('form.login button[type=submit]')]);
      await page.type('#q', told.invoiceId);
      await Promise.all([page.waitForNavigation(), page.click('form.search button[type=submit]')]);
      const kinds = await page.$$eval('ol.timeline > li', (items) => items.map((item) => item.getAttribute('data-kind')));
      assert.equal(kinds.at(-1), 'created', 'the oldest at the bottom');
      assert.ok(kinds.includes('notification') && kinds.includes('change') && kinds.includes('webhook'));
      const text = await page.content();
      assert.match(text, /refused: the service shows otherwise/);
      assertNoSecret(text, 'the page in Firefox');
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 320);
      await page.goto(`${world.url}/console/invoices/${told.invoiceId}?lang=ru`);
      assert.equal(await page.$eval('h2', (heading) => heading.textContent), 'История, новые сверху');
      assert.match(await page.content(), /подтверждено сервисом/);
    } finally {
      await firefox.close();
    }
  });
});
