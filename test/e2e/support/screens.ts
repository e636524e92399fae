/**
 * Every screen of `<merchant-checkout>` and how the demo reaches it, declared once for
 * `npm run screens` (scripts/screens.ts: the pictures in docs/screens/) and the e2e suite's
 * accessibility check (test/e2e/screens.test.ts: axe on each of them).
 *
 * A screen is a QA deep link of the demo (`/?scenario=<name>`, demo/shared/scenarios.ts), and,
 * for the states the payer reaches by pressing something, the presses after it. Inside the
 * element, blocks are found by their `part` names (CSS pierces its open shadow root).
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startDemoServer, type DemoServer, type DemoServerOptions } from '../../../demo/server/demo-server.js';
import { OPTION_SCENARIOS, type OptionScenarioName, SCENARIO_SCREEN, SCENARIOS, type Scenario } from '../../../demo/shared/scenarios.js';
import { BOOT_STRINGS } from '../../../src/element/i18n/boot.js';
import { type Language, LANGUAGES } from '../../../src/element/i18n/lang.js';
import { TRANSLATIONS } from '../../../src/element/i18n/locale.js';
import { seededRandom } from '../../../src/mock/random.js';

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const LANGS = ['ru', 'en'] as const;
export type Lang = (typeof LANGS)[number];

/** Every language of the checkout: each screen is checked (and pictured at 360 px) in each. */
export const ALL_LANGS: readonly Language[] = LANGUAGES;

/**
 * The two page widths: a phone (touch, so `(pointer: coarse)` matches and the element offers
 * bank apps) and a desktop.
 */
export const DEVICES = {
  // The narrowest phone still sold: every language is checked at it, for reflow.
  320: { viewport: { width: 320, height: 700 }, hasTouch: true, isMobile: true },
  360: { viewport: { width: 360, height: 780 }, hasTouch: true, isMobile: true },
  1024: { viewport: { width: 1024, height: 900 }, hasTouch: false, isMobile: false },
} as const;
export type Width = keyof typeof DEVICES;
/** The widths of the themes' variants (pictured, and checked with axe in both themes). */
export const WIDTHS = [360, 1024] as const satisfies readonly Width[];

export interface Variant {
  theme: Theme;
  width: Width;
  lang: Language;
}

export interface ScreenState {
  /** The file name's first part (docs/screens/<name>-<theme>-<width>-<lang>.png). */
  name: string;
  /** A scenario's own first screen, or a state reached by pressing something in the element after it. */
  kind: 'scenario' | 'clicked';
  /** The demo's QA deep link it starts from. */
  scenario: Scenario;
  /** `data-screen` of part `base` once the state is reached. */
  screen: string;
  /** What reaches it, in words (docs/screens/README.md). */
  how: string;
  /** The presses after the scenario's first screen, and what shows when they are done. */
  reach?: (page: Page) => Promise<void>;
  /** Only on a touch device (the SBP bank picker). */
  touchOnly?: boolean;
  /** Requests left unanswered while the state is looked at, so that it stays (the loading screen). */
  hold?: RegExp;
}

/** A part of the element on `page`. */
export const part = (page: Page, name: string): Locator => page.locator(`merchant-checkout [part~="${name}"]`);

/** The element's card showing `screen`. */
export const screenLocator = (page: Page, screen: string): Locator =>
  page.locator(`merchant-checkout [part~="base"][data-screen="${screen}"]`);

const SCENARIO_HOW: Record<Scenario, string> = {
  waiting: 'an SBP deal started with the invoice: requisites, QR code, countdown',
  checking: 'the page presses "I have paid" for the payer',
  'sbp-qr': 'an SBP QR deal: the QR code of the NSPK link (on a touch device, "Choose your bank")',
  'no-deal': 'no deal yet: the payer picks a bank and a way to pay',
  'no-requisites': 'the mock has no free requisites; a variant is picked and the notice shows',
  'transfer-confirmed': 'the receipt reached the service: the deal is transfer_confirmed',
  'unique-amount': "unique amounts (maxAmount): the amount to send is the service's, with a note of the order's",
  corrected: "paid, then the amount corrected at the service: the settled amount, with a note of the order's",
  dispute: 'the shop opened a dispute on the deal',
  payout: 'a pay-out invoice: the receiver is asked for nothing',
  canceled: 'the shop canceled the invoice',
  expired: 'the invoice expired at the service',
  paid: 'the mock marked the invoice paid',
  other: 'a status the element does not know (partially_paid)',
  error: 'the service fails the first reads (503)',
  slow: 'every answer of the service is 2.5 s late: the skeleton (held while it is looked at)',
};

