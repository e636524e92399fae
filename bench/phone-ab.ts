/**
 * The phone benchmark's cold load (bench/phone.ts: Lighthouse's mobile profile, a new context
 * per load) on two builds side by side, loads alternating so both see the same machine:
 * another copy of the repository, built (`npm run build` there), against this tree. Its CDN
 * page (examples/cdn.html) and the bundled page (bench/page/checkout.html, built here with Vite
 * from that copy's dist/esm), medians of `runs`.
 *
 *   node --import tsx bench/phone-ab.ts ROOT [runs]     ROOT: the other copy (about 2 min for 10 runs)
 */
import { launchChromium } from '../test/e2e/support/browser.js';
import { type CheckoutServer, SHOP_BASE, startCheckoutServer } from './checkout-server.js';
import { log, median } from './lib.js';
import { coldLoad } from './phone.js';

const [root, runsText = '10'] = process.argv.slice(2);
if (!root) throw new TypeError('bench/phone-ab.ts ROOT [runs]: ROOT is another copy of the repository, built');
const runs = Number(runsText);
const pages = { cdn: '/cdn.html', shop: `${SHOP_BASE}checkout.html` } as const;

const other = await startCheckoutServer(root);
const here = await startCheckoutServer();
const browser = await launchChromium();
try {
  const servers: Record<'other' | 'here', CheckoutServer> = { other, here };
  const times: Record<string, number[]> = {};
  const load = async (side: 'other' | 'here', page: keyof typeof pages): Promise<number> => {
    const { page: opened, requisites } = await coldLoad(browser, servers[side], pages[page]);
    await opened.context().close();
    return requisites;
  };
  // One warm-up load of each: the servers' first answers are not the phone's cost.
  for (const side of ['other', 'here'] as const) for (const page of ['cdn', 'shop'] as const) await load(side, page);
  for (let run = 0; run < runs; run++) {
    for (const page of ['cdn', 'shop'] as const) {
      for (const side of ['other', 'here'] as const) (times[`${page} ${side}`] ??= []).push(await load(side, page));
    }
    log(`phone A/B run ${run + 1} of ${runs}`);
  }
  for (const [name, list] of Object.entries(times))
    console.log(`${name}: median ${Math.round(median(list))} ms (${list.map(Math.round).join(', ')})`);
} finally {
  await browser.close();
  await other.close();
  await here.close();
}
