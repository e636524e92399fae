/**
 * axe inside `<merchant-checkout>` on a Playwright page, the way the screens' checks need it
 * many times over: axe-core (the version `@axe-core/playwright` pins) is put into a document
 * once and run there again and again. `AxeBuilder#analyze()` puts axe-core (half a megabyte of
 * script) into the page on every call and finishes each run in a new blank page, about 1.4 s
 * a check on a 2-core machine against 0.25 s this way; the element has no frames, whose
 * handling is all the builder adds. The same run in any engine's page (Firefox through
 * puppeteer, WebKit through WebDriver: test/e2e/support/engine-page.ts) is {@link axeIn}.
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

/** What axe needs of a page in any engine: a function run in it, and a script put into it. */
export interface AxeHost {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  addScript(source: string): Promise<void>;
}

/**
 * axe's results for what `selector` matches (across shadow roots), WCAG 2.2 AA with
 * `target-size`: violations in full, the other outcomes as the rules that gave them.
 */
export const axeIn = async (host: AxeHost, selector: string): Promise<AxeResults> => {
  if (!(await host.evaluate(() => typeof (window as AxeWindow).axe === 'object', undefined))) await host.addScript(AXE_SOURCE);
  return host.evaluate(
    ([include, tags]) =>
      (window as AxeWindow).axe!.run(
        { include: [[include]] },
        { runOnly: { type: 'tag', values: tags }, rules: { 'target-size': { enabled: true } }, resultTypes: ['violations'] },
      ),
    [selector, WCAG_TAGS] as const,
  );
};

/** {@link axeIn} on a Playwright page. */
export const runAxe = (page: Page, selector: string): Promise<AxeResults> =>
  axeIn(
    {
      evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg: A) => page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown),
      addScript: async (source) => void (await page.evaluate(source)),
    },
    selector,
  );
