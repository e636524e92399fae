/**
 * What `npm publish` would ship, checked on the build (`npm run build` first; the e2e suite
 * builds). The file list of `npm pack --dry-run` is compared with an explicit list, so a stray
 * or missing file fails (the CDN build's lazy chunks by their naming rule, see
 * `CDN_CHUNK`); every shipped file's references (imports, `sourceMappingURL`, the
 * manifest's paths, package.json's entries) resolve inside the package; `publint` (strict,
 * suggestions included) and `@arethetypeswrong/cli` pass on the packed tarball. attw runs
 * with the profile `esm-only`: the package is ES modules only (`"type": "module"`, no
 * `require` condition), so the `node10` and `node16 (from CJS)` resolutions it would
 * otherwise grade are not offered. Every other resolution (`node16` from ESM, `bundler`)
 * must be clean.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { packTarball, packedFiles } from './support/pack.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  license: string;
  files: string[];
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  exports: Record<string, string | Record<string, string>>;
  bin: Record<string, string>;
  main: string;
  module: string;
  types: string;
  customElements: string;
  sideEffects: string[];
};

/**
 * Everything the package ships but the CDN build's lazy chunks. A new module under src/ adds
 * its `.js` (element, React, schemas: the ES build keeps one file per module) and its `.d.ts`
 * here; anything else that shows up is a mistake to fix in package.json `files` or
 * scripts/build.js.
 */
