/**
 * Node-only code is imported by Node entry points only (docs/ARCHITECTURE.md, "The server kit",
 * Adapters): eslint.config.js's `no-restricted-imports` and `no-restricted-syntax` fail a
 * runtime-neutral module of src/server (the entry `merchant-checkout/server`, index.ts,
 * included) that reaches src/server/node/, a `node:*` built-in or `@hono/node-server` in any
 * form (static import, `import()`, `require`, `process.getBuiltinModule`, `globalThis.process`),
 * and lets the node folder and the Node entries do so. Linted without type information: only
 * those rules.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('../../', import.meta.url));
const RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => RULES.has(ruleId),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

/** The restricted-import messages of `code` linted as the file at `path` (which need not exist). */
const refusals = async (path: string, code: string): Promise<string[]> => {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? []).filter((message) => RULES.has(message.ruleId ?? '')).map((message) => message.message);
};

describe('Node-only code stays behind the Node entry points', () => {
  test('a runtime-neutral module of src/server may not import src/server/node/, node:* or @hono/node-server', async () => {
    const cases: [string, string][] = [
      ['src/server/proxy/probe.ts', "import { toNodeHandler } from '../node/adapter.js';\nexport const probe = toNodeHandler;\n"],
      [
        'src/server/proxy/routes/probe.ts',
        "import { createNodeFetch } from '../../node/fetch.js';\nexport const probe = createNodeFetch;\n",
      ],
      ['src/server/kit-probe.ts', "import type { NodeFetchOptions } from './node/fetch.js';\nexport type Probe = NodeFetchOptions;\n"],
      ['src/server/client/probe.ts', "import type { IncomingMessage } from 'node:http';\nexport type Probe = IncomingMessage;\n"],
      ['src/server/events/probe.ts', "import { serve } from '@hono/node-server';\nexport const probe = serve;\n"],
      ['src/server/index.ts', "export { toNodeHandler } from './node/adapter.js';\n"],
      ['src/server/client/probe.ts', "export const probe = () => import('node:crypto');\n"],
      ['src/server/proxy/probe.ts', "export const probe = () => import('../node/fetch.js');\n"],
      ['src/server/books/probe.ts', "export const probe = () => require('node:crypto');\n"],
      ['src/server/http/probe.ts', "export const probe = () => process.getBuiltinModule('node:crypto');\n"],
      [
        'src/server/client/probe.ts',
        'export const probe = () => (globalThis as { process?: { versions?: unknown } }).process?.versions;\n',
      ],
      [
        'src/server/store/probe.ts',
        "const host = globalThis as unknown as Record<string, { getBuiltinModule(id: string): unknown }>;\nexport const probe = host['pro' + 'cess']?.getBuiltinModule('node:os');\n",
      ],
    ];
    for (const [path, code] of cases) {
      const messages = await refusals(path, code);
      assert.ok(messages.length >= 1, `${path}: ${code}`);
      assert.match(messages[0]!, /Node|process|require|getBuiltinModule/);
    }
  });

  test('the node folder and the Node entry points may', async () => {
    assert.deepEqual(
      await refusals(
        'src/server/node/probe.ts',
        "import type { IncomingMessage } from 'node:http';\nexport type Probe = IncomingMessage;\n",
      ),
      [],
    );
    assert.deepEqual(
      await refusals('src/server/node.ts', "export { toNodeHandler } from './node/adapter.js';\nimport './node/fetch.js';\n"),
      [],
    );
    assert.deepEqual(
      await refusals(
        'src/server/redis.ts',
        "import type { NodeFetchOptions } from './node/fetch.js';\nexport type Probe = NodeFetchOptions;\n",
      ),
      [],
    );
  });

  test('src/server as it is keeps the rule', async () => {
    const results = await eslint.lintFiles(['src/server/**/*.ts']);
    const broken = results.flatMap((result) =>
      result.messages.filter((message) => RULES.has(message.ruleId ?? '')).map((message) => `${result.filePath}: ${message.message}`),
    );
    assert.deepEqual(broken, []);
  });
});
