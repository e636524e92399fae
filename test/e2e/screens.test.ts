/**
 * Every screen of `<merchant-checkout>` the demo reaches (test/e2e/support/screens.ts: each
 * scenario's first screen and the states pressed to after it) is checked with axe: WCAG 2.0,
 * 2.1 and 2.2 A/AA rules (with `target-size`, which axe ships off) inside the element, and no
 * violation is allowed; the card must fit the viewport's width (reflow, which axe does not
 * check). Each scenario must also reach the screen `SCENARIO_SCREEN` names.
 * `npm run screens` pictures the same states (docs/screens/).
 *
 * Each state in both themes, at 360 px (a touch phone) in Russian, the longer language at the
 * narrower width, and at 1024 px in English: 70 checks, 70–115 s on a 2-core machine (about
 * 1–2 s each: the scenario's set-up and page, then axe). `SCREENS_AXE=all` checks both
 * languages at both widths too (140 checks, about 2.5 minutes).
 *
 * Then every state in every language of the checkout at 320 px (light): one page per state,
 * the language switched in it with the demo's switch (the state stays), so ten checks cost one
 * set-up: axe, nothing sticking out of the card or the viewport, the text's `lang`, the
 * heading in that language. And each payment option's deep link, in a language of its payers,
 * shown as what it is.
 *
 * One demo server and one browser for the file; one context per width and theme.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { OPTION_SCENARIOS, type OptionScenarioName, SCENARIO_SCREEN, SCENARIOS } from '../../demo/shared/scenarios.js';
import { TRANSLATIONS } from '../../src/element/i18n/locale.js';
import { KNOWN_PAYMENT_OPTIONS } from '../../src/schemas/invoice.js';
import type { RequisitesKind } from '../../src/schemas/requisites-kind.js';
import { type AxeResults, runAxe } from './support/axe.js';
import { launchChromium } from './support/browser.js';
import {
  ALL_LANGS,
  DEVICES,
  langOf,
  newScreensContext,
  openOptionScenario,
  openState,
  overflowOf,
  part,
  SCREEN_STATES,
  startScreensDemo,
  switchLanguage,
  variantName,
  variantsOf,
  type ScreensDemo,
  type ScreenState,
  type Variant,
} from './support/screens.js';

const ALL_VARIANTS = process.env.SCREENS_AXE === 'all';
const checkedVariants = (state: ScreenState): Variant[] =>
  variantsOf(state).filter((variant) => ALL_VARIANTS || (variant.width === 360 ? variant.lang === 'ru' : variant.lang === 'en'));

let demo: ScreensDemo;
let browser: Browser;
let cacheDir: string;
/** One page per width and theme, opened when first needed. */
const pages = new Map<string, { context: BrowserContext; page: Page }>();

const pageFor = async ({ width, theme }: Pick<Variant, 'width' | 'theme'>): Promise<Page> => {
  const key = `${theme}-${width}`;
  let entry = pages.get(key);
  if (!entry) {
    const context = await newScreensContext(browser, { width, theme });
    context.setDefaultTimeout(10_000);
    entry = { context, page: await context.newPage() };
    pages.set(key, entry);
  }
  return entry.page;
};

before(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'merchant-checkout-screens-vite-'));
  [demo, browser] = await Promise.all([startScreensDemo({ cacheDir }), launchChromium()]);
  // The first visit waits for Vite to transform the pages and the element.
  const first = SCREEN_STATES[0]!;
  const variant = variantsOf(first)[0]!;
  await openState(await pageFor(variant), demo, first, variant, { firstScreenTimeout: 60_000 });
});

