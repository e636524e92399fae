/**
 * Push instead of poll (`GET /invoices/{id}/events`), measured against real processes: each
 * shop instance is test/support/cluster-instance.ts (proxy + notification receiver sharing one
 * store) in its own process, in front of the mock service on a real port.
 *
 * 1. Upstream calls per payer-minute: 1,000 open checkouts over 100 invoices for 60 s, polled
 *    every 5 s (the element's default; GETs of /invoices/{id}) or streamed (1,000 SSE
 *    connections, the default refresh interval of 60 s).
 * 2. Status latency: a notification POSTed to an instance → the `invoice` event at a client
 *    streaming the invoice, one instance (memory store), then three behind Redis (the stream on
 *    one instance, the notification to another).
 * 3. Idle streams: how many one process holds, and its memory per open stream
 *    (bench/stream-holder.ts: the kit as it ships, and a bare node:http server beside it).
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startMockServer, type MockServer } from '../src/mock/index.js';
import { DEFAULT_REFRESH_INTERVAL_MS, MerchantClient } from '../src/server/node.js';
import { startCluster, type Cluster, type Instance } from '../test/support/cluster.js';
import { startRedis, type RedisProcess } from '../test/support/redis-server.js';
import { readSse, type SseReader } from '../test/support/sse.js';
import { kitOf } from './kit.js';
import { log, percentile, sleep } from './lib.js';

export const PAYERS = 1000;
export const INVOICES = 100;
/** 60 s as asked; `BENCH_EVENTS_SECONDS` shortens it for a quick look (then the figures are not the benchmark's). */
export const WINDOW_SECONDS = Number(process.env.BENCH_EVENTS_SECONDS ?? 60);
export const POLL_INTERVAL_MS = 5000;
export const UPSTREAM_GOAL_RATIO = 50;
export const LATENCY_P99_GOAL_MS = 100;
export const IDLE_STREAMS_GOAL = 10_000;
export const IDLE_MEMORY_GOAL_BYTES = 200_000_000;

export const MERCHANT = { apiKey: 'events-bench-key', secretKey: 'events-bench-secret', storeId: 9, storeName: 'Streaming Bench Shop' };
export const TOKEN = 'events-bench-token';

export interface UpstreamPhase {
  calls: number;
  perPayerMinute: number;
  /** Answers (polling) or `invoice` events (streaming) the payers received. */
  received: number;
  errors: number;
}

