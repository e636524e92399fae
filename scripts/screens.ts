/**
 * `npm run screens`: renders every screen of `<merchant-checkout>` (test/e2e/support/screens.ts
 * lists them and how the demo reaches each) with Debian's Chromium into
 * `docs/screens/<screen>-<theme>-<width>-<lang>.png`, and writes docs/screens/README.md:
 *
 * - in light and dark, at 360 px (a touch phone) and 1024 px, in Russian and English;
 * - in every language of the checkout, light at 360 px (one page per screen, the language
 *   switched in it with the demo's switch);
 * - each payment option's deal (`option-*` deep links), light at 360 px in a language of its
 *   payers.
 *
 * Only the element is pictured. The mock's draws repeat (one seed, reset before each screen),
 * the countdown's digits are a grey bar and the element is pinned to whole pixels while it is
 * pictured, so a second run rewrites no picture unless the element changed; a file whose bytes
 * are the same is not written again. The screens are visited in a fixed order because the demo
 * shop numbers its orders (the expired and dispute screens show the number); a screen tried a
 * second time shifts the numbers after it.
 */
import { mkdtemp, mkdir, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test/e2e/support/browser.js';
import { OPTION_SCENARIOS, type OptionScenarioName } from '../demo/shared/scenarios.js';
import {
  ALL_LANGS,
  DEVICES,
  LANGS,
  newScreensContext,
  openOptionScenario,
  openState,
  SCREEN_STATES,
  settle,
  startScreensDemo,
  switchLanguage,
  THEMES,
  variantName,
  variantsOf,
  WIDTHS,
  type ScreensDemo,
  type ScreenState,
  type Variant,
} from '../test/e2e/support/screens.js';

const OUT = fileURLToPath(new URL('../docs/screens/', import.meta.url));
/** A state that did not settle is tried again this many times in all. */
const ATTEMPTS = 2;

const fileName = (state: ScreenState, variant: Variant) => `${state.name}-${variantName(variant)}.png`;

/** The variant every language is pictured in: light, at 360 px. */
const isLanguageVariant = (variant: Pick<Variant, 'theme' | 'width'>) => variant.theme === 'light' && variant.width === 360;

/**
 * Which variants of the themes' pass are pictured: all of the first state of each screen
 * (`data-screen`), and dark 1024 px en (or dark 360 px en for a touch-only state) of every
 * further state; light 360 px is the languages' pass (every state in every language).
 * test/e2e/screens.test.ts checks them with axe, pictured or not.
 */
const pictured = (state: ScreenState): Variant[] =>
  variantsOf(state).filter(
    (variant) =>
      !isLanguageVariant(variant) &&
      (SCREEN_STATES.find((each) => each.screen === state.screen) === state ||
        (variant.theme === 'dark' && variant.lang === 'en' && (variant.width === 1024 || state.touchOnly === true))),
  );

/** Every picture the three passes write. */
const expectedFiles = (): Set<string> =>
  new Set([
    ...SCREEN_STATES.flatMap((state) => pictured(state).map((variant) => fileName(state, variant))),
    ...SCREEN_STATES.flatMap((state) => ALL_LANGS.map((lang) => fileName(state, { theme: 'light', width: 360, lang }))),
    ...OPTION_NAMES.map(optionFileName),
  ]);

const OPTION_NAMES = Object.keys(OPTION_SCENARIOS) as OptionScenarioName[];
const optionFileName = (name: OptionScenarioName) => `${name}-light-360-${OPTION_SCENARIOS[name].lang}.png`;

/** Writes `data` unless the file already holds exactly it; says whether it wrote. */
const writeIfChanged = async (path: string, data: Buffer): Promise<boolean> => {
  const old = await readFile(path).catch(() => undefined);
  if (old?.equals(data)) return false;
  await writeFile(path, data);
  return true;
};

/**
 * A stylesheet for the picture only (Playwright puts it into the page and into the element's
 * shadow root, and takes it out afterwards), so that the same screen gives the same pixels:
 * the element at the page's top left corner, at the width it had (the page around it moves it
 * by fractions of a pixel as its order panel fills in), with nothing of the page behind it
 * but its background (its rounded corners show what is behind them), and the countdown's
 * digits, which change every second, as a grey bar of one width.
 */
const screenshotStyle = (width: number) => `
  body * {
    visibility: hidden !important;
  }
  merchant-checkout {
    visibility: visible !important;
    position: fixed !important;
    inset: 0 auto auto 0 !important;
    width: ${width}px !important;
    margin: 0 !important;
    z-index: 2147483647 !important;
  }
  [part~='timer'] .time {
    display: inline-block !important;
    inline-size: 4.5em !important;
    overflow: hidden !important;
    color: transparent !important;
    background: #8a8f98 !important;
    border-radius: 4px !important;
    vertical-align: middle !important;
  }
`;

type Shot = { png: Buffer; overflow: number };

const shoot = async (page: Page, demo: ScreensDemo, state: ScreenState, variant: Variant): Promise<Shot> => {
  await page.setViewportSize(DEVICES[variant.width].viewport);
  await openState(page, demo, state, variant);
  return capture(page, variant);
};

/** The element as it is on `page` now. */
const capture = async (page: Page, variant: Pick<Variant, 'width'>): Promise<Shot> => {
  const { viewport } = DEVICES[variant.width];
  await page.setViewportSize(viewport);
  await settle(page);
  const box = await page.evaluate(() => {
    const { width, height, right } = document.querySelector('merchant-checkout')!.getBoundingClientRect();
    return { width, height, right: right + scrollX };
  });
  // Pinned to the viewport's top, the element must fit in it: nothing scrolled to, nothing painted late.
  if (box.height > viewport.height) {
    await page.setViewportSize({ width: viewport.width, height: Math.ceil(box.height) });
    await settle(page);
  }
  const png = await page.locator('merchant-checkout').screenshot({
    animations: 'disabled',
    caret: 'hide',
    scale: 'css',
    style: screenshotStyle(box.width),
  });
  return { png, overflow: Math.max(0, Math.ceil(box.right - viewport.width)) };
};

interface Outcome {
  file: string;
  bytes: number;
  written: boolean;
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error));

