/**
 * Preloaded (`--import`) into every process of a `node:test` run by scripts/test.js: each
 * `test()` and `it()` (and their `.only`, `.skip`, `.todo`) that sets no `timeout` gets
 * `NODE_TEST_TIMEOUT_MS`, so one hung test fails by itself, named, instead of stalling its
 * file. Node 20 applies `--test-timeout` only to each test file's process as a whole (its
 * child processes do not apply it to their tests), hence this. Subtests (`t.test`) are bounded
 * by their parent's timeout; `describe` bodies only collect tests.
 *
 * The cost: Node takes a test's reported location from its caller, now this module, so a
 * failure reads `test at scripts/node-test-timeout.js`; the name and the error's stack still
 * say where it is.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

const timeout = Number(process.env.NODE_TEST_TIMEOUT_MS);

if (Number.isFinite(timeout) && timeout > 0) {
  const nodeTest = createRequire(import.meta.url)('node:test');

  /** `(name?, options?, fn?)` with `timeout` added to the options unless they set one. */
  const withTimeout = (args) => {
    const at = args.findIndex((arg) => arg !== null && typeof arg === 'object');
    if (at >= 0) return args[at].timeout === undefined ? args.map((arg, i) => (i === at ? { ...arg, timeout } : arg)) : args;
    const out = [...args];
    out.splice(typeof args[0] === 'string' ? 1 : 0, 0, { timeout });
    return out;
  };
  const wrap = (original) => {
    const wrapped = function (...args) {
      return original.apply(this, withTimeout(args));
    };
    for (const key of ['only', 'skip', 'todo']) {
      if (typeof original[key] === 'function') {
        wrapped[key] = function (...args) {
          return original[key].apply(this, withTimeout(args));
        };
      }
    }
    return wrapped;
  };

  nodeTest.test = wrap(nodeTest.test);
  nodeTest.it = wrap(nodeTest.it);
  // `import { test } from 'node:test'` reads these names from the module's exports.
  syncBuiltinESMExports();
}
