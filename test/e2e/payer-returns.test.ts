/**
 * The payer who leaves for the bank app and comes back (issue 25), in Debian's Chromium as a
 * phone, against the kit's own proxy, notification receiver and the mock
 * (test/e2e/support/payer-lab.ts): hidden, frozen, back/forward cache, offline then online, a
 * stream closed cleanly, a stream black-holed, paid while away, expired while away, several
 * tabs. Each case asserts the screen the payer sees and counts the requests the shop's server
 * got. The proxy's heartbeat is 1 s here (a dead stream is known after 2 s of silence); the
 * default 15 s is measured by bench/payer-returns.ts.
 */
import AxeBuilder from '@axe-core/playwright';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CDPSession, Page } from 'playwright-core';
import {
  closeAll,
  comeBack,
  launchPhone,
  leave,
  recordScreens,
  screensSeen,
  setOffline,
  startLab,
  untilScreen,
  type PayerLab,
  type Phone,
} from './support/payer-lab.js';

const HEARTBEAT = 1000;
const SILENCE = 2 * HEARTBEAT;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let lab: PayerLab;
let phone: Phone;

before(async () => {
  [lab, phone] = await Promise.all([startLab({ heartbeatMs: HEARTBEAT, pollInterval: 3000 }), launchPhone()]);
});

after(() => closeAll(phone, lab));

/** A checkout of a new invoice on a new phone tab, its stream open and delivering. */
const checkout = async (): Promise<{ id: string; page: Page; cdp: CDPSession }> => {
  const id = await lab.invoice();
  const { page, cdp } = await phone.open(`${lab.url}/pay/${id}`);
  await untilScreen(page, 'waiting');
  await recordScreens(page);
  await streaming(lab, id);
  return { id, page, cdp };
};

/** Waits until the page has opened the invoice's stream (its reader loads on demand) and its first bytes came. */
const streaming = async (at: PayerLab, id: string) => {
  for (let waited = 0; at.count(id, 0).streams === 0; waited += 50) {
    if (waited > 10_000) throw new Error('the stream was never opened');
    await pause(50);
  }
  await pause(300);
};

const paid = async (id: string) => {
  lab.mock.markPaid(id);
  await lab.mock.notificationsSettled();
};

test('hidden: nothing but the held stream while away, one read on return', async () => {
  const { id, page, cdp } = await checkout();
  await leave(page, cdp, 'hidden');
  const away = lab.now();
  await pause(3 * HEARTBEAT);
  assert.deepEqual(lab.count(id, away), { reads: 0, streams: 0, all: 0 }, 'no request while away');
  const back = lab.now();
  await comeBack(page, cdp, 'hidden');
  await pause(500);
  assert.equal(lab.count(id, back).reads, 1, 'one read on return, whatever the stream says');
  assert.equal(lab.count(id, back).streams, 0, 'the live stream is kept');
  assert.equal(await page.locator('merchant-checkout [part~="base"]').getAttribute('data-screen'), 'waiting');
  await page.close();
});

test('paid while away (hidden): the held stream brings it; no extra request', async () => {
  const { id, page, cdp } = await checkout();
  await leave(page, cdp, 'hidden');
  const away = lab.now();
  await paid(id);
  await pause(500);
  await comeBack(page, cdp, 'hidden');
  await untilScreen(page, 'paid', 2000);
  assert.equal(lab.count(id, away).all, 0, 'the push was enough: a paid invoice is not read again');
  assert.deepEqual(await screensSeen(page), ['waiting', 'paid']);
  await page.close();
});

test('frozen: no connection held while frozen, the truth within a round trip of resuming', async () => {
  const { id, page, cdp } = await checkout();
  await leave(page, cdp, 'frozen');
  const away = lab.now();
  await paid(id);
  await pause(3 * HEARTBEAT);
  assert.equal(lab.count(id, away).all, 0, 'nothing while frozen');
  await comeBack(page, cdp, 'frozen');
  const took = await untilScreen(page, 'paid', 5000);
  assert.ok(took < 1000, `paid shown ${Math.round(took)} ms after resuming`);
  const back = lab.count(id, away);
  assert.ok(back.reads <= 1 && back.streams <= 1, `one read and one stream at most: ${JSON.stringify(back)}`);
  assert.deepEqual(await screensSeen(page), ['waiting', 'paid']);
  await page.close();
});

test('back/forward cache: the stream closes on pagehide, and the return reads at once', async () => {
  const { id, page } = await checkout();
  await page.click('a[href="/elsewhere"]');
  await page.waitForURL(/elsewhere/);
  const away = lab.now();
  await paid(id);
  await pause(3 * HEARTBEAT);
  assert.equal(lab.count(id, away).all, 0, 'a cached page holds no stream and reads nothing');
  await page.goBack({ waitUntil: 'commit' });
  const restored = await page.evaluate(
    () => performance.getEntriesByType('navigation').length > 0 && (window as unknown as { screens?: string[] }).screens !== undefined,
  );
  assert.ok(restored, 'restored from the back/forward cache, not loaded anew');
  await untilScreen(page, 'paid', 5000);
  assert.ok(lab.count(id, away).reads <= 1);
  await page.close();
});