export interface LatencyFigures {
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

export interface EventsResult {
  upstream: {
    payers: number;
    invoices: number;
    seconds: number;
    pollIntervalMs: number;
    refreshIntervalMs: number;
    polling: UpstreamPhase;
    streaming: UpstreamPhase;
    ratio: number;
  };
  latency: { single: LatencyFigures; cluster: LatencyFigures };
  idle: IdleFigures & {
    /** The same streams held by a bare node:http server (bench/stream-holder.ts, `floor`): what Node itself costs. */
    floor?: IdleFigures;
  };
}

export interface IdleFigures {
  asked: number;
  opened: number;
  fdLimit: number | undefined;
  rssBefore: number;
  rssAfter: number;
  heapBefore: number;
  heapAfter: number;
  perStream: number;
  openSeconds: number;
}

/** The soft limit of open files of this process (the instances inherit it), from /proc. */
const fileLimit = (): number | undefined => {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((each) => each.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === undefined || soft === 'unlimited' ? undefined : Number(soft);
  } catch {
    return undefined;
  }
};

const stats = async (instance: { url: string }) =>
  (await (await fetch(`${instance.url}/stats`)).json()) as { upstreamCalls: number; rss: number; heapUsed: number };

const HOLDER = fileURLToPath(new URL('./stream-holder.ts', import.meta.url));

/** The process that holds the idle streams (bench/stream-holder.ts): the kit's, or the bare node:http floor. */
export const startHolder = async (mock: MockServer, kind: 'kit' | 'floor' = 'kit'): Promise<{ url: string; stop(): Promise<void> }> => {
  // The kit bundled as it ships (bench/kit.ts); BENCH_STREAMS_ROOT: from another copy of the sources.
  const kit = await kitOf(process.env.BENCH_STREAMS_ROOT || undefined);
  return new Promise((resolve, reject) => {
    const child = fork(HOLDER, [], {
      execArgv: ['--import', 'tsx', '--expose-gc'],
      env: {
        ...process.env,
        MOCK_URL: mock.url,
        API_KEY: MERCHANT.apiKey,
        SECRET_KEY: MERCHANT.secretKey,
        NOTIFICATION_TOKEN: TOKEN,
        HOLDER_KIND: kind,
        BENCH_KIT: kit,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const stop = () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      });
    child.on('message', (message: { type: string; url?: string }) => {
      if (message.type === 'listening') resolve({ url: message.url!, stop });
    });
    child.once('exit', (code) => reject(new Error(`stream holder exited with ${code} before it listened`)));
  });
};

export const createInvoices = async (client: MerchantClient, count: number): Promise<string[]> => {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const invoice = await client.createInvoice({
      type: 'in',
      amount: '1500.00',
      currency: 'RUB',
      notificationUrl: 'http://127.0.0.1:9/notify',
      notificationToken: TOKEN,
      internalId: `events-bench-${index}-${Date.now()}`,
      startDeal: true,
      paymentOption: 'SBP',
    });
    ids.push(invoice.id);
  }
  return ids;
};

const cluster = (mock: MockServer, count: number, redis?: RedisProcess, execArgv?: string[]): Promise<Cluster> =>
  startCluster({
    count,
    mockUrl: mock.url,
    apiKey: MERCHANT.apiKey,
    secretKey: MERCHANT.secretKey,
    token: TOKEN,
    ...(redis ? { redisUrl: redis.url, redisPrefix: `bench-${Date.now()}:` } : {}),
    ...(execArgv ? { execArgv } : {}),
  });

const polling = async (instance: Instance, ids: string[]): Promise<UpstreamPhase> => {
  const before = (await stats(instance)).upstreamCalls;
  let received = 0;
  let errors = 0;
  const end = Date.now() + WINDOW_SECONDS * 1000;
  const payer = async (id: string) => {
    // Payers arrive spread over one interval, as checkouts opened at different moments.
    await sleep(Math.random() * POLL_INTERVAL_MS);
    while (Date.now() < end) {
      const started = Date.now();
      try {
        const answer = await fetch(`${instance.url}/checkout-api/invoices/${id}`);
        await answer.arrayBuffer();
        if (answer.ok) received++;
        else errors++;
      } catch {
        errors++;
      }
      await sleep(Math.max(0, Math.min(POLL_INTERVAL_MS - (Date.now() - started), end - Date.now())));
    }
  };
  await Promise.all(Array.from({ length: PAYERS }, (_, index) => payer(ids[index % ids.length]!)));
  const calls = (await stats(instance)).upstreamCalls - before;
  return { calls, perPayerMinute: calls / PAYERS / (WINDOW_SECONDS / 60), received, errors };
};

const streaming = async (instance: Instance, ids: string[]): Promise<UpstreamPhase> => {
  const before = (await stats(instance)).upstreamCalls;
  let received = 0;
  let errors = 0;
  const end = Date.now() + WINDOW_SECONDS * 1000;
  const payer = async (id: string) => {
    await sleep(Math.random() * POLL_INTERVAL_MS);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.max(0, end - Date.now()));
    try {
      const response = await fetch(`${instance.url}/checkout-api/invoices/${id}/events`, { signal: controller.signal });
      if (!response.ok || !response.body) {
        errors++;
        return;
      }
      const stream = readSse(response.body);
      for (;;) {
        const block = await stream.nextEvent(WINDOW_SECONDS * 1000 + 5000);
        if (!block) break;
        received++;
      }
    } catch {
      // The abort at the end of the window.
      if (!controller.signal.aborted) errors++;
    } finally {
      clearTimeout(timer);
    }
  };
  await Promise.all(Array.from({ length: PAYERS }, (_, index) => payer(ids[index % ids.length]!)));
  const calls = (await stats(instance)).upstreamCalls - before;
  return { calls, perPayerMinute: calls / PAYERS / (WINDOW_SECONDS / 60), received, errors };
};

/**
 * Real changes of an invoice at the service, one per round: the kit reads every notified invoice
 * from the service (issue 24), so a notification of a state the service does not have is no
 * event. Each round changes the mock first; the time is from the notification's POST. `paid` is
 * last: the stream ends after a final status.
 */
export const CHANGES: readonly ((mock: MockServer, id: string) => void)[] = [
  (mock, id) => mock.service.confirmTransfer(id),
  (mock, id) => mock.service.markPaid(id),
];