/** A scenario's screen is named after the scenario, but for these, named after what they show. */
const SCENARIO_NAME: Partial<Record<Scenario, string>> = {
  'no-deal': 'picker',
  slow: 'loading',
};

const SCENARIO_REACH: Partial<Record<Scenario, ScreenState['reach']>> = {
  // The picker stays: picking a variant shows the element's no_requisites notice.
  'no-requisites': async (page) => {
    await part(page, 'variant').first().click();
    await page.locator('merchant-checkout [part~="notice"][role="alert"]').waitFor();
  },
};

/** Each scenario's first screen, in the order of SCENARIOS. */
const SCENARIO_STATES: ScreenState[] = SCENARIOS.map((scenario) => ({
  name: SCENARIO_NAME[scenario] ?? scenario,
  kind: 'scenario',
  scenario,
  screen: SCENARIO_SCREEN[scenario],
  how: `\`?scenario=${scenario}\`: ${SCENARIO_HOW[scenario]}`,
  ...(SCENARIO_REACH[scenario] ? { reach: SCENARIO_REACH[scenario] } : {}),
  // The demo delays every answer 2.5 s; holding the element's reads keeps the skeleton while it is pictured and checked.
  ...(scenario === 'slow' ? { hold: /\/checkout-api\// } : {}),
}));

/** States the payer reaches by pressing something in the element. */
const CLICKED_STATES: ScreenState[] = [
  {
    name: 'cancel-confirm',
    kind: 'clicked',
    scenario: 'waiting',
    screen: 'waiting',
    how: '`?scenario=waiting`, then part `cancel-button`: the confirmation',
    reach: async (page) => {
      await part(page, 'cancel-button').click();
      await part(page, 'confirm-button').waitFor();
      await part(page, 'keep-button').waitFor();
    },
  },
  {
    name: 'receipt-form',
    kind: 'clicked',
    scenario: 'checking',
    screen: 'checking',
    how: '`?scenario=checking`, then part `receipt-button`: the receipt form',
    reach: async (page) => {
      await part(page, 'receipt-button').click();
      await part(page, 'receipt-form').waitFor();
    },
  },
  {
    name: 'report-form',
    kind: 'clicked',
    scenario: 'expired',
    screen: 'expired',
    how: '`?scenario=expired`, then part `report-button`: the report form',
    reach: async (page) => {
      await part(page, 'report-button').click();
      await part(page, 'report-form').waitFor();
    },
  },
  {
    name: 'bank-picker',
    kind: 'clicked',
    scenario: 'sbp-qr',
    screen: 'waiting',
    how: '`?scenario=sbp-qr` on a touch device, then part `bank-picker-button`: the SBP bank picker',
    touchOnly: true,
    reach: async (page) => {
      await part(page, 'bank-picker-button').click();
      await part(page, 'bank-picker').waitFor();
    },
  },
];

/** Every screen, scenarios first, then the states reached by clicking. */
export const SCREEN_STATES: readonly ScreenState[] = [...SCENARIO_STATES, ...CLICKED_STATES];

/** Every variant of `state`: both themes, both widths, both languages (touch-only states at 360 px). */
export const variantsOf = (state: ScreenState): Variant[] =>
  THEMES.flatMap((theme) =>
    WIDTHS.filter((width) => !state.touchOnly || DEVICES[width].hasTouch).flatMap((width) => LANGS.map((lang) => ({ theme, width, lang }))),
  );

export const variantName = ({ theme, width, lang }: Variant): string => `${theme}-${width}-${lang}`;

/**
 * The demo with a mock whose draws (requisites, holders, variants, deal deadlines) repeat:
 * {@link ScreensDemo.reseed} before each scenario makes every screen's data the same from run
 * to run, whatever was opened before it.
 */
export interface ScreensDemo {
  server: DemoServer;
  reseed(): void;
}

/** One fixed seed: the pictures in docs/screens/ change only when the element does. */
export const SCREENS_SEED = 20_260_519;

export const startScreensDemo = async (options: Omit<DemoServerOptions, 'random'>): Promise<ScreensDemo> => {
  let random = seededRandom(SCREENS_SEED);
  const server = await startDemoServer({
    port: 0,
    host: '127.0.0.1',
    logLevel: 'warn',
    watch: false,
    ...options,
    random: () => random(),
  });
  return { server, reseed: () => (random = seededRandom(SCREENS_SEED)) };
};

/** A browser context for one width and theme (light or dark `prefers-color-scheme` too, so the page around matches). */
export const newScreensContext = (browser: Browser, { width, theme }: Pick<Variant, 'width' | 'theme'>): Promise<BrowserContext> =>
  browser.newContext({ ...DEVICES[width], deviceScaleFactor: 1, colorScheme: theme, reducedMotion: 'reduce' });

export const scenarioUrl = (
  base: string,
  state: Pick<ScreenState, 'scenario'> | { scenario: OptionScenarioName },
  { lang, theme }: Pick<Variant, 'lang' | 'theme'>,
): string => new URL(`/?${new URLSearchParams({ scenario: state.scenario, lang, theme }).toString()}`, base).href;

/** How long a scenario may take to show its first screen (the demo creates the invoice, the element reads it). */
const FIRST_SCREEN_TIMEOUT = 15_000;

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];

/**
 * Opens `state` on `page` and waits until it is settled: the scenario's screen, the presses
 * after it, the fonts, and the QR code drawn (not its placeholder). Throws a sentence naming
 * the scenario, the screen it should show and the one it shows when it does not get there.
 * With `hold`, requests of `state.hold` stay unanswered until the next call (the loading
 * screen stays while it is pictured and checked).
 */
export const openState = async (
  page: Page,
  demo: ScreensDemo,
  state: ScreenState,
  variant: Variant,
  { firstScreenTimeout = FIRST_SCREEN_TIMEOUT } = {},
): Promise<void> => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  if (state.hold) await page.route(state.hold, () => new Promise<void>(() => undefined));
  demo.reseed();
  await page.goto(scenarioUrl(demo.server.url, state, variant));
  try {
    await screenLocator(page, state.screen).waitFor({ timeout: firstScreenTimeout });
  } catch (error) {
    const shown = await page
      .locator('merchant-checkout [part~="base"]')
      .getAttribute('data-screen', { timeout: 1000 })
      .then((screen) => `data-screen="${screen}"`)
      .catch(() => 'no part base');
    throw new Error(
      `?scenario=${state.scenario} (${variantName(variant)}) should show the "${state.screen}" screen; the element shows ${shown} (${firstLine(error)})`,
    );
  }
  if (state.reach) {
    try {
      await state.reach(page);
    } catch (error) {
      const parts = await page
        .evaluate(() => {
          const names = [...(document.querySelector('merchant-checkout')?.shadowRoot?.querySelectorAll('[part]') ?? [])].flatMap((node) =>
            (node.getAttribute('part') ?? '').split(/\s+/),
          );
          return [...new Set(names)].join(', ');
        })
        .catch(() => 'unknown');
      throw new Error(
        `${state.name} (${variantName(variant)}) not reached: ${state.how}: ${firstLine(error)}; the parts on screen: ${parts}`,
      );
    }
  }
  await settle(page);
  const shown = await page.locator('merchant-checkout [part~="base"]').getAttribute('data-screen');
  if (shown !== state.screen) throw new Error(`${state.name} (${variantName(variant)}) left the "${state.screen}" screen for "${shown}"`);
};