const EXPECTED_FILES = `
  CHANGELOG.md
  LICENSE
  README.md
  custom-elements.json
  dist/cdn/integrity.json
  dist/cdn/merchant-checkout.js
  dist/esm/_virtual/decorate.js
  dist/esm/define.js
  dist/esm/element/banks/directory.js
  dist/esm/element/banks/humanize.js
  dist/esm/element/banks/lettermark.js
  dist/esm/element/banks/picker-view.js
  dist/esm/element/banks/sbp.js
  dist/esm/element/controllers/after-paint.js
  dist/esm/element/controllers/countdown-controller.js
  dist/esm/element/controllers/focus-controller.js
  dist/esm/element/controllers/lazy-module.js
  dist/esm/element/controllers/lazy-parts-controller.js
  dist/esm/element/controllers/poll-controller.js
  dist/esm/element/controllers/presence-controller.js
  dist/esm/element/controllers/stream-controller.js
  dist/esm/element/copy.js
  dist/esm/element/deadline.js
  dist/esm/element/events.js
  dist/esm/element/format.js
  dist/esm/element/i18n/az.js
  dist/esm/element/i18n/bn.js
  dist/esm/element/i18n/boot.js
  dist/esm/element/i18n/en.js
  dist/esm/element/i18n/es.js
  dist/esm/element/i18n/kk.js
  dist/esm/element/i18n/ko.js
  dist/esm/element/i18n/ky.js
  dist/esm/element/i18n/lang.js
  dist/esm/element/i18n/languages.js
  dist/esm/element/i18n/locale.js
  dist/esm/element/i18n/ru.js
  dist/esm/element/i18n/tg.js
  dist/esm/element/i18n/translation.js
  dist/esm/element/i18n/uz.js
  dist/esm/element/journey/form-requests.js
  dist/esm/element/journey/forms.js
  dist/esm/element/journey/strings.js
  dist/esm/element/merchant-checkout.js
  dist/esm/element/merchant-checkout.styles.js
  dist/esm/element/poll-policy.js
  dist/esm/element/protocol-client.js
  dist/esm/element/protocol-uploads.js
  dist/esm/element/qr-matrix.js
  dist/esm/element/qr.js
  dist/esm/element/register.js
  dist/esm/element/screen-state.js
  dist/esm/element/screen.js
  dist/esm/element/screen.styles.js
  dist/esm/element/session/announcements.js
  dist/esm/element/session/bank-names.js
  dist/esm/element/session/cancel-flow.js
  dist/esm/element/session/controller-hub.js
  dist/esm/element/session/copy-state.js
  dist/esm/element/session/invoice-session.js
  dist/esm/element/session/paid-memory.js
  dist/esm/element/session/payer-choices.js
  dist/esm/element/session/payer-forms.js
  dist/esm/element/session/server-clock.js
  dist/esm/element/session/session-events.js
  dist/esm/element/session/shop-return.js
  dist/esm/element/sse.js
  dist/esm/element/status.js
  dist/esm/element/stream-slots.js
  dist/esm/element/version.js
  dist/esm/element/view-deal.js
  dist/esm/element/view-fields.js
  dist/esm/element/view-loader.js
  dist/esm/element/view-parts.js
  dist/esm/element/views.js
  dist/esm/index.js
  dist/esm/react.js
  dist/esm/react/events.generated.js
  dist/esm/schemas.js
  dist/esm/schemas/browser.generated.js
  dist/esm/schemas/checkout-routes.js
  dist/esm/schemas/checkout.js
  dist/esm/schemas/dispute.js
  dist/esm/schemas/headers.js
  dist/esm/schemas/invoice.js
  dist/esm/schemas/json-schema.js
  dist/esm/schemas/notification.js
  dist/esm/schemas/operations.js
  dist/esm/schemas/patterns.js
  dist/esm/schemas/primitives.js
  dist/esm/schemas/requisites-kind.js
  dist/esm/schemas/responses.js
  dist/esm/schemas/service.js
  dist/esm/schemas/withdrawal.js
  dist/node/chunks/invoice.js
  dist/node/chunks/memory.js
  dist/node/chunks/platform.js
  dist/node/chunks/remember.js
  dist/node/chunks/runtime-seam.js
  dist/node/chunks/server.js
  dist/node/chunks/types.js
  dist/node/cli.js
  dist/node/mock-cli.js
  dist/node/mock.js
  dist/node/redis.js
  dist/node/server-web.js
  dist/node/server.js
  dist/node/sqlite.js
  dist/types/cli/args.d.ts
  dist/types/cli/bin.d.ts
  dist/types/cli/doctor.d.ts
  dist/types/cli/doctor/calls.d.ts
  dist/types/cli/doctor/checks.d.ts
  dist/types/cli/doctor/invoice.d.ts
  dist/types/cli/doctor/mock-options.d.ts
  dist/types/cli/doctor/shapes.d.ts
  dist/types/cli/main.d.ts
  dist/types/cli/reconcile.d.ts
  dist/types/cli/serve.d.ts
  dist/types/cli/simulate.d.ts
  dist/types/cli/table.d.ts
  dist/types/element/api.d.ts
  dist/types/element/banks/directory.d.ts
  dist/types/element/banks/humanize.d.ts
  dist/types/element/banks/lettermark.d.ts
  dist/types/element/banks/picker-view.d.ts
  dist/types/element/banks/sbp.d.ts
  dist/types/element/cdn.d.ts
  dist/types/element/controllers/after-paint.d.ts
  dist/types/element/controllers/countdown-controller.d.ts
  dist/types/element/controllers/focus-controller.d.ts
  dist/types/element/controllers/lazy-module.d.ts
  dist/types/element/controllers/lazy-parts-controller.d.ts
  dist/types/element/controllers/poll-controller.d.ts
  dist/types/element/controllers/presence-controller.d.ts
  dist/types/element/controllers/stream-controller.d.ts
  dist/types/element/copy.d.ts
  dist/types/element/deadline.d.ts
  dist/types/element/define.d.ts
  dist/types/element/events.d.ts
  dist/types/element/format.d.ts
  dist/types/element/i18n/az.d.ts
  dist/types/element/i18n/bn.d.ts
  dist/types/element/i18n/boot.d.ts
  dist/types/element/i18n/en.d.ts
  dist/types/element/i18n/es.d.ts
  dist/types/element/i18n/kk.d.ts
  dist/types/element/i18n/ko.d.ts
  dist/types/element/i18n/ky.d.ts
  dist/types/element/i18n/lang.d.ts
  dist/types/element/i18n/languages.d.ts
  dist/types/element/i18n/locale.d.ts
  dist/types/element/i18n/ru.d.ts
  dist/types/element/i18n/tg.d.ts
  dist/types/element/i18n/translation.d.ts
  dist/types/element/i18n/uz.d.ts
  dist/types/element/index.d.ts
  dist/types/element/journey/form-requests.d.ts
  dist/types/element/journey/forms.d.ts
  dist/types/element/journey/strings.d.ts
  dist/types/element/merchant-checkout.d.ts
  dist/types/element/merchant-checkout.styles.d.ts
  dist/types/element/poll-policy.d.ts
  dist/types/element/protocol-client.d.ts
  dist/types/element/protocol-uploads.d.ts
  dist/types/element/qr-matrix.d.ts
  dist/types/element/qr-segments.d.ts
  dist/types/element/qr.d.ts
  dist/types/element/register.d.ts
  dist/types/element/screen-model.d.ts
  dist/types/element/screen-state.d.ts
  dist/types/element/screen.d.ts
  dist/types/element/screen.styles.d.ts
  dist/types/element/session/announcements.d.ts
  dist/types/element/session/bank-names.d.ts
  dist/types/element/session/cancel-flow.d.ts
  dist/types/element/session/controller-hub.d.ts
  dist/types/element/session/copy-state.d.ts
  dist/types/element/session/invoice-session.d.ts
  dist/types/element/session/paid-memory.d.ts
  dist/types/element/session/payer-choices.d.ts
  dist/types/element/session/payer-forms.d.ts
  dist/types/element/session/server-clock.d.ts
  dist/types/element/session/session-events.d.ts
  dist/types/element/session/session-types.d.ts
  dist/types/element/session/shop-return.d.ts
  dist/types/element/sse.d.ts
  dist/types/element/status.d.ts
  dist/types/element/stream-slots.d.ts
  dist/types/element/version.d.ts
  dist/types/element/view-context.d.ts
  dist/types/element/view-deal.d.ts
  dist/types/element/view-fields.d.ts
  dist/types/element/view-loader.d.ts
  dist/types/element/view-parts.d.ts
  dist/types/element/views.d.ts
  dist/types/gateway/app.d.ts
  dist/types/gateway/env.d.ts
  dist/types/gateway/journal.d.ts
  dist/types/gateway/server.d.ts
  dist/types/gateway/settings.d.ts
  dist/types/mock/api.d.ts
  dist/types/mock/app.d.ts
  dist/types/mock/banks.d.ts
  dist/types/mock/cli-flags.d.ts
  dist/types/mock/cli.d.ts
  dist/types/mock/clock.d.ts
  dist/types/mock/controls.d.ts
  dist/types/mock/dto.d.ts
  dist/types/mock/errors.d.ts
  dist/types/mock/faults.d.ts
  dist/types/mock/fixtures.d.ts
  dist/types/mock/http.d.ts
  dist/types/mock/index.d.ts
  dist/types/mock/ledger.d.ts
  dist/types/mock/merchants.d.ts
  dist/types/mock/money-controls.d.ts
  dist/types/mock/money.d.ts
  dist/types/mock/notifier.d.ts
  dist/types/mock/options.d.ts
  dist/types/mock/pipeline.d.ts
  dist/types/mock/public-api.d.ts
  dist/types/mock/quirks.d.ts
  dist/types/mock/random.d.ts
  dist/types/mock/records.d.ts
  dist/types/mock/requisites.d.ts
  dist/types/mock/routes.d.ts
  dist/types/mock/server.d.ts
  dist/types/mock/service.d.ts
  dist/types/mock/store.d.ts
  dist/types/mock/time.d.ts
  dist/types/mock/validate.d.ts
  dist/types/react/events.generated.d.ts
  dist/types/react/index.d.ts
  dist/types/schemas/browser.generated.d.ts
  dist/types/schemas/checkout-route-schemas.d.ts
  dist/types/schemas/checkout-routes.d.ts
  dist/types/schemas/checkout.d.ts
  dist/types/schemas/dispute.d.ts
  dist/types/schemas/headers.d.ts
  dist/types/schemas/index.d.ts
  dist/types/schemas/invoice.d.ts
  dist/types/schemas/json-schema.d.ts
  dist/types/schemas/notification.d.ts
  dist/types/schemas/operations.d.ts
  dist/types/schemas/patterns.d.ts
  dist/types/schemas/primitives.d.ts
  dist/types/schemas/requisites-kind.d.ts
  dist/types/schemas/responses.d.ts
  dist/types/schemas/service.d.ts
  dist/types/schemas/withdrawal.d.ts
  dist/types/server/books/core.d.ts
  dist/types/server/books/cron.d.ts
  dist/types/server/books/ledger.d.ts
  dist/types/server/books/raw-notification.d.ts
  dist/types/server/books/reconciler.d.ts
  dist/types/server/books/schedule.d.ts
  dist/types/server/client/answer.d.ts
  dist/types/server/client/clients.d.ts
  dist/types/server/client/errors.d.ts
  dist/types/server/client/invoice-reader.d.ts
  dist/types/server/client/merchant-client.d.ts
  dist/types/server/client/operation-methods.d.ts
  dist/types/server/client/options.d.ts
  dist/types/server/client/request.d.ts
  dist/types/server/client/service-errors.d.ts
  dist/types/server/client/signing.d.ts
  dist/types/server/client/transport.d.ts
  dist/types/server/events/event-stream.d.ts
  dist/types/server/events/invoice-events.d.ts
  dist/types/server/events/projection.d.ts
  dist/types/server/fingerprint.d.ts
  dist/types/server/handler.d.ts
  dist/types/server/http/answers.d.ts
  dist/types/server/http/body.d.ts
  dist/types/server/http/error-context.d.ts
  dist/types/server/http/platform.d.ts
  dist/types/server/http/runtime-seam.d.ts
  dist/types/server/immutable.d.ts
  dist/types/server/index.d.ts
  dist/types/server/journal/console-keys.d.ts
  dist/types/server/journal/console-page.d.ts
  dist/types/server/journal/console-text.d.ts
  dist/types/server/journal/console.d.ts
  dist/types/server/journal/entry.d.ts
  dist/types/server/journal/journal.d.ts
  dist/types/server/journal/taps.d.ts
  dist/types/server/kit.d.ts
  dist/types/server/node.d.ts
  dist/types/server/node/adapter.d.ts
  dist/types/server/node/body-gate.d.ts
  dist/types/server/node/fetch.d.ts
  dist/types/server/node/platform.d.ts
  dist/types/server/node/request.d.ts
  dist/types/server/node/sqlite.d.ts
  dist/types/server/node/stream.d.ts
  dist/types/server/notifications/receiver.d.ts
  dist/types/server/notifications/webhooks.d.ts
  dist/types/server/options-check.d.ts
  dist/types/server/proxy/bank-names.d.ts
  dist/types/server/proxy/checkout-token.d.ts
  dist/types/server/proxy/context.d.ts
  dist/types/server/proxy/failures.d.ts
  dist/types/server/proxy/handler.d.ts
  dist/types/server/proxy/options.d.ts
  dist/types/server/proxy/route-match.d.ts
  dist/types/server/proxy/router.d.ts
  dist/types/server/proxy/routes/banks.d.ts
  dist/types/server/proxy/routes/cancel.d.ts
  dist/types/server/proxy/routes/deal.d.ts
  dist/types/server/proxy/routes/dispute.d.ts
  dist/types/server/proxy/routes/events.d.ts
  dist/types/server/proxy/routes/index.d.ts
  dist/types/server/proxy/routes/invoice.d.ts
  dist/types/server/proxy/routes/receipt.d.ts
  dist/types/server/proxy/routes/variants.d.ts
  dist/types/server/proxy/uploads.d.ts
  dist/types/server/redis.d.ts
  dist/types/server/remember.d.ts
  dist/types/server/single-flight.d.ts
  dist/types/server/sqlite.d.ts
  dist/types/server/store/index.d.ts
  dist/types/server/store/memory-journal.d.ts
  dist/types/server/store/memory.d.ts
  dist/types/server/store/redis-client.d.ts
  dist/types/server/store/redis-journal.d.ts
  dist/types/server/store/redis-queues.d.ts
  dist/types/server/store/redis-scripts.d.ts
  dist/types/server/store/redis-settings.d.ts
  dist/types/server/store/redis.d.ts
  dist/types/server/store/snapshot.d.ts
  dist/types/server/store/sqlite-journal.d.ts
  dist/types/server/store/sqlite.d.ts
  dist/types/server/store/types.d.ts
  dist/types/server/telemetry.d.ts
  dist/types/types/attributes.d.ts
  dist/types/types/events.generated.d.ts
  dist/types/types/jsx.d.ts
  dist/types/types/vue.d.ts
  openapi/checkout.json
  openapi/gateway.json
  openapi/merchant-api.json
  package.json
`
  .split('\n')
  .map((line) => line.trim())
  .filter(Boolean);

