/**
 * Node-only code is imported by Node entry points only (docs/ARCHITECTURE.md, "The server kit",
 * Adapters): eslint.config.js's `no-restricted-imports` fails a runtime-neutral module
 * of src/server that imports src/server/node/, a `node:*` built-in or `@hono/node-server`, and
 * lets the node folder and the entries do so. Linted without type information: only that rule.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('../../', import.meta.url));
const RULE = 'no-restricted-imports';

const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => ruleId === RULE,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

/** The restricted-import messages of `code` linted as the file at `path` (which need not exist). */
const refusals = async (path: string, code: string): Promise<string[]> => {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? []).filter((message) => message.ruleId === RULE).map((message) => message.message);
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
    ];
    for (const [path, code] of cases) {
      const messages = await refusals(path, code);
      assert.equal(messages.length, 1, `${path}: ${code}`);
      assert.match(messages[0]!, /Node/);
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
      await refusals('src/server/index.ts', "export { toNodeHandler } from './node/adapter.js';\nimport './node/fetch.js';\n"),
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
      result.messages.filter((message) => message.ruleId === RULE).map((message) => `${result.filePath}: ${message.message}`),
    );
    assert.deepEqual(broken, []);
  });
});
