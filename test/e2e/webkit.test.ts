/**
 * The payer's journey in WebKit, end to end (issue 38): the demo server (Vite, the signing proxy
 * and the mock, as demo.test.ts starts it) and WebKitGTK's MiniBrowser driven over W3C
 * WebDriver (test/support/webkit.js), with real pointer input, so a click is a user gesture.
 * Load, copy (the clipboard written while the click is being dispatched), the SBP bank picker
 * and its deep links, "I have paid" with a receipt, cancel, paid by push, a return after the
 * page was hidden, and the screen's layout compared with Chromium's, part by part (fonts
 * differ between the engines, so boxes are compared, not pixels).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startDemoServer, type DemoServer } from '../../demo/server/demo-server.js';
import { startWebKit, type WebKit } from '../support/webkit.js';
import { launchChromium } from './support/browser.js';

let server: DemoServer;
let webkit: WebKit;
let chromium: Browser;
let cacheDir: string;

const url = (path: string) => new URL(path, server.url).href;

before(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'merchant-checkout-webkit-vite-'));
  [server, webkit, chromium] = await Promise.all([
    startDemoServer({ port: 0, host: '127.0.0.1', cacheDir, logLevel: 'warn', watch: false }),
    startWebKit({ width: 1024, height: 900 }),
    launchChromium(),
  ]);
});

after(async () => {
  await webkit?.close();
  await chromium?.close();
  await server?.close();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

/** `[part~="name"]` inside the element, in script (the element's shadow root is open). */
const PART = `const part = (name) => document.querySelector('merchant-checkout')?.shadowRoot?.querySelector('[part~="' + name + '"]') ?? null;`;

/** Polls `script` (a function body returning a value) in WebKit until it returns something truthy. */
const until = async <T>(script: string, what: string, timeout = 10_000): Promise<T> => {
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    last = await webkit.execute(`${PART}\n${script}`);
    if (last) return last as T;
    if (Date.now() > deadline) throw new Error(`WebKit: ${what} did not happen in ${timeout} ms (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const screenIs = (name: string) => until(`return part('base')?.dataset.screen === ${JSON.stringify(name)};`, `the ${name} screen`);
const textOf = (name: string) => webkit.execute<string>(`${PART}\nreturn part(${JSON.stringify(name)})?.innerText ?? '';`);

/** A real click (pointer down and up) at the middle of the element's part `name`, or of a page element. */
const click = async (target: { part: string } | { selector: string }) => {
  const find = 'part' in target ? `part(${JSON.stringify(target.part)})` : `document.querySelector(${JSON.stringify(target.selector)})`;
  const point = await until<{ x: number; y: number }>(
    `const node = ${find};
     if (!node) return null;
     node.scrollIntoView({ block: 'center', behavior: 'instant' });
     const box = node.getBoundingClientRect();
     const x = Math.round(box.x + box.width / 2), y = Math.round(box.y + box.height / 2);
     return box.width > 0 && x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight ? { x, y } : null;`,
    `${JSON.stringify(target)} on screen`,
  );
  await webkit.actions([
    {
      type: 'pointer',
      id: 'mouse',
      parameters: { pointerType: 'mouse' },
      actions: [
        { type: 'pointerMove', duration: 0, x: point.x, y: point.y },
        { type: 'pointerDown', button: 0 },
        { type: 'pointerUp', button: 0 },
      ],
    },
  ]);
};

/** Opens a demo scenario and waits for its screen. */
const open = async (scenario: string, screen: string) => {
  await webkit.navigate(url(`/?scenario=${scenario}&lang=en&theme=light`));
  await screenIs(screen);
};

const loggedEvent = (name: string, text = '') =>
  until(
    `return [...document.querySelectorAll('#event-log li[data-event="${name}"]')].some((li) => li.innerText.includes(${JSON.stringify(text)}));`,
    `the event log's ${name} ${text}`,
  );

test('WebKit: the requisites load, and "Copy" writes the clipboard within the click', async () => {
  await open('waiting', 'waiting');
  assert.match(await textOf('amount'), /₽1,500\.00/);
  assert.match(await textOf('requisites'), /\+7 \(9\d\d\) \d{3}-\d{2}-\d{2}/);
  assert.notEqual((await textOf('holder')).trim(), '');
  // Each writeText call records whether a trusted click was being dispatched when it was made:
  // the window hears the click first (capture) and last (bubbling, after the element's handler).
  await webkit.execute(`
    window.clipboardCalls = [];
    let clicking = false;
    window.addEventListener('click', (event) => (clicking = event.isTrusted), true);
    window.addEventListener('click', () => (clicking = false));
    const write = navigator.clipboard.writeText.bind(navigator.clipboard);
    navigator.clipboard.writeText = (value) => {
      window.clipboardCalls.push({ value, inClick: clicking });
      return write(value);
    };`);
  await click({ part: 'copy-button' });
  await until(`return part('copy-button')?.innerText.trim() === 'Copied';`, 'the button saying "Copied"');
  const calls = await webkit.execute<{ value: string; inClick: boolean }[]>('return window.clipboardCalls;');
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.value, '1500.00', 'the raw amount');
  assert.ok(calls[0]!.inClick, 'written while the payer’s click was being dispatched, before anything was awaited');
  await loggedEvent('checkout-copy');
});