/**
 * A chunk of the CDN build: what the element loads with `import()` (scripts/build.js names them
 * `merchant-checkout-[name].js`, without a content hash). Listed by this rule, not by name, so
 * a new lazy chunk needs no edit here; each must have its hash in dist/cdn/integrity.json.
 */
const CDN_CHUNK = /^dist\/cdn\/merchant-checkout-[\w-]+\.js$/;

let scratch: string;
let tarball: string;
let packed: string[];

before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'merchant-checkout-pack-'));
  packed = packedFiles();
  tarball = packTarball(scratch);
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const shipped = (path: string) => packed.includes(normalize(path).replace(/\\/g, '/').replace(/^\.\//, ''));
const text = (path: string) => readFileSync(join(root, path), 'utf8');

test('npm pack lists exactly the intended files', () => {
  const extra = packed.filter((file) => !EXPECTED_FILES.includes(file) && !CDN_CHUNK.test(file));
  const missing = EXPECTED_FILES.filter((file) => !packed.includes(file));
  assert.deepEqual(
    { extra, missing },
    { extra: [], missing: [] },
    'the package ships a file it should not, or lacks one: fix package.json `files` or scripts/build.js, or update EXPECTED_FILES in test/e2e/package.test.ts',
  );
});

test('dist/cdn/integrity.json holds the sha384 of exactly the shipped CDN files', () => {
  const cdnFiles = packed.filter((file) => file.startsWith('dist/cdn/') && file.endsWith('.js'));
  assert.deepEqual(
    cdnFiles.filter((file) => file !== 'dist/cdn/merchant-checkout.js' && !CDN_CHUNK.test(file)),
    [],
    'dist/cdn/ holds only merchant-checkout.js and its chunks',
  );
  const integrity = JSON.parse(text('dist/cdn/integrity.json')) as Record<string, string>;
  const expected = Object.fromEntries(
    cdnFiles.map((file) => [
      file.slice('dist/cdn/'.length),
      `sha384-${createHash('sha384')
        .update(readFileSync(join(root, file)))
        .digest('base64')}`,
    ]),
  );
  assert.deepEqual(integrity, expected);
});

test('LICENSE (MIT) and CHANGELOG.md ship with the package', () => {
  assert.equal(pkg.license, 'MIT');
  assert.ok(shipped('LICENSE') && shipped('CHANGELOG.md'));
  assert.match(text('LICENSE'), /^MIT License\n\nCopyright \(c\) \d{4} merchant-checkout contributors\n/);
  assert.match(text('CHANGELOG.md'), /^## \[Unreleased\]$/m);
});

test('no shipped file points at a file the package lacks', () => {
  assert.deepEqual(
    packed.filter((file) => file.endsWith('.map')),
    [],
    'no source maps: they would point at src/ and node_modules/, which do not ship',
  );
  const problems: string[] = [];
  for (const file of packed.filter((path) => /\.(?:js|d\.ts)$/.test(path))) {
    const code = text(file);
    if (/sourceMappingURL=/.test(code)) problems.push(`${file}: sourceMappingURL`);
    // Minified output quotes a dynamic import's path with backticks: import(`./x.js`).
    for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"`](\.{1,2}\/[^'"`]+)['"`]/g)) {
      const target = join(dirname(file), match[1]!).replace(/\\/g, '/');
      const candidates = file.endsWith('.d.ts') ? [target.replace(/\.js$/, '.d.ts'), target] : [target];
      if (!candidates.some(shipped)) problems.push(`${file} imports ${match[1]}`);
    }
  }
  const entries = [
    pkg.main,
    pkg.module,
    pkg.types,
    pkg.customElements,
    ...pkg.sideEffects,
    ...Object.values(pkg.bin),
    ...Object.values(pkg.exports).flatMap((entry) => (typeof entry === 'string' ? [entry] : Object.values(entry))),
  ];
  for (const entry of entries) if (!shipped(entry)) problems.push(`package.json names ${entry}`);
  assert.deepEqual(problems, []);
});

