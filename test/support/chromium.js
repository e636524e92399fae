/**
 * Debian's Chromium and the flags that keep it quiet and stable on a small CI machine, for
 * web-test-runner (web-test-runner.config.js) and playwright-core (test/e2e, bench) alike.
 * `CHROME_PATH` points elsewhere.
 */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
