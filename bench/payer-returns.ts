/**
 * The payer who leaves for the bank app and comes back (issue 25), measured in Debian's
 * Chromium as a phone against the kit's proxy, receiver and mock with the proxy's default
 * heartbeat (15 s): test/e2e/support/payer-lab.ts, the same world as the lifecycle matrix.
 *
 * - **Return → right screen**: the page is frozen (no script, no connection), the invoice is
 *   paid meanwhile, the page resumes; the time until the paid screen, with 150 ms of network
 *   latency emulated (one round trip), over {@link RETURNS} returns.
 * - **Requests while away**: the page hidden for {@link AWAY_MS} with its stream held, then the
 *   same after the stream was black-holed first (found dead while away).
 * - **After a silently dead stream**: the stream's connection stops carrying bytes (no FIN, no
 *   RST) and the invoice is paid at that moment, the page in view: the time until the paid
 *   screen ({@link DEAD_TABS} tabs at once).
 *
 *   node --import tsx bench/payer-returns.ts      (needs `npm run build`; about 2 minutes)
 */
import { comeBack, launchPhone, leave, setOffline, startLab, untilScreen } from '../test/e2e/support/payer-lab.js';
import { median, percentile, sleep } from './lib.js';
import { runReceipts, type ReceiptsResult } from './receipts.js';

export const RETURNS = 10;
export const LATENCY_MS = 150;
export const AWAY_MS = 45_000;
export const DEAD_TABS = 3;
/** Goals of issue 25. */
export const RETURN_GOAL_MS = LATENCY_MS + 100;
export const DEAD_GOAL_MS = 35_000;

export interface PayerReturnsResult {
  heartbeatMs: number;
  latencyMs: number;
  returns: { ms: number[]; p50: number; p90: number };
  away: { ms: number; held: number; afterDead: number };
  dead: { ms: number[]; max: number };
  offline: { ms: number };
  /** Large multipart bodies and other payers' reads (bench/receipts.ts). */
  receipts: ReceiptsResult;
}

export const runPayerReturns = async (): Promise<PayerReturnsResult> => {
  const heartbeatMs = 15_000;
  const lab = await startLab({ heartbeatMs });
  const phone = await launchPhone();
  try {
    const open = async () => {
      const id = await lab.invoice();
      const tab = await phone.open(`${lab.url}/pay/${id}`);
      await untilScreen(tab.page, 'waiting');
      // The stream's reader loads on demand: wait for the stream itself.
      while (lab.count(id, 0).streams === 0) await sleep(50);
      await sleep(300);
      return { id, ...tab };
    };
    const paid = async (id: string) => {
      lab.mock.markPaid(id);
      await lab.mock.notificationsSettled();
    };

    const returns: number[] = [];
    for (let run = 0; run < RETURNS; run++) {
      const { id, page, cdp } = await open();
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: LATENCY_MS,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await leave(page, cdp, 'frozen');
      await paid(id);
      await sleep(200);
      await comeBack(page, cdp, 'frozen');
      returns.push(await untilScreen(page, 'paid', 10_000));
      await page.close();
    }

    // Away with the stream held; then away after the stream died silently (found dead while hidden).
    const held = await open();
    const dead = await open();
    lab.blackHoleStreams();
    await Promise.all([leave(held.page, held.cdp, 'hidden'), leave(dead.page, dead.cdp, 'hidden')]);
    const awayFrom = lab.now();
    await sleep(AWAY_MS);
    const away = { ms: AWAY_MS, held: lab.count(held.id, awayFrom).all, afterDead: lab.count(dead.id, awayFrom).all };
    await Promise.all([held.page.close(), dead.page.close()]);

    const tabs = await Promise.all(Array.from({ length: DEAD_TABS }, open));
    lab.blackHoleStreams();
    await Promise.all(tabs.map(({ id }) => paid(id)));
    const deadMs = await Promise.all(tabs.map(({ page }) => untilScreen(page, 'paid', 60_000)));
    await Promise.all(tabs.map(({ page }) => page.close()));

    const offline = await open();
    await setOffline(offline.cdp, true);
    await paid(offline.id);
    await sleep(1000);
    await setOffline(offline.cdp, false);
    const offlineMs = await untilScreen(offline.page, 'paid', 10_000);
    await offline.page.close();

    return {
      heartbeatMs,
      latencyMs: LATENCY_MS,
      returns: { ms: returns.map(Math.round), p50: Math.round(median(returns)), p90: Math.round(percentile(returns, 90)) },
      away,
      dead: { ms: deadMs.map(Math.round), max: Math.round(Math.max(...deadMs)) },
      offline: { ms: Math.round(offlineMs) },
      receipts: await runReceipts(),
    };
  } finally {
    await phone.close();
    await lab.close();
  }
};

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runPayerReturns(), null, 2));
}
