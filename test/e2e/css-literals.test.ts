/**
 * The CDN build minifies the css`…` literals of the element (scripts/css-literals.js). Chromium
 * reads each sheet of the element, as written and as minified, into the same rules.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CSSResult } from 'lit';
import type { Browser } from 'playwright-core';
import { minifyCss } from '../../scripts/css-literals.js';
import { pickerStyles } from '../../src/element/banks/picker-view.js';
import { formStyles } from '../../src/element/journey/forms.js';
import { styles } from '../../src/element/merchant-checkout.styles.js';
import { screenStyles } from '../../src/element/screen.styles.js';
import { launchChromium } from './support/browser.js';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser.close());

/** The rules Chromium reads from `text`, as it writes them back. */
const rules = (text: string): Promise<string[]> =>
  browser
    .contexts()[0]!
    .pages()[0]!
    .evaluate((css) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      return [...sheet.cssRules].map((rule) => rule.cssText);
    }, text);

test('every sheet of the element, minified, is read into the rules it was written as', async () => {
  await (await browser.newContext()).newPage();
  const sheets: Record<string, CSSResult> = { base: styles[0]!, screen: screenStyles, picker: pickerStyles, forms: formStyles };
  for (const [name, sheet] of Object.entries(sheets)) {
    const written = await rules(sheet.cssText);
    assert.ok(written.length > 5, `${name}: rules were read`);
    const minified = minifyCss(sheet.cssText);
    assert.ok(minified.length < sheet.cssText.length * 0.9, `${name}: minified (${sheet.cssText.length} → ${minified.length})`);
    assert.deepEqual(await rules(minified), written, name);
  }
});

test('what minifying keeps: a descendant combinator, the spaces of calc() and around a comma', () => {
  assert.equal(minifyCss('.a  .b ,\n .c {\n  width: calc(1px + 2px) ;\n  /* a note */ }'), '.a .b , .c{width:calc(1px + 2px)}');
});