test('offline, then online: an honest notice, no request meanwhile, the truth within a round trip', async () => {
  const { id, page, cdp } = await checkout();
  await setOffline(cdp, true);
  await page.locator('merchant-checkout [part~="notice"]', { hasText: 'No internet connection' }).waitFor();
  const away = lab.now();
  await paid(id);
  await pause(3 * HEARTBEAT);
  assert.equal(lab.count(id, away).all, 0);
  await setOffline(cdp, false);
  const took = await untilScreen(page, 'paid', 5000);
  assert.ok(took < 1000, `paid shown ${Math.round(took)} ms after coming back online`);
  await page.close();
});

test('a stream closed cleanly: a read at once, polling meanwhile, the change shown', async () => {
  const { id, page } = await checkout();
  const before = lab.now();
  lab.endStreams();
  await pause(500);
  assert.equal(lab.count(id, before).reads, 1, 'one read at once');
  await paid(id);
  await untilScreen(page, 'paid', 5000);
  assert.deepEqual(await screensSeen(page), ['waiting', 'paid']);
  await page.close();
});

test('a stream black-holed: known dead after twice the heartbeat, read at once and reopened', async () => {
  const { id, page } = await checkout();
  lab.blackHoleStreams();
  const cut = lab.now();
  await paid(id);
  const took = await untilScreen(page, 'paid', 10_000);
  assert.ok(took < SILENCE + 1500, `paid shown ${Math.round(took)} ms after the stream went silent`);
  const after = lab.count(id, cut);
  assert.ok(after.reads >= 1 && after.reads <= 2, `read at once: ${JSON.stringify(after)}`);
  await page.close();
});

test('expired while away: the deadline is read first; a payment made in the last seconds shows as paid, never expired', async () => {
  const short = await startLab({ heartbeatMs: HEARTBEAT, invoiceTtlMs: 8000 });
  try {
    const id = await short.invoice();
    const { page } = await phone.open(`${short.url}/pay/${id}`);
    await untilScreen(page, 'waiting');
    await recordScreens(page);
    await streaming(short, id);
    // No push can tell it: the stream is black-holed and the receiver knows nothing yet.
    short.blackHoleStreams();
    short.mock.markPaid(id);
    await untilScreen(page, 'paid', 15_000);
    assert.ok(!(await screensSeen(page)).includes('expired'), `screens: ${(await screensSeen(page)).join(' → ')}`);

    const other = await short.invoice();
    const second = await phone.open(`${short.url}/pay/${other}`);
    await untilScreen(second.page, 'waiting');
    await leave(second.page, second.cdp, 'hidden');
    await untilScreen(second.page, 'expired', 15_000);
    await comeBack(second.page, second.cdp, 'hidden');
    await second.page.locator('merchant-checkout [part~="report-button"]').waitFor();
    await page.close();
    await second.page.close();
  } finally {
    await short.close();
  }
});

test('several tabs: each shows the truth on return', async () => {
  const tabs = await Promise.all([checkout(), checkout(), checkout()]);
  await Promise.all(tabs.map(({ page, cdp }) => leave(page, cdp, 'hidden')));
  const away = lab.now();
  await paid(tabs[1].id);
  await pause(500);
  await Promise.all(tabs.map(({ page, cdp }) => comeBack(page, cdp, 'hidden')));
  await untilScreen(tabs[1].page, 'paid', 2000);
  for (const tab of [tabs[0], tabs[2]]) {
    await pause(300);
    assert.equal(await tab.page.locator('merchant-checkout [part~="base"]').getAttribute('data-screen'), 'waiting');
    assert.equal(lab.count(tab.id, away).reads, 1);
  }
  await Promise.all(tabs.map(({ page }) => page.close()));
});

test('phone layout: the deal, the amount and “I have paid” fit the first screen; the ways to pay fold behind “Change bank”; the QR code comes after', async () => {
  const { page } = await checkout();
  const top = (name: string) =>
    page
      .locator(`merchant-checkout [part~="${name}"]`)
      .first()
      .evaluate((node) => {
        const box = node.getBoundingClientRect();
        return { top: Math.round(box.top), bottom: Math.round(box.bottom) };
      });
  for (const name of ['amount', 'requisites', 'bank-link', 'paid-button']) {
    const box = await top(name);
    assert.ok(box.bottom <= 640, `${name} ends at ${box.bottom} px, inside the first 640`);
  }
  assert.ok((await top('qr')).top > (await top('paid-button')).bottom, 'the QR code is secondary on a phone that opens the bank app');
  assert.ok((await top('bank-link')).bottom < (await top('guidance')).top, 'the bank app first, then the guidance');
  const variants = page.locator('merchant-checkout [part~="variants"]');
  assert.equal(await variants.isVisible(), false, 'the ways to pay are folded');
  const axe = async () => {
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .include('merchant-checkout')
      .analyze();
    assert.deepEqual(
      results.violations.map((violation) => violation.id),
      [],
    );
  };
  await axe();
  // A tap: mouse clicks are touch events on this emulated phone, which Playwright's click waits on.
  await page.locator('merchant-checkout [part~="change-bank"]').evaluate((node) => (node as HTMLElement).click());
  await variants.waitFor();
  await axe();
  await page.close();
});
