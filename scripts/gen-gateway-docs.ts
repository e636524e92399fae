/**
 * `npm run docs:gateway`: the settings table of docs/gateway.md, between its `settings`
 * markers, from `SETTINGS` (src/gateway/settings.ts). test/gateway/docs.test.ts fails when it
 * is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { settingsMarkdown } from '../src/gateway/settings.js';

export const GATEWAY_DOCS = fileURLToPath(new URL('../docs/gateway.md', import.meta.url));
const START = /<!-- settings:[^>]*-->\n/;
const END = '<!-- /settings -->';

/** docs/gateway.md with its settings table as the code says. */
export const gatewayDocs = (text: string): string => {
  const start = START.exec(text);
  const end = text.indexOf(END);
  if (!start || end < 0) throw new Error('docs/gateway.md lacks its settings markers');
  return `${text.slice(0, start.index + start[0].length)}${settingsMarkdown()}\n${text.slice(end)}`;
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(GATEWAY_DOCS, gatewayDocs(readFileSync(GATEWAY_DOCS, 'utf8')));
  console.log('wrote docs/gateway.md');
}
