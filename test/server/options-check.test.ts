/**
 * Options checked at construction (issue 37, point 5): every public factory refuses a key it
 * does not know with a `TypeError` naming the key and the right spelling, when it is called
 * from JavaScript (the options cast through `unknown`, as a spread or a `JSON.parse` would
 * hand them). A key one level off is told where it belongs (`token` → `notifications: { token }`),
 * a misspelt one its nearest option. The last tests hold every function of every Node entry of
 * package.json (server, Redis, SQLite, mock) to the check, so a new factory, or a new entry,
 * cannot skip it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { inspect } from 'node:util';
import * as mockEntry from '../../src/mock/index.js';
import * as redisEntry from '../../src/server/redis.js';
import * as serverEntry from '../../src/server/node.js';
import * as sqliteEntry from '../../src/server/sqlite.js';
import {
  MerchantClient,
  checkoutTokenAuthorizer,
  createCheckoutHandler,
  createCheckoutServer,
  createMemoryStore,
  createNodeFetch,
  createNodeServer,
  createNotificationHandler,
  createWebhookSender,
  createJournalConsole,
  toNodeHandler,
} from '../../src/server/node.js';
import { createRedisStore } from '../../src/server/redis.js';
import { createSqliteStore } from '../../src/server/sqlite.js';
import { createMockService, startMockServer } from '../../src/mock/index.js';
import { startRedis, type RedisProcess } from '../support/redis-server.js';

/** Options as JavaScript hands them: no type checker between the shop's object and the factory. */
const untyped = <T>(options: unknown): T => options as T;

const client = new MerchantClient({ baseUrl: 'https://pay.example', apiKey: 'options-key', secretKey: 'options-secret' });
const authorize = () => true;
const MERCHANT = { apiKey: 'options-key', secretKey: 'options-secret', storeId: 1, storeName: 'Options Shop' };
const WEBHOOK_SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
const TOKEN_SECRET = 'options-check-token-secret';
const handler = () => new Response('ok');

/** Calls `make` and answers the `TypeError` it throws (failing when it throws none, or another error). */
const refusal = (make: () => unknown): string => {
  let thrown: unknown;
  try {
    make();
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof TypeError, `a TypeError, got ${inspect(thrown)}`);
  return thrown.message;
};

