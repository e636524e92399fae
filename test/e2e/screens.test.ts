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
 * One demo server and one browser for the file; one context per width and theme.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SCENARIO_SCREEN, SCENARIOS } from '../../demo/shared/scenarios.js';
import { launchChromium } from './support/browser.js';
import {
  DEVICES,
  newScreensContext,
  openState,
  SCREEN_STATES,
  startScreensDemo,
  variantName,
  variantsOf,
  type ScreensDemo,
  type ScreenState,
  type Variant,
} from './support/screens.js';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const ALL_VARIANTS = process.env.SCREENS_AXE === 'all';
const checkedVariants = (state: ScreenState): Variant[] =>
  variantsOf(state).filter((variant) => ALL_VARIANTS || (variant.width === 360 ? variant.lang === 'ru' : variant.lang === 'en'));

let demo: ScreensDemo;
let browser: Browser;
let cacheDir: string;
/** One page per width and theme, opened when first needed. */
const pages = new Map<string, { context: BrowserContext; page: Page }>();

const pageFor = async ({ width, theme }: Variant): Promise<Page> => {
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

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/** Each violation on one line a node: rule, impact, where, what to do, and axe's summary of why. */
const describeViolations = (violations: AxeResults['violations']): string[] =>
  violations.flatMap((violation) =>
    violation.nodes.map((node) => {
      const why = (node.failureSummary ?? '').replace(/\s+/g, ' ').trim();
      return `${violation.id} (${violation.impact ?? 'no impact'}) at ${JSON.stringify(node.target)}: ${violation.help}${why ? ` — ${why}` : ''}`;
    }),
  );

for (const state of SCREEN_STATES) {
  describe(`${state.name} (${state.how})`, () => {
    for (const variant of checkedVariants(state)) {
      test(`${state.name} ${variantName(variant)}: reached, no WCAG 2.2 AA violation (axe), fits the width`, async () => {
        const page = await pageFor(variant);
        // Throws naming the scenario, the screen it should show and the one it shows.
        await openState(page, demo, state, variant);
        // `options()` replaces what `withTags()` set: the rules first, then the tags.
        const results = await new AxeBuilder({ page })
          .options({ rules: { 'target-size': { enabled: true } } })
          .withTags(WCAG_TAGS)
          .include('merchant-checkout')
          .analyze();
        const ran = [...results.passes, ...results.violations, ...results.incomplete, ...results.inapplicable].map((rule) => rule.id);
        assert.ok(ran.includes('target-size'), 'the target-size rule ran');
        assert.ok(ran.includes('color-contrast'), 'the colour contrast rule ran');
        assert.ok(results.passes.length > 0, 'axe checked something inside the element');
        const problems = describeViolations(results.violations);
        // Reflow (WCAG 1.4.10), which axe does not check: the card fits the width, no sideways scrolling.
        const right = await page.evaluate(() => document.querySelector('merchant-checkout')!.getBoundingClientRect().right + scrollX);
        const { width } = DEVICES[variant.width].viewport;
        if (right > width + 0.5) problems.push(`reflow: the element ends at ${right.toFixed(1)} px, past the ${width} px viewport (the page scrolls sideways)`);
        assert.deepEqual(problems, [], `${state.name} ${variantName(variant)}:\n${problems.join('\n')}`);
      });
    }
  });
}