/** Fonts loaded, the QR code drawn and images decoded, then two frames painted. */
export const settle = async (page: Page): Promise<void> => {
  await page.waitForFunction(() => {
    const root = document.querySelector('merchant-checkout')?.shadowRoot;
    if (!root) return false;
    const busy = root.querySelector('[part~="qr"] svg[aria-busy="true"]');
    const images = [...root.querySelectorAll('img')].every((image) => image.complete);
    return !busy && images && document.fonts.status === 'loaded';
  });
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
};

/** What the title of `screen` says in `lang`: the loading screen's boot string, else the translation's heading. */
export const expectedTitle = (screen: string, lang: Language): string =>
  screen === 'loading' ? BOOT_STRINGS[lang].loading : TRANSLATIONS[lang].title(screen as Parameters<typeof TRANSLATIONS.en.title>[0]);

/**
 * Switches the checkout on `page` to `lang` with the demo's language switch (the payer's
 * state stays: a form open, a request held) and waits until the screen shows in it.
 */
export const switchLanguage = async (page: Page, screen: string, lang: Language): Promise<void> => {
  await page.locator('#lang-switch').selectOption(lang);
  await page
    .locator(`merchant-checkout [part~="base"][lang="${lang}"][data-screen="${screen}"] [part~="title"]`, {
      hasText: expectedTitle(screen, lang),
    })
    .first()
    .waitFor();
  await settle(page);
};