/** Notification POSTed → event at the client, one real change per round (`CHANGES`) for each invoice, one at a time. */
export const latency = async (
  mock: MockServer,
  instances: Instance[],
  ids: string[],
  onSample?: (milliseconds: number) => void,
): Promise<LatencyFigures> => {
  const samples: number[] = [];
  const streams: { reader: SseReader; controller: AbortController }[] = [];
  try {
    for (const [index, id] of ids.entries()) {
      const controller = new AbortController();
      const response = await fetch(`${instances[index % instances.length]!.url}/checkout-api/invoices/${id}/events`, {
        signal: controller.signal,
      });
      const reader = readSse(response.body!);
      await reader.nextEvent();
      streams.push({ reader, controller });
    }
    for (const change of CHANGES) {
      for (const [index, id] of ids.entries()) {
        change(mock, id);
        const body = { notificationType: 'invoice', notificationDate: new Date().toISOString(), invoice: mock.service.getInvoice(id) };
        const target = instances[(index + 1) % instances.length]!;
        const sent = performance.now();
        const posted = fetch(`${target.url}/notify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-notification-token': TOKEN },
          body: JSON.stringify(body),
        });
        const event = await streams[index]!.reader.nextEvent(5000);
        samples.push(performance.now() - sent);
        onSample?.(samples.at(-1)!);
        const answer = await posted;
        await answer.arrayBuffer();
        if (!event || !answer.ok) throw new Error(`latency: no event or a ${answer.status} answer for ${id}`);
      }
    }
  } finally {
    for (const { reader, controller } of streams) {
      controller.abort();
      await reader.close();
    }
  }
  return { samples: samples.length, p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), max: Math.max(...samples) };
};

/** Opens one raw SSE connection (with `headers`, CRLF-terminated lines) and resolves once its first event arrived. */
export const openIdle = (url: URL, id: string, headers = ''): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(20_000, () => fail(new Error('no first event within 20 s')));
    socket.once('error', fail);
    socket.once('connect', () =>
      socket.write(`GET /checkout-api/invoices/${id}/events HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n${headers}\r\n`),
    );
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('event: invoice')) {
        socket.off('data', onData);
        socket.setTimeout(0);
        socket.off('error', fail);
        socket.on('error', () => undefined);
        // Heartbeats keep coming; reading them costs nothing worth measuring here.
        socket.on('data', () => undefined);
        resolve(socket);
      }
    };
    socket.on('data', onData);
  });

const idle = async (
  instance: { url: string },
  ids: string[],
  want = IDLE_STREAMS_GOAL,
  snapshots?: { before: string; after: string },
): Promise<IdleFigures> => {
  const limit = fileLimit();
  // This process and the instance each need a descriptor per stream, plus a few hundred of their own.
  const asked = limit === undefined ? want : Math.min(want, limit - 300);
  const url = new URL(instance.url);
  const sockets: Socket[] = [];
  try {
    // Warm: the watches exist and the code has run, so what grows is the streams themselves.
    for (const id of ids) sockets.push(await openIdle(url, id));
    const before = await stats(instance);
    if (snapshots) await fetch(`${instance.url}/snapshot?file=${encodeURIComponent(snapshots.before)}`);
    const started = Date.now();
    for (let opened = sockets.length; opened < asked;) {
      const batch = Math.min(200, asked - opened);
      sockets.push(...(await Promise.all(Array.from({ length: batch }, (_, index) => openIdle(url, ids[(opened + index) % ids.length]!)))));
      opened += batch;
    }
    const openSeconds = (Date.now() - started) / 1000;
    await sleep(1000);
    const after = await stats(instance);
    if (snapshots) await fetch(`${instance.url}/snapshot?file=${encodeURIComponent(snapshots.after)}`);
    const added = sockets.length - ids.length;
    return {
      asked,
      opened: sockets.length,
      fdLimit: limit,
      rssBefore: before.rss,
      rssAfter: after.rss,
      heapBefore: before.heapUsed,
      heapAfter: after.heapUsed,
      perStream: (after.rss - before.rss) / added,
      openSeconds,
    };
  } finally {
    for (const socket of sockets) socket.destroy();
  }
};

/** `count` idle streams held by a fresh holder process of `kind`; optionally heap snapshots before and after. */
const holdIdle = async (
  mock: MockServer,
  ids: string[],
  kind: 'kit' | 'floor',
  count = IDLE_STREAMS_GOAL,
  snapshots?: { before: string; after: string },
) => {
  const holder = await startHolder(mock, kind);
  try {
    const held = await idle(holder, ids, count, snapshots);
    log(
      `events: ${kind === 'floor' ? 'bare node:http floor, ' : ''}${held.opened} idle streams, ${((held.rssAfter - held.rssBefore) / 1e6).toFixed(1)} MB more RSS (${(held.perStream / 1000).toFixed(1)} KB each), heap ${((held.heapAfter - held.heapBefore) / 1e6).toFixed(1)} MB (${((held.heapAfter - held.heapBefore) / (held.opened - ids.length) / 1000).toFixed(1)} KB each)`,
    );
    return held;
  } finally {
    await holder.stop();
  }
};

/**
 * Only the idle streams (`node --import tsx bench/events.ts idle [count] [--floor] [--only-floor] [--snapshot]`):
 * the kit's holder, with `--floor` also the bare node:http floor, with `--snapshot` heap
 * snapshots before and after in bench/.out/idle-{kit,floor}-{before,after}.heapsnapshot
 * (compare them with bench/heap-breakdown.ts).
 */
export const runIdleOnly = async (
  count = IDLE_STREAMS_GOAL,
  options: { floor?: boolean; snapshot?: boolean; only?: 'kit' | 'floor' } = {},
) => {
  const mock = await startMockServer({ merchants: [MERCHANT], controls: false, port: 0 });
  const client = new MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey });
  try {
    const ids = await createInvoices(client, INVOICES);
    const out = fileURLToPath(new URL('./.out/', import.meta.url));
    const snapshots = (kind: string) =>
      options.snapshot ? { before: `${out}idle-${kind}-before.heapsnapshot`, after: `${out}idle-${kind}-after.heapsnapshot` } : undefined;
    const kit = options.only === 'floor' ? undefined : await holdIdle(mock, ids, 'kit', count, snapshots('kit'));
    const floor = options.floor || options.only === 'floor' ? await holdIdle(mock, ids, 'floor', count, snapshots('floor')) : undefined;
    return { kit, floor };
  } finally {
    await mock.close();
  }
};

export const runEvents = async (): Promise<EventsResult> => {
  const mock = await startMockServer({ merchants: [MERCHANT], controls: false, port: 0 });
  const client = new MerchantClient({ baseUrl: mock.url, apiKey: MERCHANT.apiKey, secretKey: MERCHANT.secretKey });
  let redis: RedisProcess | undefined;
  const running: Cluster[] = [];
  try {
    const ids = await createInvoices(client, INVOICES);

    let one = await cluster(mock, 1);
    running.push(one);
    log(`events: polling, ${PAYERS} payers over ${INVOICES} invoices every ${POLL_INTERVAL_MS / 1000} s for ${WINDOW_SECONDS} s`);
    const polled = await polling(one.instances[0]!, ids);
    log(`events: polling made ${polled.calls} upstream calls (${polled.received} answers, ${polled.errors} errors)`);
    await one.stop();

    one = await cluster(mock, 1);
    running.push(one);
    log(`events: streaming, ${PAYERS} SSE connections for ${WINDOW_SECONDS} s`);
    const streamed = await streaming(one.instances[0]!, ids);
    log(`events: streaming made ${streamed.calls} upstream calls (${streamed.received} events, ${streamed.errors} errors)`);

    const latencyIds = ids.slice(0, 50);
    const single = await latency(mock, one.instances, latencyIds);
    log(`events: latency, one instance: p50 ${single.p50.toFixed(2)} ms, p99 ${single.p99.toFixed(2)} ms`);
    await one.stop();

    redis = await startRedis();
    const three = await cluster(mock, 3, redis);
    running.push(three);
    const clustered = await latency(mock, three.instances, ids.slice(50, 100));
    log(`events: latency, three instances behind Redis: p50 ${clustered.p50.toFixed(2)} ms, p99 ${clustered.p99.toFixed(2)} ms`);
    await three.stop();

    const held = await holdIdle(mock, ids, 'kit');
    const floor = await holdIdle(mock, ids, 'floor');

    return {
      upstream: {
        payers: PAYERS,
        invoices: INVOICES,
        seconds: WINDOW_SECONDS,
        pollIntervalMs: POLL_INTERVAL_MS,
        refreshIntervalMs: DEFAULT_REFRESH_INTERVAL_MS,
        polling: polled,
        streaming: streamed,
        ratio: polled.calls / Math.max(1, streamed.calls),
      },
      latency: { single, cluster: clustered },
      idle: { ...held, floor },
    };
  } finally {
    for (const each of running) await each.stop();
    await redis?.stop();
    await mock.close();
  }
};

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  if (process.argv[2] === 'idle') {
    const count = Number(process.argv.find((each) => /^\d+$/.test(each)) ?? IDLE_STREAMS_GOAL);
    const options = {
      floor: process.argv.includes('--floor'),
      snapshot: process.argv.includes('--snapshot'),
      ...(process.argv.includes('--only-floor') ? { only: 'floor' as const } : {}),
    };
    console.log(JSON.stringify(await runIdleOnly(count, options), null, 2));
  } else {
    console.log(JSON.stringify(await runEvents(), null, 2));
  }
}