/** What a run did: the pictures, the states that could not be pictured, and what a picture shows wrong. */
class Results {
  readonly outcomes: Outcome[] = [];
  readonly failures: string[] = [];
  /** Pictured, but wrong in a way the element should fix. */
  readonly problems: string[] = [];

  /** Tries `take` (twice in all), writes the picture to `file` if it changed, and says so. */
  async record(file: string, width: number, take: () => Promise<Shot>): Promise<void> {
    let shot: Shot | undefined;
    let lastError: unknown;
    for (let attempt = 1; attempt <= ATTEMPTS && !shot; attempt++) {
      try {
        shot = await take();
      } catch (error) {
        lastError = error;
        if (attempt < ATTEMPTS) console.warn(`  … ${file}: trying again (${firstLine(error)})`);
      }
    }
    if (!shot) {
      this.failures.push(`${file}: ${firstLine(lastError)}`);
      console.error(`✗ ${file}: ${firstLine(lastError)}`);
      return;
    }
    const { png, overflow } = shot;
    const written = await writeIfChanged(join(OUT, file), png);
    this.outcomes.push({ file, bytes: png.length, written });
    console.log(`${written ? '✎' : '='} ${file} (${png.length} bytes)`);
    if (overflow) {
      this.problems.push(`${file}: the element sticks out ${overflow} px past the ${width} px viewport (the page scrolls sideways)`);
      console.error(`  ! ${this.problems.at(-1)}`);
    }
  }
}

const newPage = async (browser: Browser, width: Variant['width'], theme: Variant['theme']) => {
  const context = await newScreensContext(browser, { width, theme });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.warn(`  page error (${page.url()}): ${error.message}`));
  return { context, page };
};

const run = async (browser: Browser, demo: ScreensDemo): Promise<Results> => {
  const results = new Results();
  // The themes: one context per width and theme; both languages and every screen in it, in a fixed order.
  for (const width of WIDTHS) {
    for (const theme of THEMES) {
      const { context, page } = await newPage(browser, width, theme);
      for (const lang of LANGS) {
        for (const state of SCREEN_STATES) {
          const variant: Variant = { theme, width, lang };
          if (!pictured(state).some((each) => variantName(each) === variantName(variant))) continue;
          await results.record(fileName(state, variant), width, () => shoot(page, demo, state, variant));
        }
      }
      await context.close();
    }
  }
  // The languages, light at 360 px: each state once, switched through every language in place.
  const { context, page } = await newPage(browser, 360, 'light');
  for (const state of SCREEN_STATES) {
    let opened = false;
    for (const lang of ALL_LANGS) {
      const variant: Variant = { theme: 'light', width: 360, lang };
      await results.record(fileName(state, variant), 360, async () => {
        try {
          if (!opened) await shoot(page, demo, state, { ...variant, lang: 'en' });
          opened = true;
          await switchLanguage(page, state.screen, lang);
          return await capture(page, variant);
        } catch (error) {
          // Tried again from the scenario's start.
          opened = false;
          throw error;
        }
      });
    }
  }
  // The payment options, each in a language of its payers.
  for (const name of OPTION_NAMES) {
    await results.record(optionFileName(name), 360, async () => {
      await page.setViewportSize(DEVICES[360].viewport);
      await openOptionScenario(page, demo, name);
      return capture(page, { width: 360 });
    });
  }
  await context.close();
  return results;
};