/**
 * Whatever of the element sticks out sideways past the viewport or its own card (reflow, WCAG
 * 1.4.10, which axe does not check), each as `part or tag: right edge`.
 */
export const overflowOf = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const host = document.querySelector('merchant-checkout')!;
    const card = host.getBoundingClientRect();
    const limit = Math.min(card.right, document.documentElement.clientWidth) + 0.5;
    const out: string[] = [];
    if (card.right + scrollX > document.documentElement.clientWidth + 0.5) out.push(`the element: ${card.right.toFixed(1)} px`);
    for (const node of host.shadowRoot!.querySelectorAll('*')) {
      const box = node.getBoundingClientRect();
      if (box.width > 0 && (box.right > limit || box.left < card.left - 0.5)) {
        const name =
          node.getAttribute('part') ??
          `${node.localName}${node.className && typeof node.className === 'string' ? `.${node.className.split(' ')[0]}` : ''}`;
        out.push(`${name} (“${(node.textContent ?? '').trim().slice(0, 40)}”): ${box.left.toFixed(1)}–${box.right.toFixed(1)} px`);
      }
    }
    return out;
  });

/** The `lang` the element's text is read in (its card's), and the language the page set on it. */
export const langOf = (page: Page): Promise<string | null> => page.locator('merchant-checkout [part~="base"]').getAttribute('lang');

/**
 * Opens a payment option's deal in its language and waits for it, settled: with the demo's
 * link on the page already there (the deal opens in the same page), else its deep link.
 */
export const openOptionScenario = async (
  page: Page,
  demo: ScreensDemo,
  name: OptionScenarioName,
  theme: Theme = 'light',
): Promise<void> => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  demo.reseed();
  const { lang } = OPTION_SCENARIOS[name];
  const link = page.locator(`#option-scenarios a[data-scenario="${name}"]`);
  const previous = (await link.count()) ? await page.locator('merchant-checkout').getAttribute('invoice-id') : null;
  if (previous) await link.click();
  else await page.goto(scenarioUrl(demo.server.url, { scenario: name }, { lang, theme }));
  // A new invoice's deal, not the last one's screen still on the page.
  const element = page.locator(previous ? `merchant-checkout:not([invoice-id="${previous}"])` : 'merchant-checkout');
  try {
    await element
      .locator(`[part~="base"][data-screen="waiting"][lang="${lang}"] [part~="title"]`, { hasText: expectedTitle('waiting', lang) })
      .waitFor({ timeout: FIRST_SCREEN_TIMEOUT });
  } catch (error) {
    throw new Error(`?scenario=${name} (${lang}) should show its deal waiting for the transfer: ${firstLine(error)}`);
  }
  await settle(page);
};
