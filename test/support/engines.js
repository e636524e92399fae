/**
 * The browser engines the browser suite runs in (web-test-runner.config.js, scripts/test.js),
 * and Debian's Firefox ESR (package `firefox-esr`; `FIREFOX_PATH` points elsewhere). Chromium
 * is test/support/chromium.js, WebKit test/support/webkit.js.
 */
export const ENGINES = ['chromium', 'firefox', 'webkit'];

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