describe('createCheckoutServer', () => {
  const kit = (extra: Record<string, unknown>) => createCheckoutServer(untyped({ client, authorize, reconcile: false, ...extra }));

  test('the notification token at the top level is refused, naming where it belongs', () => {
    assert.equal(
      refusal(() => kit({ token: 'notification-token' })),
      'createCheckoutServer: `token` belongs in `notifications: { token }`, not at the top level',
    );
    for (const [key, place] of [
      ['path', '`notifications: { path }`'],
      ['verify', '`notifications: { verify }`'],
      ['tickMs', '`reconcile: { tickMs }`'],
      ['openIntervalMs', '`reconcile: { openIntervalMs }`'],
      ['origins', '`cors: { origins }`'],
      ['heartbeatMs', '`events: { heartbeatMs }`'],
      ['header', '`notifications: { tokenFrom: { header } }`'],
      ['apiKey', '`client: new MerchantClient({ apiKey })`'],
      ['maxEntries', '`store: createMemoryStore({ maxEntries })`'],
    ] as const) {
      assert.match(
        refusal(() => kit({ [key]: 1 })),
        new RegExp(`\`${key}\` belongs in ${place.replace(/[{}()]/g, '\\$&')}`),
        key,
      );
    }
  });

  test('a key of the top level inside a nested object, or of one nested object in another, is told where it belongs', () => {
    assert.equal(
      refusal(() => kit({ notifications: { token: 't', onChange: () => undefined } })),
      'createCheckoutServer: `notifications.onChange` belongs at the top level (`{ onChange }`), not in `notifications`',
    );
    assert.equal(
      refusal(() => kit({ reconcile: { token: 't' } })),
      'createCheckoutServer: `reconcile.token` belongs in `notifications: { token }`, not in `reconcile`',
    );
    assert.match(
      refusal(() => kit({ reconcile: { maxBodyBytes: 1 } })),
      /`reconcile.maxBodyBytes` belongs at the top level \(`\{ maxBodyBytes \}`\) or in `notifications: \{ maxBodyBytes \}`/,
    );
  });

  test('a misspelt key names the nearest option, at its level or elsewhere', () => {
    assert.equal(
      refusal(() => kit({ onchange: () => undefined })),
      '`onchange` is not an option of createCheckoutServer; did you mean `onChange`?',
    );
    assert.equal(
      refusal(() => kit({ handlerTimeout: 5 })),
      '`handlerTimeout` is not an option of createCheckoutServer; did you mean `handlerTimeoutMs`?',
    );
    assert.equal(
      refusal(() => kit({ notifications: { tokn: 't' } })),
      '`notifications.tokn` is not an option of createCheckoutServer; did you mean `notifications.token`?',
    );
    assert.equal(
      refusal(() => kit({ notifications: { token: 't', tokenFrom: { heder: 'X-Token' } } })),
      '`notifications.tokenFrom.heder` is not an option of createCheckoutServer; did you mean `notifications.tokenFrom.header`?',
    );
    assert.equal(
      refusal(() => kit({ tokn: 't' })),
      '`tokn` is not an option of createCheckoutServer; did you mean `notifications: { token }`?',
    );
    assert.equal(
      refusal(() => kit({ cors: { origin: ['https://shop.example'] } })),
      '`cors.origin` is not an option of createCheckoutServer; did you mean `cors.origins`?',
    );
  });

  test('an unknown key is refused with the options listed; every unknown key is named; undefined known keys pass', async () => {
    const message = refusal(() => kit({ shopName: 'Tea', notifications: { token: 't', colour: 'red' } }));
    assert.match(
      message,
      /^`shopName` is not an option of createCheckoutServer; its options are client, clientFor, authorize, .*notifications, reconcile, cron, now, journal$/m,
    );
    assert.match(
      message,
      /^`notifications.colour` is not an option of createCheckoutServer; `notifications` takes token, tokenFrom, verify, .*path$/m,
    );
    const built = kit({ notifications: undefined, cors: undefined, events: undefined, store: undefined, onChange: undefined });
    await built.close();
  });

  test('options that are not an object are a TypeError too', () => {
    for (const value of [null, 'client', 42, [client]]) {
      assert.match(
        refusal(() => createCheckoutServer(untyped(value))),
        /^createCheckoutServer: its options must be an object, got (null|string|number|an array)$/,
      );
    }
  });
});

