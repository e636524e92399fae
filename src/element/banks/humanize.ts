/**
 * A bank code made readable, for codes no list knows: the payer never reads a raw code.
 * The screens need it before any list is here (it comes with them, in the views' chunk): keep
 * it this small.
 */

/** Short abbreviations written in capitals (`mts-bank` → `MTS Bank`). */
const ABBREVIATIONS = /^(mts|vtb|otp|rshb|ubrd|ubrr|ak|psb|mkb|rsb|bspb|gpb|bcs|rncb|atb|sbp|dom|rf)$/;

/**
 * A bank code as words: `alfabank` → `Alfabank`, `ozon_bank` and `ozon-bank` → `Ozon Bank`,
 * `mts-bank` → `MTS Bank`; `''` for an empty code. Each word capitalized, known short
 * abbreviations in capitals.
 */
export const humanizeBankCode = (code: string): string =>
  code
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .map((word) => {
      const lower = word.toLowerCase();
      return ABBREVIATIONS.test(lower) ? lower.toUpperCase() : lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(' ');
