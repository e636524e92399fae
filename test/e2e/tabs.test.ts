/**
 * Many checkouts of one shop open at once (issue 25, "tabs share"), in Debian's Chromium over
 * HTTP/1.1 (test/e2e/support/payer-lab.ts): a browser opens six connections to a host, and
 * every open event stream holds one. The checkouts of a site's tabs agree on at most three
 * streams (src/element/stream-slots.ts), so with twenty tabs open the shop's other pages still
 * load, and a checkout without a stream still shows the truth (by polling while in view, by a
 * read when it comes back).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CDPSession, Page } from 'playwright-core';
import { closeAll, comeBack, launchPhone, leave, startLab, untilScreen, type PayerLab, type Phone } from './support/payer-lab.js';

const TABS = 20;
const POLL = 2000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let lab: PayerLab;
let phone: Phone;

before(async () => {
  [lab, phone] = await Promise.all([startLab({ heartbeatMs: 1000, pollInterval: POLL }), launchPhone()]);
});

after(() => closeAll(phone, lab));

const screen = (page: Page) => page.locator('merchant-checkout [part~="base"]').getAttribute('data-screen');

test(`${TABS} checkout tabs of one shop: at most three event streams, the shop's other pages still load, every tab shows the truth`, async () => {
  const tabs: { id: string; page: Page; cdp: CDPSession }[] = [];
  for (let index = 0; index < TABS; index++) {
    const id = await lab.invoice();
    const { page, cdp } = await phone.open(`${lab.url}/pay/${id}`);
    await untilScreen(page, 'waiting');
    tabs.push({ id, page, cdp });
  }
  // Every tab read its invoice; the streams settle on the tabs shown last.
  await pause(1500);
  const streams = lab.openStreams();
  assert.ok(streams >= 1 && streams <= 3, `open event streams: ${streams}`);

  // Another page of the shop loads at once, on the same origin and HTTP/1.1.
  const shop = await phone.open(`${lab.url}/elsewhere`);
  assert.equal(await shop.page.locator('p').textContent({ timeout: 5000 }), 'The shop');
  await shop.page.reload({ timeout: 5000 });
  await shop.page.close();

  // The first tab holds no stream (it was shown first): paid, it shows so by polling.
  const first = tabs[0]!;
  assert.equal(lab.count(first.id, lab.now() - 1000).streams, 0);
  lab.mock.markPaid(first.id);
  await untilScreen(first.page, 'paid', 3 * POLL);

  // A tab away while its invoice is paid shows it at once on return, a stream or not.
  const second = tabs[1]!;
  await leave(second.page, second.cdp, 'hidden');
  lab.mock.markPaid(second.id);
  await pause(POLL + 500);
  assert.equal(await screen(second.page), 'waiting', 'away: nothing read (no poll while hidden)');
  await comeBack(second.page, second.cdp, 'hidden');
  await untilScreen(second.page, 'paid', 2000);

  // The tabs shown last kept their streams throughout.
  assert.ok(lab.openStreams() <= 3, `open event streams: ${lab.openStreams()}`);
  await Promise.all(tabs.map(({ page }) => page.close()));
});
