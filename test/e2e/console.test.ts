/**
 * The console of the journal (issue 40) as the shop's support desk uses it, against a real
 * gateway on SQLite, the mock service on a port and a shop whose webhook endpoint fails until it
 * is back. One table of checks runs in each engine the suite runs: Chromium (playwright-core),
 * Firefox ESR (puppeteer-core over WebDriver BiDi) and WebKit (WebKitGTK's MiniBrowser over
 * WebDriver), each on an invoice of its own that plays the issue's story (a deal, a forged
 * `paid`, a wrong token, the payment and its correction): a wrong key sees only the sign-in
 * form; the invoice, found by its order id, shows each step in order with its verdict; no
 * secret or whole requisite is in the page; a phone's 320 px needs no sideways scrolling
 * (WebKit: its narrowest window, 334 px, see support/engine-page.ts); axe finds nothing serious
 * or critical; "deliver again" says it was delivered, sends the change's webhook with the
 * change's id, and the timeline says so; the page in Russian. Chromium also checks what only
 * its driver shows (the answers' statuses, the CSP header, no console error or CSP violation,
 * fields and buttons by their accessible names, "read from the service now"); the JSON and bad
 * input are checked over HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ENGINES } from '../support/engines.js';
import { axeIn } from './support/axe.js';
import { ConsoleWatch, launchChromium } from './support/browser.js';
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
import { ENGINE_NAMES, WEBKIT_NARROWEST, openEnginePage, type Engine, type EnginePage } from './support/engine-page.js';

let world: ConsoleWorld;
let told: Story;
/** Every story played in the world: none of their tokens or requisites may show anywhere. */
const stories: Story[] = [];
let chromium: Browser;

const play = async () => {
  const played = await story(world);
  stories.push(played);
  return played;
};

/** A phone's width; WebKit's window is as narrow as it can be, {@link WEBKIT_NARROWEST}. */
const PHONE = { width: 320, height: 640 };

/**
 * Each engine's page, opening from the start while the stories are played (the engines' checks
 * wait for their own; one that cannot open fails only its engine's checks).
 */
const opening = new Map<Engine, Promise<EnginePage>>();

/** Closed after, even when the world failed to start beside it (a browser left open keeps the file from ending). */
let launching: Promise<Browser> | undefined;

before(async () => {
  launching = launchChromium();
  launching.catch(() => undefined);
  [world, chromium] = await Promise.all([startConsoleWorld(), launching]);
  for (const engine of ENGINES as Engine[]) {
    const page = openEnginePage(engine, { ...PHONE, chromium });
    page.catch(() => undefined);
    opening.set(engine, page);
  }
  told = await play();
});

after(async () => {
  await Promise.all([...opening.values()].map((page) => page.then((opened) => opened.close()).catch(() => undefined)));
  await launching?.then(
    (browser) => browser.close(),
    () => undefined,
  );
  await world?.close();
});

/** Every secret of the world, and each deal's whole requisites (as shown and as digits). */
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
  ...stories.flatMap((one) => [one.checkoutToken, one.requisites, one.requisites.replace(/\D/g, '')]),
];

const assertNoSecret = (text: string, where: string) => {
  for (const secret of forbidden()) assert.equal(text.includes(secret), false, `${where} shows ${secret}`);
};

/** The timeline as the page lists it: each entry's kind and its details' text, newest first. */
const timelineIn = (page: EnginePage) =>
  page.evaluate(
    () =>
      [...document.querySelectorAll('ol.timeline > li')].map((item) => ({
        kind: item.getAttribute('data-kind'),
        text: item.querySelector('dl')?.textContent ?? '',
      })),
    undefined,
  );

const textIn = (page: EnginePage, selector: string) =>
  page.evaluate((wanted) => document.querySelector(wanted)?.textContent ?? null, selector);

