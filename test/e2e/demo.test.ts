/**
 * `npm run demo` end to end: the demo server (Vite, the signing proxy and the mock service in
 * this process, as demo/server/main.ts starts them) on a free port, driven in Debian's
 * Chromium. Walks what QA and a merchant developer do with it, with no console error anywhere.
 * Inside the element, blocks are found by their `part` names (CSS pierces open shadow roots).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDemoServer, type DemoServer } from '../../demo/server/demo-server.js';
import { mockQuirks } from '../support/quirks.js';
import { SCENARIO_SCREEN, SCENARIOS, TRANSFER_CONFIRMED, UNKNOWN_STATUS } from '../../demo/shared/scenarios.js';
import { ConsoleWatch, launchChromium } from './support/browser.js';

const DOCS = new URL('../../docs/', import.meta.url);
/** The screenshots of docs/demo.md are rewritten only on request (they change with every run: times, requisites). */
const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';

let server: DemoServer;
let browser: Browser;
let context: BrowserContext;
let watch: ConsoleWatch;
let page: Page;
let cacheDir: string;

const url = (path: string) => new URL(path, server.url).href;
const base = (p: Page = page) => p.locator('merchant-checkout [part~="base"]');
const screen = (name: string, p: Page = page) => p.locator(`merchant-checkout [part~="base"][data-screen="${name}"]`);
const part = (name: string, p: Page = page) => p.locator(`merchant-checkout [part~="${name}"]`);
const loggedEvent = (name: string, p: Page = page) => p.locator(`#event-log li[data-event="${name}"]`);

before(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'merchant-checkout-demo-vite-'));
  [server, browser] = await Promise.all([
    startDemoServer({ port: 0, host: '127.0.0.1', cacheDir, logLevel: 'warn', watch: false, ...mockQuirks() }),
    launchChromium(),
  ]);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  context.setDefaultTimeout(10_000);
  watch = new ConsoleWatch(context);
  page = await context.newPage();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

/**
 * Takes the console's errors so far and checks that each is Chromium's line for an expected
 * refusal: a 4xx of a URL matching `urls` (ConsoleWatch lets only expected 5xx through).
 */
const takeExpectedRefusals = (urls: RegExp, status: number) => {
  const problems = watch.take();
  const unexpected = problems.filter(
    (problem) =>
      !(
        problem.kind === 'console.error' &&
        problem.text.startsWith(`Failed to load resource: the server responded with a status of ${status}`) &&
        urls.test(problem.url)
      ),
  );
  assert.deepEqual(unexpected, [], `only the expected ${status} answers of ${urls} reached the console`);
};

afterEach(() => {
  assert.deepEqual(watch.take(), [], 'no console error and no uncaught error on any page');
});

test('npm run demo starts in one process, prints its URL, serves the page and stops on Ctrl-C', async () => {
  // What `npm run demo` runs (tsx demo/server/main.ts), without npm in between, on a free port.
  const child = spawn(process.execPath, ['--import', 'tsx', 'demo/server/main.ts'], {
    cwd: new URL('../../', import.meta.url),
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    let output = '';
    const printed = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        const found = /merchant-checkout demo\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
        if (found?.[1]) resolve(found[1]);
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      void exited.then((code) => reject(new Error(`the demo exited (${code}) before printing its URL:\n${output}`)));
    });
    const home = await fetch(printed);
    assert.equal(home.status, 200);
    assert.match(await home.text(), /<div id="app">/);
    const orders = await fetch(new URL('demo-api/orders', printed));
    assert.deepEqual(await orders.json(), { orders: [] });
    const reference = (await (await fetch(new URL('demo-api/reference', printed))).json()) as { methods: { code: string; name: string }[] };
    assert.ok(
      reference.methods.some((method) => method.code === 'sberbank' && method.name === 'Сбербанк'),
      'the banks come from the service’s payment-methods list, with its codes and names',
    );
  } finally {
    child.kill('SIGINT');
  }
  const stuck = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const code = await exited;
  clearTimeout(stuck);
  assert.equal(code, 0, 'Ctrl-C stops it cleanly');
});