test('the CDN files run Lit in production mode and have types', () => {
  for (const file of packed.filter((path) => path.startsWith('dist/cdn/') && path.endsWith('.js'))) {
    assert.doesNotMatch(
      text(file),
      /Lit is in dev mode|reactive-element\/development|lit-html\/development/,
      `no Lit dev build in ${file}`,
    );
  }
  assert.deepEqual(pkg.exports['./cdn'], { types: './dist/types/element/cdn.d.ts', default: './dist/cdn/merchant-checkout.js' });
});

test('@lit/react and React are optional peers: a project without React installs no React types', () => {
  for (const name of ['@lit/react', 'react']) {
    assert.ok(pkg.peerDependencies[name], `${name} is a peer dependency`);
    assert.equal(pkg.peerDependenciesMeta[name]?.optional, true, `${name} is optional`);
    assert.equal(pkg.dependencies[name], undefined, `${name} is not a dependency`);
  }
  // What `npm install merchant-checkout` pulls in, from the lock file: the dependencies and
  // everything they require, peers that are not optional included (npm installs those too).
  const lock = JSON.parse(text('package-lock.json')) as {
    packages: Record<
      string,
      {
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
        peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      }
    >;
  };
  const locate = (name: string, from: string): string | undefined => {
    for (let dir = from; ; dir = dir.slice(0, dir.lastIndexOf('/node_modules/'))) {
      const at = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (lock.packages[at]) return at;
      if (!dir.includes('/node_modules/')) return lock.packages[`node_modules/${name}`] ? `node_modules/${name}` : undefined;
    }
  };
  const pulled = new Set<string>();
  const visit = (name: string, from: string) => {
    const at = locate(name, from);
    if (!at || pulled.has(at)) return;
    pulled.add(at);
    const entry = lock.packages[at]!;
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((peer) => !entry.peerDependenciesMeta?.[peer]?.optional);
    for (const dependency of [...Object.keys(entry.dependencies ?? {}), ...peers]) visit(dependency, at);
  };
  for (const name of Object.keys(pkg.dependencies)) visit(name, '');
  const react = [...pulled].filter((at) => /node_modules\/(?:@types\/react|react|react-dom|@lit\/react)$/.test(at));
  assert.deepEqual(react, [], 'no React package among what the dependencies pull in');
});

test('publint (strict, with suggestions) finds nothing', async () => {
  // publint packs with npm itself (lifecycle scripts ignored) to see the shipped files.
  const { messages, pkg: linted } = await publint({ pkgDir: root, level: 'suggestion', strict: true, pack: 'npm' });
  assert.deepEqual(
    messages.map((message) => `${message.type}: ${formatMessage(message, linted, { color: false }) ?? message.code}`),
    [],
  );
});

test('are the types wrong? no (attw, profile esm-only)', () => {
  const attw = spawnSync(
    process.execPath,
    [join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  assert.equal(attw.status, 0, `attw found problems:\n${attw.stdout}${attw.stderr}`);
});