/** The story's steps, oldest first, each with its verdict; what the timeline shows must match each, in this order. */
const STEPS: [kind: string, text: RegExp][] = [
  ['deal_started', /bank.*requisites•••• \d{4}/],
  ['requisites_shown', /•••• \d{4}/],
  ['notification', /tokenaccepted.*verdictrefused: the service shows otherwise.*status paid \(service: new\)/],
  ['notification', /tokenwrong.*verdictrefused.*missing or wrong token/],
  ['change', /kindpaid.*found bynotification.*verifiedyes/],
  ['notification', /verdictverified with the service.*outcomepaid/],
  ['change', /kindamount_corrected.*amount1400\.00 RUB/],
  ['notification', /verdictverified with the service.*outcomeamount_corrected/],
];

interface Visit {
  page: EnginePage;
  told: Story;
}

/**
 * What a user of the console sees, checked the same way in every engine, in this order on one
 * page: each check starts where the one before it left the page.
 */
const CHECKS: { name: string; check: (visit: Visit) => Promise<void> }[] = [
  {
    name: 'a wrong key sees only the sign-in form, saying so; the right one signs in',
    check: async ({ page, told: mine }) => {
      await page.goto(`${world.url}/console/invoices/${mine.invoiceId}?lang=en`);
      assert.equal(await textIn(page, 'ol.timeline'), null, 'nothing of the invoice before the key');
      assert.equal(await textIn(page, '[data-status]'), null);
      await page.type('#key', 'wrong-key-of-the-console-00');
      await page.clickToLoad('form.login button[type=submit]');
      assert.equal(await textIn(page, '[role=alert]'), 'Wrong or missing key.');
      assert.equal(await textIn(page, 'ol.timeline'), null);
      await page.type('#key', CONSOLE_KEY);
      await page.clickToLoad('form.login button[type=submit]');
      assert.notEqual(await textIn(page, 'form.search'), null, 'signed in: the search');
    },
  },
  {
    name: "the invoice, found by its order id, shows the issue's steps in the order they happened, each with its verdict",
    check: async ({ page, told: mine }) => {
      await page.type('#q', mine.orderId);
      await page.clickToLoad('form.search button[type=submit]');
      assert.equal(await textIn(page, 'h1 code'), mine.invoiceId);
      assert.equal(await textIn(page, '[data-status]'), 'paid');
      const oldestFirst = (await timelineIn(page)).reverse();
      assert.equal(oldestFirst[0]?.kind, 'created', 'the oldest at the bottom');
      const steps = STEPS.map(([kind, text]) => oldestFirst.findIndex((entry) => entry.kind === kind && text.test(entry.text)));
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
    },
  },
  {
    name: 'no secret and no whole requisite in the page',
    check: async ({ page, told: mine }) => {
      const html = await page.evaluate(() => document.documentElement.outerHTML, undefined);
      assert.ok(html.includes(mine.invoiceId), 'the invoice page');
      assertNoSecret(html, `the invoice page in ${ENGINE_NAMES[page.engine]}`);
    },
  },
  {
    name: "a phone's 320 px (WebKit: its narrowest window, 334 px) need no sideways scrolling",
    check: async ({ page }) => {
      const [width, scroll] = await page.evaluate(() => [window.innerWidth, document.documentElement.scrollWidth], undefined);
      assert.ok(width <= (page.engine === 'webkit' ? WEBKIT_NARROWEST : PHONE.width), `the viewport is ${width} px wide`);
      assert.ok(scroll <= width, `the page fits ${width} px (${scroll} px wide)`);
    },
  },
  {
    name: 'axe: no serious or critical violation',
    check: async ({ page }) => {
      const axe = await axeIn(page, 'html');
      const serious = axe.violations.filter((one) => one.impact === 'serious' || one.impact === 'critical');
      assert.deepEqual(
        serious.map((one) => `${one.id}: ${one.nodes.map((node) => node.target.join(' ')).join(', ')}`),
        [],
      );
      assert.ok(axe.passes.length > 0, 'axe checked something');
    },
  },
  {
    name: '"deliver again" says it was delivered, the shop gets the change\'s webhook with its id, and the timeline says so',
    check: async ({ page, told: mine }) => {
      world.setShopAnswer(200);
      const earlier = world.received.length;
      const offer = `ol.timeline form[action*="/webhooks/${encodeURIComponent(mine.paid)}/redeliver"] button`;
      await page.clickToLoad(offer);
      assert.match(await page.evaluate(() => location.search, undefined), /done=redelivered/);
      assert.match((await textIn(page, '[role=status]')) ?? '', /Deliver again: ok/);
      const sent = await until('the redelivered webhook', () =>
        world.received.slice(earlier).find((message) => message.headers['webhook-id'] === mine.paid),
      );
      assert.equal((JSON.parse(sent.body) as { data: { id: string } }).data.id, mine.paid);
      await until('the delivery in the journal', async () => {
        const view = await world.gateway.gateway.kit.journal.read(mine.invoiceId);
        return view.entries.some(
          (entry) => entry.kind === 'webhook' && entry.details.change === mine.paid && entry.details.outcome === 'delivered',
        )
          ? true
          : undefined;
      });
      await page.goto(`${world.url}/console/invoices/${mine.invoiceId}?lang=en`);
      const timeline = await timelineIn(page);
      assert.ok(timeline.some((entry) => entry.kind === 'action' && /actiondeliver again.*byconsole/.test(entry.text)));
      assert.equal(await textIn(page, offer), null, 'a delivered change is not offered again');
    },
  },
  {
    name: 'in Russian',
    check: async ({ page, told: mine }) => {
      await page.goto(`${world.url}/console/invoices/${mine.invoiceId}?lang=ru`);
      assert.equal(await textIn(page, 'h2'), 'История, новые сверху');
      assert.match((await timelineIn(page)).map((entry) => entry.text).join('\n'), /отклонено: у сервиса иначе/);
    },
  },
];

