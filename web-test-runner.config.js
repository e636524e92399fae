import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter } from '@web/test-runner';
import * as puppeteer from 'puppeteer-core';
import { checkoutIntegration, cspPage } from './test/support/middleware.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/support/chromium.js';
import { FIREFOX_PATH, ENGINES } from './test/support/engines.js';
import { webkitLauncher } from './test/support/webkit-launcher.js';
import { commonJsPlugin, summaryReporter } from './test/support/wtr-plugins.js';
import { reactPlugin } from './test/react/react-plugin.js';

/**
 * The browser suite in one engine: `WTR_ENGINE` is `chromium` (the default), `firefox` or
 * `webkit` (scripts/test.js runs all three, one after the other; docs/ARCHITECTURE.md, "Tests").
 * Each is Debian's browser, driven without anything downloaded: Chromium over CDP and Firefox
 * ESR over WebDriver BiDi through puppeteer-core, WebKit's MiniBrowser over WebDriver.
 */
const engine = process.env.WTR_ENGINE ?? 'chromium';
if (!ENGINES.includes(engine)) throw new TypeError(`WTR_ENGINE is "${engine}"; one of ${ENGINES.join(', ')}`);

const launchers = {
  chromium: () =>
    chromeLauncher({
      launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS },
      // Each test file in a browser context (a window) of its own: tabs sharing a window are
      // "hidden" while another is in front, which pauses polling, rAF and focus there.
      createPage: async ({ browser }) => {
        const context = await browser.createBrowserContext();
        const page = await context.newPage();
        page.once('close', () => void context.close().catch(() => undefined));
        return page;
      },
    }),
  // puppeteer-core speaks WebDriver BiDi to Firefox. One file at a time: Firefox focuses one
  // window (or tab) of its own, and in any other a key press reaches no button and
  // `:focus-visible` never matches (measured: "Enter copies" and the focus ring fail at 2).
  firefox: () =>
    chromeLauncher({ puppeteer, concurrency: 1, launchOptions: { browser: 'firefox', executablePath: FIREFOX_PATH, headless: true } }),
  // One MiniBrowser per concurrent file (test/support/webkit-launcher.js).
  webkit: () => webkitLauncher({ concurrency: 2 }),
};

/** @type {import('@web/test-runner').TestRunnerConfig} */
export default {
  files: ['test/element/**/*.test.ts', 'test/react/**/*.test.ts'],
  nodeResolve: { browser: true, exportConditions: ['browser', 'development'] },
  concurrency: 2,
  // The CSP test page, and the real proxy + mock for the integration tests.
  middleware: [cspPage(), checkoutIntegration()],
  testFramework: { config: { timeout: 10000 } },
  browsers: [launchers[engine]()],
  plugins: [
    commonJsPlugin(['qrcode', '@sinonjs/fake-timers']),
    // React (CommonJS) as ES modules, one copy, for test/react.
    reactPlugin(),
    // esbuild's transform API reads the file as raw JSON and does not follow `extends`: point it
    // at the file that holds the decorator settings (legacy decorators, as tsc compiles them;
    // without it esbuild assumes standard ones: "Unsupported decorator location: field").
    esbuildPlugin({ ts: true, tsx: true, target: 'es2022', tsconfig: fileURLToPath(new URL('./tsconfig.base.json', import.meta.url)) }),
  ],
  // summaryReporter writes the counts that scripts/test.js reads (WTR_SUMMARY_FILE).
  reporters: [defaultReporter(), summaryReporter()],
};
