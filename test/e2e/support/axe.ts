/**
 * axe inside `<merchant-checkout>` on a Playwright page, the way the screens' checks need it
 * many times over: axe-core (the version `@axe-core/playwright` pins) is put into a document
 * once and run there again and again. `AxeBuilder#analyze()` puts axe-core (half a megabyte of
 * script) into the page on every call and finishes each run in a new blank page, about 1.4 s
 * a check on a 2-core machine against 0.25 s this way; the element has no frames, whose
 * handling is all the builder adds.
 */
import { createRequire } from 'node:module';
import type AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

const require = createRequire(import.meta.url);
/** axe-core's script, from beside `@axe-core/playwright`, so both run the same version. */
const AXE_SOURCE = (createRequire(require.resolve('@axe-core/playwright'))('axe-core') as { source: string }).source;

/** The WCAG 2.0, 2.1 and 2.2 A/AA rules, with `target-size`, which axe ships off. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface AxeWindow {
  axe?: { run(context: unknown, options: unknown): Promise<AxeResults> };
}

/**
 * axe's results for what `selector` matches (across shadow roots), WCAG 2.2 AA with
 * `target-size`: violations in full, the other outcomes as the rules that gave them.
 */
export const runAxe = async (page: Page, selector: string): Promise<AxeResults> => {
  if (!(await page.evaluate(() => typeof (window as AxeWindow).axe === 'object'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    ([include, tags]) =>
      (window as AxeWindow).axe!.run(
        { include: [[include]] },
        { runOnly: { type: 'tag', values: tags }, rules: { 'target-size': { enabled: true } }, resultTypes: ['violations'] },
      ),
    [selector, WCAG_TAGS] as const,
  );
};