for (const engine of ENGINES as Engine[]) {
  describe(`the console in ${ENGINE_NAMES[engine]}`, () => {
    const visit = {} as Visit;
    before(async () => {
      visit.told = await play();
      visit.page = await opening.get(engine)!;
    });
    for (const { name, check } of CHECKS) test(`${ENGINE_NAMES[engine]}: ${name}`, () => check(visit));
  });
}

const signIn = async (page: Page, key: string) => {
  await page.goto(`${world.url}/console?lang=en`);
  await page.getByLabel('Console key').fill(key);
  return Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in' }).click()]);
};

describe('the console in Chromium, what only its driver shows', () => {
  test('the answers are 401 without the key, its CSP allows no script; fields and buttons by their names; no console error or CSP violation', async () => {
    const context = await chromium.newContext({ viewport: PHONE, locale: 'en-GB' });
    const watch = new ConsoleWatch(context);
    const page = await context.newPage();
    try {
      const first = await page.goto(`${world.url}/console/invoices/${told.invoiceId}?lang=en`);
      assert.equal(first?.status(), 401);
      const [wrong] = await signIn(page, 'not-the-console-key-000');
      assert.equal(wrong?.status(), 401);
      await page.getByRole('alert').filter({ hasText: 'Wrong or missing key.' }).waitFor();
      const [right] = await signIn(page, CONSOLE_KEY);
      assert.equal(right?.status(), 200);
      const csp = right.headers()['content-security-policy'] ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      await page.getByLabel('Invoice id or order id').fill(told.invoiceId);
      await Promise.all([page.waitForURL(/\/console\/invoices\//), page.getByRole('button', { name: 'Find' }).click()]);
      assert.equal(await page.locator('h1 code').textContent(), told.invoiceId);
      await page.goto(`${world.url}/console?lang=en`);
      await page.getByRole('heading', { name: 'Webhooks pending' }).waitFor();
      assert.ok((await page.content()).includes(told.paid), 'the failed payment webhook is listed as pending');
      await page.goto(`${world.url}/console/invoices/${told.invoiceId}?lang=en`);
      await Promise.all([page.waitForURL(/done=read/), page.getByRole('button', { name: 'Read from the service now' }).click()]);
      const afterRead = await page.$$eval('ol.timeline > li', (items) =>
        items.map((item) => ({ kind: item.getAttribute('data-kind'), text: item.querySelector('dl')?.textContent ?? '' })),
      );
      assert.equal(afterRead[0]?.kind, 'action', 'the read is the newest entry');
      assert.match(afterRead[0].text, /actionread from the service.*byconsole.*statuspaid/);
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
