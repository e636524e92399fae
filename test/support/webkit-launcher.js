/**
 * web-test-runner's launcher for WebKit (test/support/webkit.js): each test file in a
 * MiniBrowser window of its own (one browser per slot of `concurrency`, each file navigating
 * its slot's only window, so it is always the focused one).
 *
 * web-test-runner's commands (`sendKeys`, `sendMouse`, `setViewport`) pick what to call by
 * the launcher's `type`, and its own command plugins run before a project's, so this launcher
 * says `puppeteer` and hands them a page with the few members they use (`keyboard`, `mouse`,
 * `setViewport`), made of WebDriver actions. Media emulation has no WebDriver command: it
 * throws, naming the engine (the tests use an engine-neutral form, test/element/media.ts).
 */
import { startWebKit, webdriverKey } from './webkit.js';

/** A puppeteer-shaped page over one WebDriver session, for web-test-runner's commands. */
const pageOf = (webkit) => {
  const keys = (actions) => webkit.actions([{ type: 'key', id: 'keyboard', actions }]);
  const pointer = (actions) => webkit.actions([{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions }]);
  const BUTTONS = { left: 0, middle: 1, right: 2 };
  return {
    keyboard: {
      type: (text) =>
        keys(
          [...text].flatMap((char) => [
            { type: 'keyDown', value: char },
            { type: 'keyUp', value: char },
          ]),
        ),
      press: (name) => {
        const value = webdriverKey(name);
        return keys([
          { type: 'keyDown', value },
          { type: 'keyUp', value },
        ]);
      },
      down: (name) => keys([{ type: 'keyDown', value: webdriverKey(name) }]),
      up: (name) => keys([{ type: 'keyUp', value: webdriverKey(name) }]),
    },
    mouse: {
      move: (x, y) => pointer([{ type: 'pointerMove', duration: 0, x: Math.round(x), y: Math.round(y) }]),
      click: (x, y, { button = 'left' } = {}) =>
        pointer([
          { type: 'pointerMove', duration: 0, x: Math.round(x), y: Math.round(y) },
          { type: 'pointerDown', button: BUTTONS[button] },
          { type: 'pointerUp', button: BUTTONS[button] },
        ]),
      down: ({ button = 'left' } = {}) => pointer([{ type: 'pointerDown', button: BUTTONS[button] }]),
      up: ({ button = 'left' } = {}) => pointer([{ type: 'pointerUp', button: BUTTONS[button] }]),
      reset: () => webkit.releaseActions(),
    },
    /** The window is made larger than the viewport by the toolbar; MiniBrowser's least width is 447 px. */
    setViewport: async ({ width, height }) => {
      const chrome = await webkit.execute('return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]');
      await webkit.setWindowSize({ width: width + chrome[0], height: height + chrome[1] });
    },
    emulateMediaFeatures: () => {
      throw new Error('WebKit over WebDriver has no media emulation: use test/element/media.ts');
    },
    emulateMediaType: () => {
      throw new Error('WebKit over WebDriver has no media emulation: use test/element/media.ts');
    },
  };
};

export class WebKitLauncher {
  name = 'WebKit';
  type = 'puppeteer';

  constructor({ concurrency = 1 } = {}) {
    this.concurrency = concurrency;
    /** @type {{ webkit: Promise<any>, page?: object, session?: string, url?: string }[]} */
    this.slots = [];
    this.bySession = new Map();
  }

  async startSession(sessionId, url) {
    let slot = this.slots.find((candidate) => !candidate.session);
    if (!slot) {
      slot = { webkit: startWebKit({ width: 800, height: 600 }) };
      this.slots.push(slot);
    }
    slot.session = sessionId;
    slot.url = url;
    this.bySession.set(sessionId, slot);
    const webkit = await slot.webkit;
    this.name = `WebKit ${webkit.version}`;
    slot.page ??= pageOf(webkit);
    await slot.page.setViewport({ width: 800, height: 600 });
    await webkit.navigate(url);
  }

  isActive(sessionId) {
    return this.bySession.has(sessionId);
  }

  getBrowserUrl(sessionId) {
    return this.bySession.get(sessionId)?.url;
  }

  /** The page web-test-runner's commands drive (see the top of this file). */
  getPage(sessionId) {
    const slot = this.bySession.get(sessionId);
    if (!slot?.page) throw new Error(`No WebKit page for session ${sessionId}`);
    return slot.page;
  }

  async stopSession(sessionId) {
    const slot = this.bySession.get(sessionId);
    if (!slot) throw new Error(`No WebKit page for session ${sessionId}`);
    this.bySession.delete(sessionId);
    const webkit = await slot.webkit;
    // An empty page stops the file's timers and requests before the slot takes the next file.
    await webkit.navigate('about:blank').catch(() => undefined);
    slot.session = undefined;
    slot.url = undefined;
    return {};
  }

  startDebugSession() {
    throw new Error('No debug session in WebKit: run it by hand with MiniBrowser');
  }

  async stop() {
    const slots = this.slots;
    this.slots = [];
    await Promise.all(slots.map(async (slot) => (await slot.webkit.catch(() => undefined))?.close()));
  }
}

export const webkitLauncher = (options) => new WebKitLauncher(options);
