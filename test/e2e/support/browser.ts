/**
 * Debian's Chromium driven by playwright-core (no browser download), with the flags that keep
 * it quiet and stable on a small CI machine. `CHROME_PATH` points elsewhere.
 */
import { chromium, type Browser, type BrowserContext, type ConsoleMessage } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../support/chromium.js';

export { CHROMIUM_ARGS, CHROMIUM_PATH };

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });

export interface ConsoleProblem {
  kind: 'console.error' | 'pageerror';
  text: string;
  /** The script or resource the message is about, when the browser says. */
  url: string;
}

/**
 * Collects every `console.error` and uncaught error of every page of a context. A test that
 * makes requests fail on purpose says which failed-resource messages it expects with
 * {@link ConsoleWatch.expectFailedResources}; everything else is a problem.
 */
export class ConsoleWatch {
  #problems: ConsoleProblem[] = [];
  #expected: RegExp | undefined;

  constructor(context: BrowserContext) {
    context.on('console', (message) => this.#onConsole(message));
    context.on('weberror', (error) => {
      const thrown = error.error();
      this.#problems.push({ kind: 'pageerror', text: thrown.stack ?? thrown.message, url: error.page()?.url() ?? '' });
    });
  }

  /**
   * Until called again with `undefined`, Chromium's "Failed to load resource: the server
   * responded with a status of 5xx" for URLs matching `urls` is expected, not a problem.
   */
  expectFailedResources(urls: RegExp | undefined): void {
    this.#expected = urls;
  }

  /** The problems seen since the last call. */
  take(): ConsoleProblem[] {
    const problems = this.#problems;
    this.#problems = [];
    return problems;
  }

  #onConsole(message: ConsoleMessage): void {
    if (message.type() !== 'error') return;
    const text = message.text();
    const url = message.location().url;
    const failedResource = /^Failed to load resource: the server responded with a status of 5\d\d\b/.test(text);
    if (failedResource && this.#expected?.test(url)) return;
    this.#problems.push({ kind: 'console.error', text, url });
  }
}