after(async () => {
  await browser?.close();
  await demo?.server.close();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

test('the screens cover every scenario, each with the screen SCENARIO_SCREEN names', () => {
  for (const scenario of SCENARIOS) {
    const state = SCREEN_STATES.find((each) => each.kind === 'scenario' && each.scenario === scenario);
    assert.ok(state, `a screen opens ?scenario=${scenario}`);
    assert.equal(state.screen, SCENARIO_SCREEN[scenario]);
  }
  const names = SCREEN_STATES.map((state) => state.name);
  assert.deepEqual(names, [...new Set(names)], 'each screen has its own name (its file in docs/screens/)');
});

/** Each violation on one line a node: rule, impact, where, what to do, and axe's summary of why. */
const describeViolations = (violations: AxeResults['violations']): string[] =>
  violations.flatMap((violation) =>
    violation.nodes.map((node) => {
      const why = (node.failureSummary ?? '').replace(/\s+/g, ' ').trim();
      return `${violation.id} (${violation.impact ?? 'no impact'}) at ${JSON.stringify(node.target)}: ${violation.help}${why ? ` — ${why}` : ''}`;
    }),
  );

/** axe's WCAG 2.2 AA violations inside the element, one line each, after checking that the rules that matter ran. */
const axeProblems = async (page: Page): Promise<string[]> => {
  const results = await runAxe(page, 'merchant-checkout');
  const ran = [...results.passes, ...results.violations, ...results.incomplete, ...results.inapplicable].map((rule) => rule.id);
  assert.ok(ran.includes('target-size'), 'the target-size rule ran');
  assert.ok(ran.includes('color-contrast'), 'the colour contrast rule ran');
  assert.ok(results.passes.length > 0, 'axe checked something inside the element');
  return describeViolations(results.violations);
};

for (const state of SCREEN_STATES) {
  describe(`${state.name} (${state.how})`, () => {
    for (const variant of checkedVariants(state)) {
      test(`${state.name} ${variantName(variant)}: reached, no WCAG 2.2 AA violation (axe), fits the width`, async () => {
        const page = await pageFor(variant);
        // Throws naming the scenario, the screen it should show and the one it shows.
        await openState(page, demo, state, variant);
        const problems = await axeProblems(page);
        // Reflow (WCAG 1.4.10), which axe does not check: the card fits the width, no sideways scrolling.
        const right = await page.evaluate(() => document.querySelector('merchant-checkout')!.getBoundingClientRect().right + scrollX);
        const { width } = DEVICES[variant.width].viewport;
        if (right > width + 0.5)
          problems.push(`reflow: the element ends at ${right.toFixed(1)} px, past the ${width} px viewport (the page scrolls sideways)`);
        assert.deepEqual(problems, [], `${state.name} ${variantName(variant)}:\n${problems.join('\n')}`);
      });
    }
  });
}

/** What a language check finds wrong on the screen as it is: axe, reflow, the text's `lang`. */
const languageProblems = async (page: Page, lang: string): Promise<string[]> => {
  const problems = [...(await axeProblems(page)), ...(await overflowOf(page)).map((what) => `reflow: ${what} sticks out at 320 px`)];
  const shown = await langOf(page);
  if (shown !== lang) problems.push(`the text says lang="${shown}", not "${lang}" (screen readers would read it in the wrong voice)`);
  return problems.map((problem) => `${lang}: ${problem}`);
};

describe('every screen in every language, at 320 px', () => {
  for (const state of SCREEN_STATES) {
    test(`${state.name} in ${ALL_LANGS.join(', ')}: in that language, its lang set, no axe violation, nothing sticks out`, async () => {
      const page = await pageFor({ theme: 'light', width: 320 });
      await openState(page, demo, state, { theme: 'light', width: 320, lang: 'en' });
      const problems: string[] = [];
      for (const lang of ALL_LANGS) {
        await switchLanguage(page, state.screen, lang);
        problems.push(...(await languageProblems(page, lang)));
      }
      assert.deepEqual(problems, [], `${state.name}:\n${problems.join('\n')}`);
    });
  }
});

/** The kind each option's requisites are shown as (the mock issues each in its own shape, src/mock/README.md). */
const KIND_OF: Record<(typeof KNOWN_PAYMENT_OPTIONS)[number], RequisitesKind> = {
  SBP: 'phone',
  TO_CARD: 'card',
  TO_ACCOUNT: 'account',
  CROSS_BORDER: 'card',
  MOBILE_TOP_UP: 'topup',
  SBP_QR: 'qr',
  CLICK_UZ_QR: 'qr',
  TIPS: 'url',
  TO_BANK_DETAILS: 'account',
  TO_PHONE_NUMBER: 'phone',
  TG_BOT: 'telegram',
  P2C: 'url',
  UPI: 'upi',
  QUASI_UPI: 'upi',
  IMPS: 'imps',
  CVU: 'cvu',
  CARD_ACQUIRING: 'url',
  MANUAL_ECOM: 'url',
  VIET_QR: 'qr',
  MANUAL_SBP_QR: 'qr-image',
};

describe('every payment option shown as what it is, in a language of its payers, at 320 px', () => {
  test('the demo has a deep link for every documented option, and they speak every language', () => {
    const options = Object.values(OPTION_SCENARIOS).map((scenario) => scenario.option);
    assert.deepEqual([...options].sort(), [...KNOWN_PAYMENT_OPTIONS].sort());
    assert.deepEqual([...new Set(Object.values(OPTION_SCENARIOS).map((scenario) => scenario.lang))].sort(), [...ALL_LANGS].sort());
  });

  for (const name of Object.keys(OPTION_SCENARIOS) as OptionScenarioName[]) {
    const { option, lang } = OPTION_SCENARIOS[name];
    const kind = KIND_OF[option];
    test(`?scenario=${name}: ${option} as ${kind}, in ${lang}`, async () => {
      const page = await pageFor({ theme: 'light', width: 320 });
      await openOptionScenario(page, demo, name);
      const t = TRANSLATIONS[lang];
      if (kind === 'qr') {
        assert.ok(await part(page, 'qr').locator('svg path').count(), 'the QR code drawn from the deal’s data');
      } else if (kind === 'qr-image') {
        const image = part(page, 'qr').locator('img');
        assert.ok(
          await image.evaluate((node: HTMLImageElement) => node.complete && node.naturalWidth > 0),
          'the service’s picture of the QR code, loaded',
        );
      } else {
        assert.equal((await part(page, 'requisites').locator('dt').innerText()).trim(), t.requisitesLabel(kind));
      }
      if (kind === 'imps') assert.equal((await part(page, 'ifsc').locator('dt').innerText()).trim(), t.ifscLabel);
      const problems = await languageProblems(page, lang);
      assert.deepEqual(problems, [], `${name}:\n${problems.join('\n')}`);
    });
  }
});