describe('the other factories', () => {
  test('createCheckoutHandler: unknown, misplaced, misspelt, and nested in cors and events', () => {
    const make = (extra: Record<string, unknown>) => () => createCheckoutHandler(untyped({ client, authorize, ...extra }));
    assert.match(refusal(make({ greeting: 'hi' })), /^`greeting` is not an option of createCheckoutHandler; its options are client, /);
    assert.equal(
      refusal(make({ allowHeaders: ['X-Token'] })),
      'createCheckoutHandler: `allowHeaders` belongs in `cors: { allowHeaders }`, not at the top level',
    );
    assert.equal(
      refusal(make({ authorise: authorize })),
      '`authorise` is not an option of createCheckoutHandler; did you mean `authorize`?',
    );
    assert.equal(
      refusal(make({ events: { heartbeat: 1000 } })),
      '`events.heartbeat` is not an option of createCheckoutHandler; did you mean `events.heartbeatMs`?',
    );
    assert.equal(
      refusal(make({ cors: { origins: ['https://shop.example'], maxAge: 60 } })),
      '`cors.maxAge` is not an option of createCheckoutHandler; did you mean `cors.maxAgeSeconds`?',
    );
  });

  test('createNotificationHandler: unknown, misplaced into tokenFrom, misspelt', () => {
    const make = (extra: Record<string, unknown>) => () =>
      createNotificationHandler(untyped({ token: 't', verify: false, onChange: () => undefined, ...extra }));
    assert.match(
      refusal(make({ path: '/notify' })),
      /^`path` is not an option of createNotificationHandler; its options are token, tokenFrom, /,
    );
    assert.equal(
      refusal(make({ query: 'token' })),
      'createNotificationHandler: `query` belongs in `tokenFrom: { query }`, not at the top level',
    );
    assert.equal(
      refusal(make({ handlerTimeout: 1 })),
      '`handlerTimeout` is not an option of createNotificationHandler; did you mean `handlerTimeoutMs`?',
    );
    assert.equal(
      refusal(make({ secretKey: 's' })),
      'createNotificationHandler: `secretKey` belongs in `client: new MerchantClient({ secretKey })`, not at the top level',
    );
  });

  test('`client` is read alike by every factory that takes one: a client or a non-empty array of them', () => {
    const factories = {
      createCheckoutServer: (given: unknown) => createCheckoutServer(untyped({ client: given, authorize, reconcile: false })),
      createCheckoutHandler: (given: unknown) => createCheckoutHandler(untyped({ client: given, authorize })),
      createNotificationHandler: (given: unknown) =>
        createNotificationHandler(untyped({ client: given, token: 't', onChange: () => undefined })),
    };
    for (const [who, make] of Object.entries(factories)) {
      for (const given of [[], 'a client', [client, {}], { apiKey: 'k', secretKey: 's' }, null]) {
        assert.throws(
          () => make(given),
          { name: 'TypeError', message: `${who}: client must be a MerchantClient or a non-empty array of them` },
          `${who} with ${inspect(given)}`,
        );
      }
      assert.doesNotThrow(() => make([client, client]), who);
    }
    // Only the receiver can do without one, when it takes notifications at their word.
    assert.doesNotThrow(() => createNotificationHandler({ token: 't', verify: false, onChange: () => undefined }));
  });

  test('MerchantClient: a terminal of the mock is not a client; misspelt keys name the right one', () => {
    assert.match(
      refusal(() => new MerchantClient(untyped({ baseUrl: 'https://pay.example', ...MERCHANT }))),
      /^`storeId` is not an option of MerchantClient; its options are baseUrl, apiKey, secretKey, fetch, timeoutMs, maxResponseBytes$/m,
    );
    assert.equal(
      refusal(() => new MerchantClient(untyped({ url: 'https://pay.example', apiKey: 'k', secretKey: 's' }))),
      '`url` is not an option of MerchantClient; did you mean `baseUrl`?',
    );
    assert.equal(
      refusal(() => new MerchantClient(untyped({ baseUrl: 'https://pay.example', apiKey: 'k', secretkey: 's' }))),
      '`secretkey` is not an option of MerchantClient; did you mean `secretKey`?',
    );
    assert.equal(
      refusal(() => new MerchantClient(untyped('https://pay.example'))),
      'MerchantClient: its options must be an object, got string',
    );
  });

  test('the stores: createMemoryStore, createRedisStore and createSqliteStore', () => {
    assert.equal(
      refusal(() => createMemoryStore(untyped({ maxEntrys: 10 }))),
      '`maxEntrys` is not an option of createMemoryStore; did you mean `maxEntries`?',
    );
    assert.match(
      refusal(() => createMemoryStore(untyped({ ttlMs: 10 }))),
      /^`ttlMs` is not an option of createMemoryStore; its options are maxEntries, maxBooks/,
    );
    assert.equal(
      refusal(() => createMemoryStore(untyped(null))),
      'createMemoryStore: its options must be an object, got null',
    );
    assert.equal(
      refusal(() => createRedisStore(untyped({ url: 'redis://127.0.0.1:1', prefx: 'shop:' }))),
      '`prefx` is not an option of createRedisStore; did you mean `prefix`?',
    );
    assert.equal(
      refusal(() => createSqliteStore(untyped({ path: join(folder, 'never.db'), booksTtl: 1 }))),
      '`booksTtl` is not an option of createSqliteStore; did you mean `booksTtlMs`?',
    );
    assert.match(
      refusal(() => createSqliteStore(untyped({ file: join(folder, 'never.db') }))),
      /^`file` is not an option of createSqliteStore; its options are path, database, /,
    );
    assert.equal(
      refusal(() => createSqliteStore(untyped('checkout.db'))),
      'createSqliteStore: its options must be an object, got string',
    );
    assert.match(
      refusal(() => createRedisStore(untyped({ url: 'redis://127.0.0.1:1', database: 2 }))),
      /^`database` is not an option of createRedisStore; its options are url, client, prefix, /,
    );
  });

  test('the Node adapter: toNodeHandler and createNodeServer, and createNodeFetch', () => {
    assert.equal(
      refusal(() => toNodeHandler(handler, untyped({ maxBodyByte: 1 }))),
      '`maxBodyByte` is not an option of toNodeHandler; did you mean `maxBodyBytes`?',
    );
    assert.equal(
      refusal(() => toNodeHandler(handler, untyped({ headersTimeoutMs: 1 }))),
      '`headersTimeoutMs` is not an option of toNodeHandler; its options are maxBodyBytes, bodyTimeoutMs, basePath, trustProxy',
    );
    assert.equal(
      refusal(() => createNodeServer(handler, untyped({ keepAliveTimeout: 1 }))),
      '`keepAliveTimeout` is not an option of createNodeServer; did you mean `keepAliveTimeoutMs`?',
    );
    assert.match(
      refusal(() => createNodeServer(handler, untyped({ port: 3000 }))),
      /^`port` is not an option of createNodeServer; its options are maxBodyBytes, bodyTimeoutMs, basePath, trustProxy, headersTimeoutMs/,
    );
    assert.equal(
      refusal(() => createNodeFetch(untyped({ maxSocket: 8 }))),
      '`maxSocket` is not an option of createNodeFetch; did you mean `maxSockets`?',
    );
  });

  test('createWebhookSender and checkoutTokenAuthorizer', () => {
    const store = createMemoryStore();
    const sender = (extra: Record<string, unknown>) => () =>
      createWebhookSender(untyped({ store, url: 'https://shop.example/webhooks', secret: WEBHOOK_SECRET, ...extra }));
    assert.equal(
      refusal(sender({ retryDelays: [1] })),
      '`retryDelays` is not an option of createWebhookSender; did you mean `retryDelaysMs`?',
    );
    assert.match(
      refusal(sender({ events: ['invoice.paid'] })),
      /^`events` is not an option of createWebhookSender; its options are store, url, secret, /,
    );
    assert.equal(
      refusal(() => checkoutTokenAuthorizer(TOKEN_SECRET, untyped({ onRefuse: () => undefined }))),
      '`onRefuse` is not an option of checkoutTokenAuthorizer; did you mean `onRefused`?',
    );
    assert.equal(
      refusal(() => checkoutTokenAuthorizer(TOKEN_SECRET, untyped({ header: 'X-Token' }))),
      '`header` is not an option of checkoutTokenAuthorizer; its options are now, onRefused',
    );
  });

  test('the mock: createMockService and startMockServer, a terminal in merchants checked too', () => {
    const service = (extra: Record<string, unknown>) => () =>
      createMockService(untyped({ merchants: [MERCHANT], publicBaseUrl: 'https://pay.example', ...extra }));
    assert.equal(
      refusal(() => createMockService(untyped({ merchants: [{ ...MERCHANT, storeNmae: 'Tea' }], publicBaseUrl: 'https://pay.example' }))),
      '`merchants[0].storeNmae` is not an option of createMockService; did you mean `merchants[0].storeName`?',
    );
    assert.equal(
      refusal(service({ balance: '5' })),
      'createMockService: `balance` belongs in `merchants: [{ balance }]`, not at the top level',
    );
    assert.equal(
      refusal(service({ notificationRetry: { attempt: 2 } })),
      '`notificationRetry.attempt` is not an option of createMockService; did you mean `notificationRetry.attempts`?',
    );
    assert.match(
      refusal(service({ port: 0 })),
      /^`port` is not an option of createMockService; its options are merchants, publicBaseUrl, /,
    );
    return assert.rejects(
      startMockServer(untyped({ merchants: [MERCHANT], prot: 0 })),
      (error: unknown) =>
        error instanceof TypeError && error.message === '`prot` is not an option of startMockServer; did you mean `port`?',
    );
  });
});