test('the checkout proxy serves only invoices the demo shop created, and the server code is not served', async () => {
  const order = (await (await fetch(url('/demo-api/scenarios/waiting'), { method: 'POST' })).json()) as { order: { invoiceId: string } };
  const own = await fetch(url(`/checkout-api/invoices/${order.order.invoiceId}`));
  assert.equal(own.status, 200);
  assert.equal(((await own.json()) as { id: string }).id, order.order.invoiceId);
  const foreign = await fetch(url(`/checkout-api/invoices/${randomUUID()}`));
  assert.equal(foreign.status, 404);
  assert.equal(((await foreign.json()) as { error: { code: string } }).error.code, 'not_found');
  assert.equal((await fetch(url('/server/backend.ts'))).status, 404);
});

test('a waiting invoice paid through the mock control is pushed to the checkout: the log says "push"', async () => {
  await page.goto(url('/?scenario=waiting&lang=en'));
  await screen('waiting').waitFor();
  await page.locator('#mock-controls [data-action="paid"]').click();
  await screen('paid').waitFor();
  const status = loggedEvent('checkout-status').filter({ hasText: 'new → paid' });
  await status.waitFor();
  assert.equal(await status.locator('.event-source').getAttribute('data-source'), 'push');
  assert.equal((await status.locator('.event-source').textContent())?.trim(), 'push');
});

test('a waiting invoice shows the requisites and the QR code, and cancels after a confirmation', async () => {
  await page.goto(url('/?scenario=waiting'));
  await screen('waiting').waitFor();
  assert.match(await part('amount').innerText(), /₽1,500\.00/);
  assert.match(await part('requisites').innerText(), /\+7 \(9\d\d\) \d{3}-\d{2}-\d{2}/, 'an SBP phone number, grouped');
  assert.notEqual((await part('holder').innerText()).trim(), '');
  assert.ok((await part('qr').locator('svg path, svg rect').count()) > 0, 'the QR code is drawn as SVG');
  await loggedEvent('checkout-ready').waitFor();

  await part('cancel-button').click();
  await part('confirm-button').waitFor();
  assert.equal(await base().getAttribute('data-screen'), 'waiting', 'nothing is canceled before the confirmation');
  await part('confirm-button').click();
  await screen('canceled').waitFor();
  await loggedEvent('checkout-canceled').waitFor();
  // The shop learns it from the service's notification, not from the browser.
  await page.locator('#order-summary .pill', { hasText: 'canceled' }).waitFor();
});

test('an invoice created from the form, paid through the mock control, shows the paid screen', async () => {
  await page.goto(url('/?lang=en'));
  let loads = 0;
  const countLoad = () => loads++;
  page.on('load', countLoad);
  const form = page.locator('#create-form');
  await form.locator('[name="amount"]').fill('12,50');
  await form.getByRole('button', { name: 'Create invoice' }).click();
  await form.getByRole('alert').filter({ hasText: 'amount' }).waitFor();
  assert.equal(await form.locator('[name="amount"]').getAttribute('aria-invalid'), 'true');

  // Below the documented minimum: the service's own words and the client's stable code.
  await form.locator('[name="amount"]').fill('999.99');
  await form.getByRole('button', { name: 'Create invoice' }).click();
  const refusal = form.getByRole('alert').filter({ hasText: 'Invoice amount should be not less than 1000.00' });
  await refusal.waitFor();
  assert.equal(await refusal.getAttribute('data-code'), 'amount_too_small');
  assert.match(await refusal.innerText(), /The payment service refused:/);
  assert.equal(await form.locator('[name="amount"]').getAttribute('aria-invalid'), 'true');
  takeExpectedRefusals(/\/demo-api\/orders$/, 400);

  // The documented extras are there for QA, behind a disclosure; maxAmount is checked like the amount.
  await form.getByText('Advanced: documented extra fields').click();
  await form.getByLabel('Maximum amount').fill('2750.50');
  await form.getByLabel('Success URL').fill('https://shop.example/paid');

  await form.locator('[name="amount"]').fill('2750.50');
  await form.locator('[name="paymentMethod"]').selectOption('tinkoff');
  await form.locator('[name="paymentOption"]').selectOption('TO_CARD');
  await form.getByRole('button', { name: 'Create invoice' }).click();
  const created = page.locator('#orders button[aria-pressed="true"]');
  await created.filter({ hasText: '₽2,750.50' }).waitFor();
  await screen('waiting').waitFor();
  assert.match(await part('requisites').innerText(), /(^|\n)2200 70\d\d \d{4} \d{4}(\n|$)/, 'a card number in groups of four');
  assert.match(await part('bank').innerText(), /Т-Банк/);
  assert.match(await part('amount').innerText(), /₽2,750\.50/);

  await page.locator('#mock-controls [data-action="paid"]').click();
  await screen('paid').waitFor();
  // The shop's notification was delivered on the first attempt.
  await page.locator('#notifications li[data-state="delivered"]', { hasText: 'new → paid' }).waitFor();
  page.off('load', countLoad);
  assert.equal(loads, 0, 'the page was never reloaded');
  await page.locator('#event-log li[data-event="checkout-status"]', { hasText: 'new → paid' }).waitFor();
  await created.locator('.pill', { hasText: 'paid' }).waitFor();
});

