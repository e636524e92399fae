/**
 * The shop the runtimes test (test/e2e/runtimes.test.ts) runs on Bun, Deno and workerd: the kit
 * of `merchant-checkout/server` with everything a shop mounts (the checkout at /checkout-api, the
 * notification receiver, the cron handler), answering with the runtime's own `Request` and
 * `Response`. Plain JavaScript, so that each runtime runs it as it is (workerd from a bundle).
 *
 * Besides the kit, four routes of the test's own, as a shop's back office would have them:
 * `POST /shop/invoices` creates an invoice through the kit's client (so the kit tracks it),
 * `POST /shop/reconcile?id=` asks the reconciler for one invoice now, `GET /shop/changes` lists
 * what `onChange` heard, `GET /shop/errors` what `onError` was told. `?kit=timer` sends the
 * first and the last to a second kit whose own timer reconciles (where the runtime keeps timers
 * between requests: not workerd). `drain` is what a scheduler's event calls (a Worker's
 * `scheduled` handler): the cron kit's `reconciler.drain({ budgetMs })`.
 */

/** Settings the test passes (environment variables, or a Worker's bindings). */
const SETTINGS = ['MOCK_URL', 'API_KEY', 'SECRET_KEY', 'NOTIFICATION_TOKEN', 'CRON_SECRET', 'SELF_URL', 'TIMER'];

/**
 * The cron kit's store on Bun and Deno, as `STORE` names it: `redis`, Redis at `REDIS_URL` under
 * `REDIS_PREFIX` (the `redis` package); `sqlite`, SQLite in the database `openSqlite()` opens (the
 * runtime's own binding).
 *
 * @param {Record<string, string | undefined>} env
 * @param {typeof import('merchant-checkout/redis')} redis
 * @param {typeof import('merchant-checkout/sqlite')} sqlite
 * @param {() => import('merchant-checkout/sqlite').SqliteDatabase} openSqlite
 */
export const storeOf = (env, redis, sqlite, openSqlite) =>
  env.STORE === 'redis'
    ? redis.createRedisStore({ url: env.REDIS_URL, prefix: env.REDIS_PREFIX, onError: (error) => console.error('redis store:', error) })
    : sqlite.createSqliteStore({ database: openSqlite() });

/**
 * @param {typeof import('merchant-checkout/server')} server the entry, as the runtime imported it
 * @param {Record<string, string | undefined>} env
 * @param {import('merchant-checkout/server').CheckoutStore | undefined} store the cron kit's store (the memory store when none)
 * @returns {{ fetch: (request: Request) => Promise<Response>, drain: (budgetMs: number) => Promise<unknown> }}
 */
export const shopApp = (server, env, store) => {
  for (const name of SETTINGS.slice(0, 6)) if (!env[name]) throw new TypeError(`the shop needs ${name}`);
  /** @type {{ kit: string, invoiceId: string, source: string, verified: boolean, status: string }[]} */
  const changes = [];
  /** @type {string[]} */
  const errors = [];
  const makeKit = (name, reconcile, kitStore) => {
    const client = new server.MerchantClient({ baseUrl: env.MOCK_URL, apiKey: env.API_KEY, secretKey: env.SECRET_KEY });
    const kit = server.createCheckoutServer({
      client,
      basePath: '/checkout-api',
      authorize: () => true,
      notifications: { token: env.NOTIFICATION_TOKEN, path: `/${name}/notify` },
      cron: { secret: env.CRON_SECRET, path: `/${name}/cron` },
      onChange: (change) => {
        changes.push({
          kit: name,
          invoiceId: change.invoiceId,
          source: change.source,
          verified: change.verified,
          status: change.invoice.status,
        });
      },
      reconcile,
      // What failed, in the runtime's output (the test prints it when the process fails to start).
      onError: (error, context) => {
        errors.push(`${name} kit, ${context.source}: ${error?.message ?? error}`);
        console.error(`${name} kit:`, error);
      },
      store: kitStore ?? server.createMemoryStore(),
    });
    return { name, kit, client };
  };
  // Four reads a second of each open invoice (one a minute by default), so a test finds a lost payment at once.
  const cronKit = makeKit('cron', { timer: false, openIntervalMs: 250 }, store);
  const timerKit = env.TIMER === '1' ? makeKit('timer', { timer: true, openIntervalMs: 250, tickMs: 200 }) : undefined;

  const json = (body, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = async (request) => {
    const url = new URL(request.url);
    const chosen = url.searchParams.get('kit') === 'timer' ? timerKit : cronKit;
    if (url.pathname.startsWith('/shop/') && !chosen) return json({ error: 'this runtime has no timer kit' }, 404);
    if (url.pathname === '/shop/invoices' && request.method === 'POST') {
      const { startDeal = false, lost = false } = await request.json();
      const invoice = await chosen.client.createInvoice({
        type: 'in',
        amount: '1500.00',
        currency: 'RUB',
        notificationUrl: `${env.SELF_URL}/${lost ? 'nowhere' : chosen.name + '/notify'}`,
        notificationToken: env.NOTIFICATION_TOKEN,
        internalId: `order-${crypto.randomUUID()}`,
        startDeal,
      });
      return json({ id: invoice.id });
    }
    if (url.pathname === '/shop/reconcile' && request.method === 'POST') {
      return json(await chosen.kit.reconciler.reconcile({ ids: [url.searchParams.get('id')] }));
    }
    if (url.pathname === '/shop/changes') return json(changes);
    if (url.pathname === '/shop/errors') return json(errors);
    if (url.pathname.startsWith('/timer/') && timerKit) return timerKit.kit.fetch(request);
    return cronKit.kit.fetch(request);
  };
  return { fetch, drain: (budgetMs) => cronKit.kit.reconciler.drain({ budgetMs }) };
};
