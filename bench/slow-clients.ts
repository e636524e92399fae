/**
 * Slow clients against the proxy (`createNodeServer` around `createCheckoutHandler`, in its own
 * process, in front of the mock): normal requests at a fixed rate, first alone, then while
 * 2,000 connections send their headers one byte a second and never finish them. Reports the
 * p99 of the normal requests in both phases and how many slow connections the server closed.
 * The normal requests are evenly paced (bench/paced.ts), not autocannon's per-second bursts.
 */
import { connect, type Socket } from 'node:net';
import { log, percentile } from './lib.js';
import { paced } from './paced.js';
import { startChild, stopChild, type Child } from './proxy.js';

export const SLOW_CONNECTIONS = 2000;
/** The goal: normal requests keep answering, p99 under attack within this many ms. */
export const SLOW_P99_GOAL_MS = 100;

export interface SlowClientsResult {
  connections: number;
  /** Normal requests per phase, and their p99 in ms. */
  baseline: { ok: number; errors: number; p99: number };
  attack: { ok: number; errors: number; p99: number };
  /** Slow connections the server had closed 15 s after they opened (its headers deadline is 10 s). */
  closedByServer: number;
}

const RATE = 200;
const SECONDS = 5;

export const runSlowClients = async (): Promise<SlowClientsResult> => {
  let mock: Child | undefined;
  let proxy: Child | undefined;
  const sockets: Socket[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  try {
    mock = await startChild('mock');
    proxy = await startChild('proxy', mock.info);
    const url = `${proxy.url}/checkout-api/invoices/${mock.info!.invoiceId}`;
    const target = new URL(proxy.url);
    const normal = async () => {
      const result = await paced([url], {}, { rate: RATE, seconds: SECONDS, connections: 10 });
      return { ok: result.times.length, errors: result.errors, p99: percentile(result.times, 0.99) };
    };
    // Warm-up.
    await paced([url], {}, { rate: RATE, seconds: 1, connections: 10 });
    const baseline = await normal();
    log(`slow: baseline ${baseline.ok} ok, p99 ${baseline.p99.toFixed(2)} ms`);

    let closedByServer = 0;
    const opened = Date.now();
    for (let i = 0; i < SLOW_CONNECTIONS; i++) {
      const socket = connect(Number(target.port), target.hostname);
      socket.on('error', () => undefined);
      // Counted until the result is taken; this side destroys them only afterwards.
      socket.on('close', () => closedByServer++);
      socket.once('connect', () =>
        socket.write(`GET /checkout-api/invoices/${mock!.info!.invoiceId} HTTP/1.1\r\nHost: ${target.host}\r\nX-Slow: `),
      );
      sockets.push(socket);
    }
    // One byte a second on every slow connection, in one timer.
    timers.push(setInterval(() => sockets.forEach((socket) => socket.writable && socket.write('a')), 1000));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const attack = await normal();
    log(`slow: under attack ${attack.ok} ok, p99 ${attack.p99.toFixed(2)} ms`);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 15_000 - (Date.now() - opened))));
    return {
      connections: SLOW_CONNECTIONS,
      baseline,
      attack,
      closedByServer,
    };
  } finally {
    timers.forEach(clearInterval);
    sockets.forEach((socket) => socket.destroy());
    await stopChild(proxy);
    await stopChild(mock);
  }
};

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  console.log(JSON.stringify(await runSlowClients(), null, 2));
}