/**
 * Every function each entry exports: how to call it with its required options and an extra
 * key (a factory), or why it takes no options object. A new export fails the first test below
 * until it is added here; a factory listed here fails the second unless it checks its options.
 */
type Probe = (extra: Record<string, unknown>) => unknown;
let redis: RedisProcess;
/** A folder for the SQLite files the probes make. */
const folder = mkdtempSync(join(tmpdir(), 'options-check-'));
after(() => rmSync(folder, { recursive: true, force: true }));
const ENTRIES: Record<string, { module: Record<string, unknown>; functions: Record<string, Probe | string> }> = {
  'merchant-checkout/server': {
    module: serverEntry,
    functions: {
      MerchantClient: (extra) => new MerchantClient(untyped({ baseUrl: 'https://pay.example', apiKey: 'k', secretKey: 's', ...extra })),
      createCheckoutServer: (extra) => createCheckoutServer(untyped({ client, authorize, ...extra })),
      createCheckoutHandler: (extra) => createCheckoutHandler(untyped({ client, authorize, ...extra })),
      createNotificationHandler: (extra) => createNotificationHandler(untyped({ token: 't', client, onChange: () => undefined, ...extra })),
      createMemoryStore: (extra) => createMemoryStore(untyped(extra)),
      toNodeHandler: (extra) => toNodeHandler(handler, untyped(extra)),
      createNodeServer: (extra) => createNodeServer(handler, untyped(extra)),
      createNodeFetch: (extra) => createNodeFetch(untyped(extra)),
      createWebhookSender: (extra) =>
        createWebhookSender(
          untyped({ store: createMemoryStore(), url: 'https://shop.example/webhooks', secret: WEBHOOK_SECRET, ...extra }),
        ),
      checkoutTokenAuthorizer: (extra) => checkoutTokenAuthorizer(TOKEN_SECRET, untyped(extra)),
      createJournalConsole: (extra) =>
        createJournalConsole(
          untyped({ kit: createCheckoutServer({ client, authorize, reconcile: false }), key: 'k'.repeat(16), ...extra }),
        ),
      journalAnswer: 'takes a journal and the id asked (data, not options)',
      journalWebhookAttempt: 'takes a journal',
      forwardedClient: 'takes a request',
      maskRequisites: 'takes the requisites text',
      createInvoiceReader: 'takes the list of clients, no options object',
      signRequest: 'takes a request and a secret key',
      verifySignature: 'takes a request, a signature and a secret key',
      stringToSign: 'takes a request',
      webPlatform: 'takes nothing: the Web platform of this runtime',
      nodePlatform: "takes nothing: Node's platform",
      signCheckoutToken: 'takes a secret, an invoice id and an expiry',
      verifyCheckoutToken: 'takes secrets, a token, an invoice id and a time',
      signWebhook: 'takes a secret, an id, a time and a body',
      webhookBody: 'takes a change and a time',
      projectInvoice: "a projection of an invoice (its second argument is the projection's extra fields, data, not options)",
      projectCanceledInvoice: 'a projection of an invoice',
      projectDeal: 'a projection of a deal',
      projectVariants: 'a projection of the variants',
      classifyServiceError: "reads the service's error text",
      serviceErrorMessages: "reads the service's error body",
      readServiceError: "reads the service's error body",
      isServiceErrorCode: 'a type guard',
      MerchantClientError: 'an error class',
      MerchantApiError: 'an error class',
      MerchantValidationError: 'an error class',
      MerchantResponseError: 'an error class',
      MerchantTimeoutError: 'an error class',
      MerchantTrackingError: 'an error class',
      MerchantNetworkError: 'an error class',
      CheckoutHttpError: "an error class (its third argument is the standard ErrorOptions' cause)",
      PayloadTooLargeError: 'an error class',
      ChangeHandlerTimeoutError: 'an error class',
      BooksBusyError: 'an error class',
    },
  },
  'merchant-checkout/redis': {
    module: redisEntry,
    functions: {
      createRedisStore: (extra) => createRedisStore(untyped({ url: redis.url, prefix: 'options-check:', ...extra })),
      RedisSettingWarning: 'an error class (a setting of Redis that can lose data)',
    },
  },
  'merchant-checkout/sqlite': {
    module: sqliteEntry,
    functions: { createSqliteStore: (extra) => createSqliteStore(untyped({ path: join(folder, `${crypto.randomUUID()}.db`), ...extra })) },
  },
  'merchant-checkout/mock': {
    module: mockEntry,
    functions: {
      createMockService: (extra) => createMockService(untyped({ merchants: [MERCHANT], publicBaseUrl: 'https://pay.example', ...extra })),
      startMockServer: (extra) => startMockServer(untyped({ merchants: [MERCHANT], ...extra })),
      MockControlError: 'an error class',
    },
  },
};

