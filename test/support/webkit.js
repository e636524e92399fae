/**
 * WebKit for the tests, from Debian's packages and nothing downloaded: WebKitGTK's
 * `MiniBrowser` driven over W3C WebDriver by `WebKitWebDriver` (package `webkit2gtk-driver`),
 * in an X server of its own (`Xvfb`, package `xvfb`) when there is no display. The WebDriver
 * client is `fetch`: the few commands the tests use need no library (webdriverio would bring
 * geckodriver and edgedriver packages whose install scripts download binaries).
 *
 * Used by the browser suite's WebKit launcher (test/support/webkit-launcher.js) and the
 * end-to-end tests in WebKit (test/e2e). `WEBKIT_MINIBROWSER` points at another MiniBrowser.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

const MINIBROWSER_CANDIDATES = [
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/libexec/webkit2gtk-4.1/MiniBrowser',
];
export const WEBKIT_DRIVER = process.env.WEBKIT_WEBDRIVER ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.WEBKIT_MINIBROWSER ?? MINIBROWSER_CANDIDATES.find((path) => existsSync(path));

/** Why WebKit cannot start here, or undefined when it can. */
export const webkitMissing = () => {
  if (!existsSync(WEBKIT_DRIVER) || !MINIBROWSER)
    return 'WebKit is missing: install the Debian package webkit2gtk-driver (scripts/setup.sh does)';
  if (!process.env.DISPLAY && !existsSync('/usr/bin/Xvfb'))
    return 'WebKit needs a display: install the Debian package xvfb (scripts/setup.sh does)';
  return undefined;
};

/** How long one WebDriver command may take (a page load included). */
const COMMAND_TIMEOUT = 60_000;
const STARTUP_TIMEOUT = 20_000;

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const children = new Set();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
const own = (child) => {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
};

/** An X server of its own; resolves with its display (`:N`, picked by Xvfb among free ones). */
const startXvfb = () =>
  new Promise((resolve, reject) => {
    const xvfb = own(
      spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
        stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      }),
    );
    let errors = '';
    xvfb.stderr.on('data', (chunk) => (errors += chunk));
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start in ${STARTUP_TIMEOUT} ms: ${errors}`)), STARTUP_TIMEOUT);
    xvfb.stdio[3].once('data', (chunk) => {
      clearTimeout(timer);
      resolve({ display: `:${String(chunk).trim()}`, process: xvfb });
    });
    xvfb.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${errors}`));
    });
  });

const stop = async (child) => {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
};

export class WebDriverError extends Error {
  constructor(command, answer) {
    super(`${command}: ${answer?.value?.error ?? 'no answer'}: ${answer?.value?.message ?? ''}`);
    this.name = 'WebDriverError';
    this.code = answer?.value?.error;
  }
}

/**
 * One MiniBrowser under WebKitWebDriver: `command(method, path, body)` speaks W3C WebDriver
 * relative to the session; `close()` ends the session, the driver and the X server it started.
 * `bare`: MiniBrowser without its toolbar (`--full-screen`), whose widgets keep its window at
 * least 447 px wide; without them it narrows to 334 px (WebKitGTK 2.50), then sized as asked.
 */
export const startWebKit = async ({ width = 800, height = 600, bare = false } = {}) => {
  const missing = webkitMissing();
  if (missing) throw new Error(missing);
  const xvfb = process.env.DISPLAY ? undefined : await startXvfb();
  const env = { ...process.env, ...(xvfb ? { DISPLAY: xvfb.display } : {}) };
  const port = await freePort();
  const driver = own(spawn(WEBKIT_DRIVER, [`--port=${port}`], { env, stdio: ['ignore', 'ignore', 'pipe'] }));
  let driverErrors = '';
  driver.stderr.on('data', (chunk) => (driverErrors = `${driverErrors}${chunk}`.slice(-4000)));
  const base = `http://127.0.0.1:${port}`;

  const request = async (method, path, body, timeout = COMMAND_TIMEOUT) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    });
    const answer = await response.json().catch(() => undefined);
    if (!response.ok) throw new WebDriverError(`${method} ${path}`, answer);
    return answer?.value;
  };

  const closeAll = async () => {
    await stop(driver);
    await stop(xvfb?.process);
  };

  try {
    const deadline = Date.now() + STARTUP_TIMEOUT;
    for (;;) {
      const ready = await request('GET', '/status', undefined, 1000).then(
        (status) => status?.ready !== false,
        () => false,
      );
      if (ready) break;
      if (driver.exitCode !== null || Date.now() > deadline) throw new Error(`WebKitWebDriver did not start: ${driverErrors}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const session = await request('POST', '/session', {
      capabilities: {
        alwaysMatch: {
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation', ...(bare ? ['--full-screen'] : [])] },
        },
      },
    });
    const prefix = `/session/${session.sessionId}`;
    const command = (method, path, body, timeout) => request(method, `${prefix}${path}`, body, timeout);
    const webkit = {
      version: session.capabilities.browserVersion,
      command,
      /** Runs `script` (a function body) in the page, with `arguments`. */
      execute: (script, args = []) => command('POST', '/execute/sync', { script, args }),
      /** Runs `script`, which calls `arguments[arguments.length - 1]` with its result. */
      executeAsync: (script, args = []) => command('POST', '/execute/async', { script, args }),
      navigate: (url) => command('POST', '/url', { url }),
      /** The window's outer size; the viewport is smaller by MiniBrowser's toolbar. */
      setWindowSize: (size) => command('POST', '/window/rect', size),
      actions: (actions) => command('POST', '/actions', { actions }),
      releaseActions: () => command('DELETE', '/actions'),
      screenshot: async () => Buffer.from(await command('GET', '/screenshot'), 'base64'),
      close: async () => {
        await request('DELETE', prefix, undefined, 10_000).catch(() => undefined);
        await closeAll();
      },
    };
    await webkit.setWindowSize({ width, height });
    return webkit;
  } catch (error) {
    await closeAll();
    throw error;
  }
};

/** WebDriver's code points of the keys web-test-runner's `sendKeys` names (as puppeteer does). */
export const WEBDRIVER_KEYS = {
  Backspace: '\uE003',
  Tab: '\uE004',
  Enter: '\uE007',
  Shift: '\uE008',
  Control: '\uE009',
  Alt: '\uE00A',
  Escape: '\uE00C',
  Space: ' ',
  PageUp: '\uE00E',
  PageDown: '\uE00F',
  End: '\uE010',
  Home: '\uE011',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
  Delete: '\uE017',
  Meta: '\uE03D',
};

export const webdriverKey = (name) => {
  if (name.length === 1) return name;
  const key = WEBDRIVER_KEYS[name];
  if (!key) throw new Error(`No WebDriver key for "${name}"; known: ${Object.keys(WEBDRIVER_KEYS).join(', ')}`);
  return key;
};
