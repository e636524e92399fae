/**
 * Media features for a test, in every engine: only Chromium can emulate them (over CDP);
 * Firefox over WebDriver BiDi and WebKit over WebDriver cannot. So the element's own
 * `@media (feature: value)` rules are switched instead: the ones that ask for `value` apply
 * to all media, the ones that ask for another value to none, until `restore()`. What is tested
 * is that the element has such a rule and what it does; that the engine matches the user's
 * setting to it is the engine's part.
 */
import type { MerchantCheckoutElement } from '../../src/element/merchant-checkout.js';

/** The sheets that style the element's shadow root, adopted or in `<style>` elements. */
const sheetsOf = (el: MerchantCheckoutElement): CSSStyleSheet[] => [
  ...el.shadowRoot!.adoptedStyleSheets,
  ...[...el.shadowRoot!.querySelectorAll('style')].flatMap((style) => (style.sheet ? [style.sheet] : [])),
];

const mediaRules = (rules: CSSRuleList): CSSMediaRule[] =>
  [...rules].flatMap((rule) => (rule instanceof CSSMediaRule ? [rule, ...mediaRules(rule.cssRules)] : []));

/**
 * Makes the element's rules for `feature` (`prefers-color-scheme`, `prefers-reduced-motion`)
 * behave as if the user's setting were `value`. Throws when the element has no such rule.
 */
export const forceMedia = (el: MerchantCheckoutElement, feature: string, value: string): (() => void) => {
  const pattern = new RegExp(`^\\(${feature}:\\s*([\\w-]+)\\)$`);
  const changed: { rule: CSSMediaRule; text: string }[] = [];
  for (const sheet of sheetsOf(el)) {
    for (const rule of mediaRules(sheet.cssRules)) {
      const match = pattern.exec(rule.media.mediaText.trim());
      if (!match) continue;
      changed.push({ rule, text: rule.media.mediaText });
      rule.media.mediaText = match[1] === value ? 'all' : 'not all';
    }
  }
  if (changed.length === 0) throw new Error(`the element's styles have no @media (${feature}: …) rule`);
  return () => {
    for (const { rule, text } of changed) rule.media.mediaText = text;
  };
};