/** The tables of docs/screens/README.md: a row a screen, a column a variant; a column a language; the options. */
const readme = (have: ReadonlySet<string>): string => {
  const link = (file: string, text: string, missing: string) => (have.has(file) ? `[${text}](${file})` : missing);
  const columns: Variant[] = THEMES.flatMap((theme) => WIDTHS.flatMap((width) => LANGS.map((lang) => ({ theme, width, lang }))));
  const header = `| screen | how it is reached | ${columns.map((variant) => `${variant.theme} ${variant.width} ${variant.lang}`).join(' | ')} |`;
  const rule = `|---|---|${columns.map(() => '---').join('|')}|`;
  const rows = SCREEN_STATES.map((state) => {
    const cells = columns.map((variant) => {
      if (state.touchOnly && !DEVICES[variant.width].hasTouch) return 'touch only';
      const shown = isLanguageVariant(variant) || pictured(state).some((each) => variantName(each) === variantName(variant));
      return shown ? link(fileName(state, variant), variant.lang, 'missing') : '–';
    });
    return `| \`${state.name}\` (\`${state.screen}\`) | ${state.how} | ${cells.join(' | ')} |`;
  });
  const languageRows = SCREEN_STATES.map(
    (state) =>
      `| \`${state.name}\` | ${ALL_LANGS.map((lang) => link(fileName(state, { theme: 'light', width: 360, lang }), lang, 'missing')).join(' | ')} |`,
  );
  const optionRows = OPTION_NAMES.map((name) => {
    const { option, currency, method, lang } = OPTION_SCENARIOS[name];
    return `| \`?scenario=${name}\` | \`${option}\` | ${currency}, \`${method}\` | ${link(optionFileName(name), lang, 'missing')} |`;
  });
  return `# Screens of \`<merchant-checkout>\`

Every screen of the element as the demo shows it, in the light and dark theme, at 360 px (a
touch phone: \`(pointer: coarse)\` matches, so bank apps are offered) and at 1024 px, in
Russian and English; every screen in every language of the element, light at 360 px; and the
deal of every payment option, in a language of its payers. Only the element is pictured; the
countdown's digits are a grey bar, since they change every second. File names:
\`<screen>-<theme>-<width>-<lang>.png\`. The first column gives the name and, in brackets, the
\`data-screen\` of part \`base\`. Each screen is pictured in every variant once; the other
states of the same screen (another scenario, or a press after one) in light 360 px (every
language) and dark 1024 px en (–: not pictured, to keep this folder small).

${header}
${rule}
${rows.join('\n')}

## Every language (light, 360 px)

The text of languages other than English and Russian is machine-translated and not yet
reviewed by a native speaker (docs/element.md, "Languages").

| screen | ${ALL_LANGS.join(' | ')} |
|---|${ALL_LANGS.map(() => '---').join('|')}|
${languageRows.join('\n')}

## Every payment option (light, 360 px)

| deep link | option | currency, bank | picture |
|---|---|---|---|
${optionRows.join('\n')}

## Regenerate

\`\`\`sh
npm run screens
\`\`\`

\`scripts/screens.ts\` starts the demo server in process on a free port (the mock's draws
seeded, so requisites, holders and variants are the same every run), opens each state with
Chromium (\`CHROME_PATH\` for another binary) and rewrites only the pictures whose pixels
changed, and this file. It visits the states in a fixed order, since the demo shop numbers its
orders and the expired and dispute screens show the number; the languages of a state are
switched in its page with the demo's language switch. The list of states and how each is
reached is \`test/e2e/support/screens.ts\`; \`test/e2e/screens.test.ts\` checks each of them
with axe (WCAG 2.2 AA, \`target-size\` on) in the end-to-end suite, in both themes at 360 px
ru and 1024 px en (\`SCREENS_AXE=all\`: every variant of the first table, pictured or not),
and in every language and every option's deal at 320 px, for reflow too.
`;
};

const main = async () => {
  const started = Date.now();
  await mkdir(OUT, { recursive: true });
  const cacheDir = await mkdtemp(join(tmpdir(), 'merchant-checkout-screens-vite-'));
  const [demo, browser] = await Promise.all([startScreensDemo({ cacheDir }), launchChromium()]);
  let result: Awaited<ReturnType<typeof run>>;
  try {
    result = await run(browser, demo);
  } finally {
    await browser.close();
    await demo.server.close();
    await rm(cacheDir, { recursive: true, force: true });
  }
  const { outcomes, failures, problems } = result;

  // Pictures of states that no longer exist go; a picture that failed this time stays.
  const expected = expectedFiles();
  for (const name of await readdir(OUT)) {
    if (name.endsWith('.png') && !expected.has(name)) await unlink(join(OUT, name));
  }
  await writeIfChanged(join(OUT, 'README.md'), Buffer.from(readme(new Set(await readdir(OUT)))));

  let total = 0;
  for (const name of await readdir(OUT)) total += (await stat(join(OUT, name))).size;
  const written = outcomes.filter((outcome) => outcome.written).length;
  console.log(
    `\n${outcomes.length} screens (${written} changed) in docs/screens/, ${total} bytes in all, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (problems.length)
    console.error(`${problems.length} pictures show a problem of the element:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  if (failures.length) {
    console.error(`${failures.length} screens could not be reached:\n${failures.map((failure) => `  ${failure}`).join('\n')}`);
    process.exitCode = 1;
  }
};

await main();
