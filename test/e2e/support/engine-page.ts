/**
 * One page in each engine the suite runs (test/support/engines.js), behind the few things an
 * end-to-end check of a server-rendered page does: load a URL, type into a field, click
 * something that loads the next page, run a function in the page, put a script into it (axe:
 * {@link axeIn}). Chromium through playwright-core, Firefox ESR through puppeteer-core over
 * WebDriver BiDi, WebKit (WebKitGTK's MiniBrowser) through W3C WebDriver (test/support/webkit.js).
 * Typing and clicking are real input in all three.
 *
 * WebKit's window cannot be made as narrow as a phone: MiniBrowser's toolbar keeps it at least
 * 447 px wide, so the page opens without it (`bare`: `--full-screen`), and then it stays
 * {@link WEBKIT_NARROWEST} px wide when asked for 320 (WebKitGTK 2.50, Debian 12), and so does a
 * popup opened with `popup,width=320`; its page zoom (which would narrow the CSS viewport) is a
 * window accelerator that WebDriver's key input does not reach; and the console's pages may
 * not be framed (`frame-ancestors 'none'`). A check of the width reads `innerWidth`.
 */
import type { Browser as PlaywrightBrowser } from 'playwright-core';
import * as puppeteer from 'puppeteer-core';
import { FIREFOX_PATH } from '../../support/engines.js';
import { startWebKit, type WebKit } from '../../support/webkit.js';
import type { AxeHost } from './axe.js';
import { launchChromium } from './browser.js';

export type Engine = 'chromium' | 'firefox' | 'webkit';

/** The narrowest viewport MiniBrowser's window gives without its toolbar, in CSS px (measured: `innerWidth` after asking for 320). */
export const WEBKIT_NARROWEST = 334;

/** Each engine as a test names it. */
export const ENGINE_NAMES: Record<Engine, string> = { chromium: 'Chromium', firefox: 'Firefox ESR', webkit: 'WebKit' };

export interface EnginePage extends AxeHost {
  readonly engine: Engine;
  goto(url: string): Promise<void>;
  /** Types `text` into the field `selector` matches, key by key. */
  type(selector: string, text: string): Promise<void>;
  /** A real click on what `selector` matches; resolves when the page it loads has loaded. */
  clickToLoad(selector: string): Promise<void>;
  /** Ends the page and the browser it opened. */
  close(): Promise<void>;
}

export interface EnginePageOptions {
  width: number;
  height: number;
  /** A Chromium already running: the page opens in a context of its own there, and closing it leaves the browser. */
  chromium?: PlaywrightBrowser;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const chromiumPage = async ({ width, height, chromium }: EnginePageOptions): Promise<EnginePage> => {
  const browser = chromium ?? (await launchChromium());
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  return {
    engine: 'chromium',
    goto: async (url) => void (await page.goto(url)),
    type: (selector, text) => page.locator(selector).pressSequentially(text),
    clickToLoad: async (selector) => void (await Promise.all([page.waitForNavigation(), page.click(selector)])),
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg: A) => page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown),
    addScript: async (source) => void (await page.evaluate(source)),
    close: () => (chromium ? context.close() : browser.close()),
  };
};

const firefoxPage = async ({ width, height }: EnginePageOptions): Promise<EnginePage> => {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true });
  const page = await browser.newPage();
  await page.setViewport({ width, height });
  return {
    engine: 'firefox',
    goto: async (url) => void (await page.goto(url)),
    type: (selector, text) => page.type(selector, text),
    clickToLoad: async (selector) => void (await Promise.all([page.waitForNavigation(), page.click(selector)])),
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg: A) => page.evaluate(fn as (arg: unknown) => Promise<R>, arg) as Promise<R>,
    addScript: async (source) => void (await page.evaluate(source)),
    close: () => browser.close(),
  };
};

/** How long WebKit has to load the page a click asked for. */
const WEBKIT_LOAD_MS = 10_000;

const webkitPage = async ({ width, height }: EnginePageOptions): Promise<EnginePage> => {
  const webkit: WebKit = await startWebKit({ width, height, bare: true });
  const element = async (selector: string) => {
    const found = await webkit.command<Record<string, string>>('POST', '/element', { using: 'css selector', value: selector });
    return Object.values(found)[0]!;
  };
  const evaluate = async <R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> => {
    const answer = await webkit.executeAsync<{ value?: R; thrown?: string }>(
      `const arg = arguments[0], done = arguments[arguments.length - 1];
       Promise.resolve().then(() => (${String(fn)})(arg)).then(
         (value) => done({ value }),
         (error) => done({ thrown: String(error) + (error && error.stack ? '\\n' + error.stack : '') }),
       );`,
      [arg],
    );
    if (answer.thrown !== undefined) throw new Error(`in WebKit: ${answer.thrown}`);
    return answer.value as R;
  };
  return {
    engine: 'webkit',
    goto: async (url) => void (await webkit.navigate(url)),
    type: async (selector, text) => void (await webkit.command('POST', `/element/${await element(selector)}/value`, { text })),
    clickToLoad: async (selector) => {
      // The document the click leaves is marked; the next one is loaded when the mark is gone.
      await evaluate(() => void ((window as { leaving?: boolean }).leaving = true), undefined);
      await webkit.command('POST', `/element/${await element(selector)}/click`, {});
      const deadline = Date.now() + WEBKIT_LOAD_MS;
      for (;;) {
        const loaded = await webkit.execute<boolean>("return !window.leaving && document.readyState === 'complete';").catch(() => false);
        if (loaded) return;
        if (Date.now() > deadline) throw new Error(`WebKit: no page loaded within ${WEBKIT_LOAD_MS} ms of clicking ${selector}`);
        await pause(25);
      }
    },
    evaluate,
    addScript: async (source) => void (await webkit.execute(source)),
    close: () => webkit.close(),
  };
};

/** A page in `engine`, of the given viewport (WebKit: at least as wide as its window can be). */
export const openEnginePage = (engine: Engine, options: EnginePageOptions): Promise<EnginePage> =>
  ({ chromium: chromiumPage, firefox: firefoxPage, webkit: webkitPage })[engine](options);