/** Lets go of what a probe made without the extra key (a kit, a store, a mock, a server). */
const release = async (made: unknown) => {
  const value = await made;
  if (typeof value === 'object' && value !== null && 'close' in value && typeof value.close === 'function') {
    // A `node:http` server that never listened has nothing to close (its close would throw).
    if ('listening' in value && value.listening === false) return;
    await (value as { close(): unknown }).close();
  }
};

describe('every factory of every entry checks its options', () => {
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  test('each function an entry exports is listed: with how to call it, or why it takes no options', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, string | { default?: string }>;
    };
    const nodeEntries = Object.entries(manifest.exports)
      .filter(([, target]) => typeof target === 'object' && target.default?.startsWith('./dist/node/'))
      .map(([path]) => `merchant-checkout${path.slice(1)}`)
      .sort();
    assert.deepEqual(Object.keys(ENTRIES).sort(), nodeEntries, "package.json's Node entries: add each new one to ENTRIES in this test");
    for (const [entry, { module, functions }] of Object.entries(ENTRIES)) {
      const exported = Object.entries(module)
        .filter(([, value]) => typeof value === 'function')
        .map(([name]) => name)
        .sort();
      assert.deepEqual(Object.keys(functions).sort(), exported, `${entry}: add each new function to ENTRIES in this test`);
    }
  });

  test('each factory builds with its required options and refuses them with an unknown key, naming it', async () => {
    let factories = 0;
    for (const [entry, { functions }] of Object.entries(ENTRIES)) {
      for (const [name, probe] of Object.entries(functions)) {
        if (typeof probe === 'string') continue;
        factories++;
        await release(probe({}));
        let thrown: unknown;
        try {
          await probe({ __unknownOptionProbe: 1 });
        } catch (error) {
          thrown = error;
        }
        assert.ok(thrown instanceof TypeError, `${entry} ${name}: an unknown option is a TypeError, got ${inspect(thrown)}`);
        assert.match(
          thrown.message,
          new RegExp(`^\`__unknownOptionProbe\` is not an option of ${name}; its options are `),
          `${entry} ${name}`,
        );
      }
    }
    assert.equal(factories, 15, 'the factories of the four entries');
  });
});
