/**
 * Screenshots of the console for docs/console.md (docs/console-*.png), in Debian's Chromium:
 * the world of test/e2e/console.test.ts (a real gateway on SQLite, the mock service, a shop
 * whose webhooks fail), the invoice played, then the home page, the invoice's
 * timeline on a phone (320 px) and on a desk, and the sign-in page in Russian.
 *
 *   npx tsx bench/console-screenshots.ts
 */
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../test/e2e/support/browser.js';
import { CONSOLE_KEY, startConsoleWorld, story } from '../test/e2e/support/console-world.js';

const docs = (name: string) => fileURLToPath(new URL(`../docs/${name}`, import.meta.url));

const world = await startConsoleWorld();
const browser = await launchChromium();
try {
  const told = await story(world);
  const shoot = async (width: number, height: number, path: string, file: string, lang: 'en' | 'ru', signedIn = true) => {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, colorScheme: 'light' });
    const page = await context.newPage();
    if (signedIn) {
      await page.goto(`${world.url}/console?lang=${lang}`);
      await page.fill('#key', CONSOLE_KEY);
      await Promise.all([page.waitForNavigation(), page.click('form.login button')]);
    }
    await page.goto(`${world.url}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
    await page.screenshot({ path: docs(file), fullPage: width < 400 ? false : true });
    await context.close();
    console.log(`wrote docs/${file}`);
  };
  await shoot(1024, 800, '/console', 'console-home.png', 'en');
  await shoot(1024, 1200, `/console/invoices/${told.invoiceId}`, 'console-invoice.png', 'en');
  await shoot(320, 640, `/console/invoices/${told.invoiceId}`, 'console-invoice-phone-ru.png', 'ru');
  await shoot(320, 480, '/console', 'console-sign-in-ru.png', 'ru', false);
} finally {
  await browser.close();
  await world.close();
}