test('WebKit: the SBP bank picker lists banks whose links open their apps', async () => {
  await open('sbp-qr', 'waiting');
  // WebDriver cannot make WebKit a touch screen: the page says it is one, as a phone's would.
  await webkit.execute(`
    const real = window.matchMedia.bind(window);
    window.matchMedia = (query) => (query === '(pointer: coarse)' ? { ...real(query), matches: true, media: query } : real(query));
    document.querySelector('merchant-checkout').requestUpdate();`);
  await click({ part: 'bank-picker-button' });
  await until(`return part('bank-picker') && part('bank-option');`, 'the bank picker with its banks');
  const links = await webkit.execute<string[]>(
    `${PART}\nreturn [...document.querySelector('merchant-checkout').shadowRoot.querySelectorAll('[part~="bank-option"]')].map((a) => a.href);`,
  );
  assert.ok(links.length > 3, `banks listed (${links.length})`);
  const sbp = await webkit.execute<string>(`${PART}\nreturn part('bank-any-link')?.href ?? '';`);
  assert.match(sbp, /^https:\/\/qr\.nspk\.ru\//, 'any bank: the SBP link itself');
  assert.ok(
    links.every((link) => /^[a-z][a-z0-9+.-]*:/.test(link) && link.includes('qr.nspk.ru')),
    `each bank's link carries the SBP payment: ${links.slice(0, 3).join(', ')}`,
  );
  await click({ part: 'bank-picker-close' });
  await until(`return !part('bank-picker') && part('qr');`, 'the QR code again');
});

test('WebKit: "I have paid", then a receipt, checked by the service', async () => {
  await open('waiting', 'waiting');
  await click({ part: 'paid-button' });
  await screenIs('checking');
  await click({ part: 'receipt-button' });
  await until(`return part('receipt-form')?.querySelector('input[type=file]');`, 'the receipt form');
  // The file chooser is the system's; the test hands the input a file as a drop would.
  await webkit.execute(`${PART}
    const input = part('receipt-form').querySelector('input[type=file]');
    const files = new DataTransfer();
    files.items.add(new File([new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a])], 'receipt.pdf', { type: 'application/pdf' }));
    input.files = files.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));`);
  await click({ part: 'submit-button' });
  await until(`return part('receipt-status')?.innerText.includes('Receipt received');`, '"Receipt received"');
  assert.equal(await webkit.execute(`${PART}\nreturn part('base').dataset.screen;`), 'checking');
});

test('WebKit: cancel asks first, then cancels', async () => {
  await open('waiting', 'waiting');
  await click({ part: 'cancel-button' });
  await until(`return part('confirm-button');`, 'the confirmation');
  assert.equal(await webkit.execute(`${PART}\nreturn part('base').dataset.screen;`), 'waiting', 'nothing canceled before the confirmation');
  await click({ part: 'confirm-button' });
  await screenIs('canceled');
  await loggedEvent('checkout-canceled');
});

test('WebKit: paid by push, and paid while the page was hidden is shown on return', async () => {
  await open('waiting', 'waiting');
  await click({ selector: '#mock-controls [data-action="paid"]' });
  await screenIs('paid');
  await loggedEvent('checkout-status', 'new → paid');
  assert.equal(
    await webkit.execute(`return document.querySelector('#event-log li[data-event="checkout-status"] .event-source')?.dataset.source;`),
    'push',
  );

  await open('waiting', 'waiting');
  const invoiceId = await webkit.execute<string>(`return document.querySelector('merchant-checkout').invoiceId;`);
  await webkit.command('POST', '/window/minimize', {});
  await until(`return document.visibilityState === 'hidden';`, 'the page hidden');
  const paid = await fetch(url(`/demo-api/orders/${encodeURIComponent(invoiceId)}/paid`), {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(paid.status, 200, await paid.text());
  await webkit.command('POST', '/window/maximize', {});
  await until(`return document.visibilityState === 'visible';`, 'the page shown again');
  await screenIs('paid');
});

/** The boxes of the element's parts, relative to its card, and whether anything overflows. */
const LAYOUT = `
  const root = document.querySelector('merchant-checkout').shadowRoot;
  const card = root.querySelector('[part~="base"]').getBoundingClientRect();
  const boxes = {};
  for (const name of ['title', 'amount', 'details', 'requisites', 'holder', 'bank', 'qr', 'countdown', 'paid-button', 'cancel-button']) {
    const node = root.querySelector('[part~="' + name + '"]');
    if (!node) continue;
    const box = node.getBoundingClientRect();
    boxes[name] = { left: box.left - card.left, right: card.right - box.right, top: box.top - card.top, height: box.height };
  }
  const base = root.querySelector('[part~="base"]');
  return { width: card.width, boxes, overflow: base.scrollWidth - base.clientWidth, pageOverflow: document.documentElement.scrollWidth - window.innerWidth };`;

interface Layout {
  width: number;
  boxes: Record<string, { left: number; right: number; top: number; height: number }>;
  overflow: number;
  pageOverflow: number;
}

test('WebKit: the waiting screen is laid out as in Chromium, at a phone’s width and a desktop’s', async () => {
  const order = (await (await fetch(url('/demo-api/scenarios/waiting'), { method: 'POST' })).json()) as { order: { invoiceId: string } };
  // One invoice for both engines; the demo page shows the invoice given in its address.
  const page = url(`/?lang=en&theme=light&invoice=${order.order.invoiceId}`);
  for (const width of [360, 1024]) {
    // The same way in both engines: the page in a frame of that width (MiniBrowser's window is at least 447 px).
    const framed = `
      document.body.innerHTML = '';
      const frame = document.createElement('iframe');
      frame.style.cssText = 'border:0;display:block;width:${width}px;height:1400px';
      frame.src = ${JSON.stringify(page)};
      document.body.append(frame);`;
    // The frame's page is the demo's origin's: the outer page is the demo too, emptied.
    await webkit.navigate(url('/?lang=en'));
    await webkit.execute(`${framed}\n return null;`);
    const inFrame = (script: string) =>
      `const document = window.frames[0].document; const window_ = window.frames[0]; ${script.replaceAll('window.', 'window_.')}`;
    await until(
      inFrame(
        `return !!document.querySelector('merchant-checkout')?.shadowRoot?.querySelector('[part~="base"][data-screen="waiting"] [part~="requisites"]');`,
      ),
      'the framed waiting screen',
    );
    const inWebKit = await webkit.execute<Layout>(inFrame(LAYOUT));

    const chromePage = await chromium.newPage({ viewport: { width: 1280, height: 1500 } });
    try {
      await chromePage.goto(url('/?lang=en'));
      await chromePage.evaluate(framed);
      const frame = chromePage.frames()[1]!;
      await frame.locator('merchant-checkout [part~="base"][data-screen="waiting"] [part~="requisites"]').waitFor();
      const inChromium = await frame.evaluate<Layout>(`(() => {${LAYOUT}})()`);

      for (const layout of [inWebKit, inChromium]) {
        assert.ok(layout.overflow <= 0, `nothing sticks out of the card at ${width} px (${layout.overflow})`);
        assert.ok(layout.pageOverflow <= 0, `the page is no wider than ${width} px (${layout.pageOverflow})`);
      }
      assert.ok(
        Math.abs(inWebKit.width - inChromium.width) <= 2,
        `the card is as wide: WebKit ${inWebKit.width}, Chromium ${inChromium.width}`,
      );
      assert.deepEqual(Object.keys(inWebKit.boxes).sort(), Object.keys(inChromium.boxes).sort(), 'the same parts on screen');
      const order = (layout: Layout) =>
        Object.entries(layout.boxes)
          .sort((a, b) => a[1].top - b[1].top)
          .map(([name]) => name);
      assert.deepEqual(order(inWebKit), order(inChromium), `the parts in the same order, top to bottom, at ${width} px`);
      for (const [name, box] of Object.entries(inWebKit.boxes)) {
        const other = inChromium.boxes[name]!;
        // Edges follow the layout, not the glyphs: within 8 px. Heights follow the font: within half again.
        assert.ok(
          Math.abs(box.left - other.left) <= 8 && Math.abs(box.right - other.right) <= 8,
          `${name}'s edges at ${width} px: WebKit ${JSON.stringify(box)}, Chromium ${JSON.stringify(other)}`,
        );
        assert.ok(
          box.height <= other.height * 1.5 + 4 && other.height <= box.height * 1.5 + 4,
          `${name}'s height at ${width} px: WebKit ${box.height}, Chromium ${other.height}`,
        );
      }
    } finally {
      await chromePage.close();
    }
  }
});