test('every QA scenario link reaches its state', async () => {
  await page.goto(url('/?lang=en&theme=light'));
  for (const scenario of SCENARIOS) {
    const expected = SCENARIO_SCREEN[scenario];
    if (scenario === 'error') watch.expectFailedResources(/\/checkout-api\//);
    // A new document each time, so the previous scenario's screen cannot pass for this one.
    await Promise.all([page.waitForEvent('load'), page.locator(`#scenarios a[data-scenario="${scenario}"]`).click()]);
    await screen(expected).waitFor();
    switch (scenario) {
      case 'no-deal':
        // The picker starts a deal through the proxy's startDeal hook.
        await part('variant').first().click();
        await screen('waiting').waitFor();
        await loggedEvent('checkout-variant-select').waitFor();
        break;
      case 'no-requisites':
        // The proxy answers 409 no_requisites; the picker stays with the element's notice.
        await part('variant').first().click();
        await part('notice').filter({ hasText: 'This bank has no free requisites right now' }).waitFor();
        assert.equal(await base().getAttribute('data-screen'), 'picker', 'the payer can still pick');
        assert.ok(await page.locator('#mock-controls [data-switch="noRequisites"]').isChecked(), 'the switch shows it');
        takeExpectedRefusals(/\/checkout-api\/invoices\/[^/]+\/deal$/, 409);
        break;
      case 'transfer-confirmed':
        await part('receipt-status').filter({ hasText: 'Receipt received' }).waitFor();
        await page.locator(`#orders button[aria-pressed="true"] [data-deal-status="${TRANSFER_CONFIRMED}"]`).waitFor();
        await page.locator('#order-deal-status', { hasText: TRANSFER_CONFIRMED }).waitFor();
        break;
      case 'unique-amount':
        assert.match(await part('amount').innerText(), /Send exactly this amount[\s\S]*1,500\.00/);
        assert.doesNotMatch(await part('amount').locator('.value').innerText(), /1,500\.00/, "the amount to send is the service's");
        break;
      case 'corrected':
        assert.match(await part('amount').innerText(), /5,004\.50[\s\S]*settled[\s\S]*5,000\.00/);
        break;
      case 'dispute':
        assert.match(await part('status').innerText(), /under review/);
        await page.locator('#order-summary .pill', { hasText: 'dispute' }).waitFor();
        // The service decides the dispute; the element follows without a reload.
        await page.locator('#mock-controls [data-action="resolve-paid"]').click();
        await screen('paid').waitFor();
        break;
      case 'other':
        assert.match(await part('status').innerText(), new RegExp(UNKNOWN_STATUS));
        break;
      case 'payout':
        assert.equal(await part('requisites').count(), 0, 'a pay-out asks the receiver for nothing');
        break;
      case 'error':
        await part('retry-button').click();
        await screen('waiting').waitFor();
        watch.expectFailedResources(undefined);
        break;
      case 'slow':
        await screen('waiting', page).waitFor({ timeout: 15_000 });
        break;
      default:
        break;
    }
  }

  // Notifications the shop's receiver refused are retried on the service's clock, 60 s apart.
  await page.goto(url('/?scenario=waiting&lang=en'));
  await screen('waiting').waitFor();
  await page.getByLabel(/Shop’s notification receiver is down/).check();
  await page.locator('#mock-notice', { hasText: 'now answers 500' }).waitFor();
  await page.locator('#mock-controls [data-action="paid"]').click();
  const notification = page.locator('#notifications li', { hasText: 'new → paid' });
  await notification.filter({ hasText: '1 attempt (HTTP 500)' }).waitFor();
  // The proxy's event stream hears of the payment through the notification (or its refresh a
  // minute later): while the receiver is down the checkout still says waiting.
  assert.equal(await base().getAttribute('data-screen'), 'waiting');
  await page.getByLabel(/Shop’s notification receiver is down/).uncheck();
  await page.getByRole('button', { name: 'Advance the clock 60 s' }).click();
  await notification.filter({ hasText: 'delivered' }).filter({ hasText: '2 attempts (HTTP 500, 200)' }).waitFor();
  await screen('paid').waitFor();
  await page.locator('#order-summary .pill', { hasText: 'paid' }).waitFor();

  // The shop's server down for three minutes of the service's clock: the documented retries run
  // out and the paid notification is lost for good (what reconciliation is there to find).
  await page.goto(url('/?scenario=waiting&lang=en'));
  await screen('waiting').waitFor();
  await page.getByRole('button', { name: 'Shop’s server down for 3 min' }).click();
  await page.locator('#mock-notice', { hasText: 'does not answer until' }).waitFor();
  await page.locator('#mock-controls [data-action="paid"]').click();
  const lost = page.locator('#notifications li', { hasText: 'new → paid' });
  await lost.filter({ hasText: '1 attempt (HTTP —)' }).waitFor();
  for (const attempts of ['2 attempts (HTTP —, —)', '3 attempts (HTTP —, —, —)']) {
    await page.getByRole('button', { name: 'Advance the clock 60 s' }).click();
    await lost.filter({ hasText: attempts }).waitFor();
  }
  await lost.filter({ hasText: 'failed for good' }).waitFor();

  // An hour on the service's clock expires a waiting invoice.
  await page.goto(url('/?scenario=waiting&lang=en'));
  await screen('waiting').waitFor();
  await page.getByRole('button', { name: 'Advance the clock 1 h' }).click();
  await screen('expired').waitFor();

  // The reference panel lists the service's banks and rates.
  await page.locator('#bank-list li[data-code="tinkoff"]', { hasText: 'Т-Банк' }).waitFor();
  assert.match(await page.locator('#rates [data-side="in"]').innerText(), /\d/);

  await page.goto(url('/?scenario=paid&lang=ru&theme=dark'));
  await screen('paid').waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'ru');
  assert.equal(await page.locator('merchant-checkout').getAttribute('theme'), 'dark');
  assert.equal((await part('title').innerText()).trim(), 'Платёж получен');
});

