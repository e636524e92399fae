/**
 * docs/gateway.md states every setting with its default as the code has it
 * (scripts/gen-gateway-docs.ts), and the token minting of docs/server.md runs in PHP, Python and Java.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { verifyCheckoutToken } from '../../src/server/node.js';
import { GATEWAY_DOCS, gatewayDocs } from '../../scripts/gen-gateway-docs.js';
import { SETTINGS } from '../../src/gateway/settings.js';

test('docs/gateway.md has the settings table the code declares (npm run docs:gateway)', () => {
  const text = readFileSync(GATEWAY_DOCS, 'utf8');
  assert.equal(text, gatewayDocs(text), 'stale: run npm run docs:gateway');
  for (const setting of Object.values(SETTINGS)) assert.ok(text.includes(`| \`${setting.name}\` |`), setting.name);
});

/** The fenced `language` block of the gateway section of docs/server.md. */
const snippet = (language: string): string => {
  const guide = readFileSync(new URL('../../docs/server.md', import.meta.url), 'utf8');
  const at = guide.indexOf('## The gateway: a shop on any stack');
  assert.ok(at >= 0, 'docs/server.md has its gateway section');
  const section = guide.slice(at);
  const match = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(section);
  assert.ok(match, `the gateway section of docs/server.md has a ${language} block`);
  return match[1]!;
};

const SECRET = 'gateway-secret-for-the-readme-0001';
const INVOICE = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

const runs = (command: string, args: string[], input?: string) => {
  const run = spawnSync(command, args, { encoding: 'utf8', input, timeout: 60_000 });
  assert.equal(run.error, undefined, `${command} runs here (.ci/run installs php-cli, python3 and Java come with the machine)`);
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
};

test('the token minting of docs/server.md in PHP, Python and Java makes tokens the gateway accepts', async () => {
  const php = runs('php', ['-r', `$invoiceId = '${INVOICE}'; $gatewaySecret = '${SECRET}';\n${snippet('php')}\necho $token;`]);
  const python = runs('python3', [
    '-c',
    `import base64, hashlib, hmac, time\ninvoice_id = '${INVOICE}'\ngateway_secret = '${SECRET}'\n${snippet('python')}\nprint(token)`,
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'mint-java-'));
  try {
    const source = join(dir, 'Mint.java');
    writeFileSync(
      source,
      `import java.time.Instant; import java.util.Base64; import javax.crypto.Mac; import javax.crypto.spec.SecretKeySpec; import static java.nio.charset.StandardCharsets.UTF_8;\npublic class Mint { public static void main(String[] args) throws Exception {\nString invoiceId = "${INVOICE}"; String gatewaySecret = "${SECRET}";\n${snippet('java')}\nSystem.out.println(token); } }\n`,
    );
    const java = runs('java', [source]);
    for (const [language, token] of [
      ['php', php],
      ['python', python],
      ['java', java],
    ] as const) {
      assert.equal(await verifyCheckoutToken(SECRET, token, INVOICE), true, `${language}: ${token}`);
      assert.equal(await verifyCheckoutToken(SECRET, token, '11111111-2222-4333-8444-555555555555'), 'wrong_invoice', language);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
