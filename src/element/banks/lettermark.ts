/**
 * A bank's picture beside its name: a lettermark (its initials on its colour), or a logo the
 * merchant serves. Eager and small: the deal's bank row may show it on the first render.
 *
 * The lettermark is SVG with presentation attributes (`fill`), not inline styles, so it needs
 * no `style-src 'unsafe-inline'`. Real logos are never loaded from a third party by default:
 * only from the merchant's own template (`logoUrl`), and the merchant's Content Security Policy
 * must list that origin in `img-src` (a blocked logo falls back to the lettermark).
 */
import { html, type TemplateResult } from 'lit';

/** `#rgb` / `#rrggbb` as channels 0–255, or undefined. */
const channels = (color: string | undefined): [number, number, number] | undefined => {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color?.trim() ?? '')?.[1];
  if (!hex) return undefined;
  const full = hex.length === 3 ? hex.replace(/./g, '$&$&') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
};

/** WCAG relative luminance of a `#rrggbb` (or `#rgb`) colour; 0 for anything else. */
export const luminance = (color: string): number => {
  const [r, g, b] = (channels(color) ?? [0, 0, 0]).map((value) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/** WCAG contrast ratio of two colours (1 to 21). */
export const contrastRatio = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/**
 * Black or white, whichever contrasts more with `background`: at least 4.58:1 for any colour
 * (the lower of the two is never above √21 ≈ 4.58 when the higher is below it).
 */
export const textColorFor = (background: string): '#000000' | '#ffffff' =>
  contrastRatio(background, '#ffffff') >= contrastRatio(background, '#000000') ? '#ffffff' : '#000000';

/** Colours for banks without one of their own; picked by the name, so a bank keeps its colour. */
const PALETTE = ['#1d4ed8', '#0f766e', '#b45309', '#7c3aed', '#be123c', '#15803d', '#0369a1', '#a21caf', '#4d7c0f', '#c2410c'];

/** A colour of its own for a name without a brand colour: the same name always gets the same one. */
export const colorFor = (name: string): string => {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return PALETTE[hash % PALETTE.length] ?? '#1d4ed8';
};

/** Words that say "bank" or the legal form, left out of the initials. */
const GENERIC = /^(bank|банк|ооо|оао|пао|ао|акб|кб|jsc|pjsc)$/i;

/**
 * One or two letters for a bank's name: the first letters of its first two words that are
 * not "bank" (`Ак Барс Банк` → `АБ`, `Т-Банк` → `Т`, `Ozon Bank` → `O`, `Сбербанк` → `С`).
 */
export const initials = (name: string): string => {
  const words = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const meaningful = words.filter((word) => !GENERIC.test(word));
  return (meaningful.length ? meaningful : words)
    .slice(0, 2)
    .map((word) => [...word][0] ?? '')
    .join('')
    .toUpperCase();
};

/**
 * A bank's lettermark: its initials on `color` (a brand colour, `#rgb` or `#rrggbb`; anything
 * else, or none, gives a colour from the name), in black or white for at least 4.5:1
 * contrast. Hidden from assistive technology: the bank's name is written next to it. `size`
 * in CSS pixels (the `.lettermark` class may override it).
 */
export const lettermark = (name: string, color?: string, size = 32): TemplateResult => {
  const background = channels(color) ? (color ?? '').trim() : colorFor(name);
  const letters = initials(name);
  // One line each: the template's text ships as it is written.
  return html`<svg
    class="lettermark"
    part="lettermark"
    aria-hidden="true"
    focusable="false"
    width=${size}
    height=${size}
    viewBox="0 0 40 40"
  >
    <rect width="40" height="40" rx="10" fill=${background}></rect>
    <text
      x="20"
      y="20"
      dy="0.35em"
      text-anchor="middle"
      font-size=${letters.length > 1 ? 16 : 20}
      font-weight="700"
      fill=${textColorFor(background)}
    >
      ${letters}
    </text>
  </svg>`;
};

/**
 * The URL of a bank's logo from the merchant's template (`https://cdn.shop.example/banks/{code}.svg`
 * or a path on the page's own origin, `/banks/{code}.svg`): `{code}` replaced by the code,
 * URL-encoded. Undefined unless the result is `https:`, or the template is relative and stays
 * on the origin of `base` (the page, which may be `http:` in development): `javascript:`,
 * `data:` and absolute `http:` templates are refused, and so are an empty code and one of dots
 * only. The merchant's CSP must list the logo's origin in `img-src`.
 */
export const logoUrl = (
  template: string | undefined,
  code: string,
  base: string | undefined = globalThis.location?.href,
): string | undefined => {
  if (!template?.includes('{code}') || !code || /^\.+$/.test(code)) return undefined;
  try {
    const url = new URL(template.replaceAll('{code}', encodeURIComponent(code)), base);
    if (url.protocol === 'https:') return url.href;
    // Relative to the page (which may be served over http in development): its own origin only.
    const relative = !/^[a-z][a-z\d+.-]*:/i.test(template.trim());
    return relative && base !== undefined && url.origin === new URL(base).origin ? url.href : undefined;
  } catch {
    return undefined;
  }
};

/** Shows the lettermark beside a logo that failed (missing, refused by CSP), or hides it again when a logo loads. */
const swap = (event: Event) => {
  const img = event.target as HTMLImageElement;
  const failed = event.type === 'error';
  img.hidden = failed;
  (img.nextElementSibling as HTMLElement | null)?.toggleAttribute('hidden', !failed);
};

/**
 * The bank's logo at `src` (from {@link logoUrl}) with the lettermark as its fallback when it
 * does not load, or just the lettermark without `src`. The image is decorative (`alt=""`): the
 * name is written next to it.
 */
export const bankLogo = (src: string | undefined, name: string, color?: string, size = 32): TemplateResult =>
  src
    ? html`<span class="bank-logo"
        ><img
          part="bank-logo"
          src=${src}
          alt=""
          width=${size}
          height=${size}
          loading="lazy"
          decoding="async"
          referrerpolicy="no-referrer"
          @error=${swap}
          @load=${swap}
        /><span hidden>${lettermark(name, color, size)}</span></span
      >`
    : lettermark(name, color, size);