for (const framework of ['React', 'Vue'] as const) {
  test(`the ${framework} page shows the checkout and keeps its events in ${framework} state`, async () => {
    const other = await context.newPage();
    let loads = 0;
    other.on('load', () => loads++);
    try {
      await other.goto(url(`/${framework.toLowerCase()}/`));
      await screen('waiting', other).waitFor();
      await loggedEvent('checkout-ready', other).waitFor();
      await other.locator('#status-line', { hasText: 'new' }).waitFor();
      await other.locator('#mark-paid').click();
      await screen('paid', other).waitFor();
      assert.equal(loads, 1, 'the page was never reloaded (a reload would turn the status change into a new checkout-ready)');
      await other.locator('#status-line', { hasText: 'paid' }).waitFor();
      await loggedEvent('checkout-status', other).waitFor();
      assert.equal(await loggedEvent('checkout-ready', other).count(), 1, 'one checkout-ready, even under React.StrictMode');
    } finally {
      await other.close();
    }
  });
}

test('the page is readable on a 360 px phone, and the screenshots of docs/demo.md are taken', async () => {
  const phone = await context.newPage();
  try {
    await phone.setViewportSize({ width: 360, height: 780 });
    await phone.goto(url('/?scenario=waiting&lang=ru'));
    await screen('waiting', phone).waitFor();
    const widths = await phone.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    assert.ok(widths.page <= widths.viewport, `no sideways scrolling at 360 px (page ${widths.page} px wide)`);
    const amount = await part('amount', phone).boundingBox();
    assert.ok(amount && amount.x >= 0 && amount.x + amount.width <= 360, 'the amount is fully on screen');
  } finally {
    await phone.close();
  }

  await page.setViewportSize({ width: 1280, height: 1180 });
  for (const theme of ['light', 'dark'] as const) {
    await page.goto(url(`/?scenario=waiting&lang=en&theme=${theme}`));
    await screen('waiting').waitFor();
    await part('qr').waitFor();
    await page.evaluate(() => document.fonts.ready);
    const png = await page.screenshot({ fullPage: false });
    assert.ok(png.length > 20_000, `a real ${theme} screenshot`);
    const file = new URL(`demo-${theme}.png`, DOCS);
    if (UPDATE_SCREENSHOTS || !existsSync(file)) {
      await mkdir(DOCS, { recursive: true });
      await writeFile(file, png);
    }
  }
});
