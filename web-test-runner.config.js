import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter } from '@web/test-runner';
import { checkoutIntegration, cspPage } from './test/support/middleware.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/support/chromium.js';
import { commonJsPlugin, summaryReporter } from './test/support/wtr-plugins.js';
import { reactPlugin } from './test/react/react-plugin.js';

/** @type {import('@web/test-runner').TestRunnerConfig} */
export default {
  files: ['test/element/**/*.test.ts', 'test/react/**/*.test.ts'],
  nodeResolve: { browser: true, exportConditions: ['browser', 'development'] },
  concurrency: 2,
  // The CSP test page, and the real proxy + mock for the integration tests.
  middleware: [cspPage(), checkoutIntegration()],
  testFramework: { config: { timeout: 10000 } },
  browsers: [
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
  ],
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
