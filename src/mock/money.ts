/**
 * Decimal money as text, computed with BigInt in minor units: an amount never becomes a
 * floating-point number on its way through the mock. Imports the options' defaults only.
 */
import { DECIMAL_PATTERN } from '../schemas/index.js';
import { DEFAULTS } from './options.js';

// A type alias, not an interface, so it is assignable to the schemas' loose (indexed) objects.
export type MoneyDTO = {
  amount: string;
  currency: string;
  subunit: number;
};

/** Why an amount could not be written with the currency's subunit. */
export class AmountError extends Error {
  override name = 'AmountError';
}

/** `"1500"` with subunit 2 → `150000n` (minor units). Extra digits must be zeros: money is never rounded silently. */
export const toMinor = (amount: string, subunit: number): bigint => {
  if (!DECIMAL_PATTERN.test(amount)) throw new AmountError(`must be a decimal number as text, got ${JSON.stringify(amount)}`);
  const [whole = '0', fraction = ''] = amount.split('.');
  if (whole.replace(/^0+(?=\d)/, '').length > DEFAULTS.maxIntegerDigits) {
    throw new AmountError(`must have at most ${DEFAULTS.maxIntegerDigits} digits before the decimal point`);
  }
  const excess = fraction.slice(subunit);
  if (/[1-9]/.test(excess)) {
    throw new AmountError(`must have at most ${subunit} digits after the decimal point, got ${JSON.stringify(amount)}`);
  }
  return BigInt(whole + fraction.slice(0, subunit).padEnd(subunit, '0'));
};

/** `150000n` with subunit 2 → `"1500.00"`: exactly `subunit` digits after the point. */
export const fromMinor = (minor: bigint, subunit: number): string => {
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(subunit + 1, '0');
  return subunit === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -subunit)}.${digits.slice(-subunit)}`;
};

export const money = (minor: bigint, currency: string, subunit: number): MoneyDTO => ({
  amount: fromMinor(minor, subunit),
  currency,
  subunit,
});

/** `percent` (decimal text, e.g. `"2.5"`) of `minor`, rounded down. */
export const percentOf = (minor: bigint, percent: string): bigint => {
  const [whole = '0', fraction = ''] = percent.split('.');
  const scale = 10n ** BigInt(fraction.length);
  return (minor * BigInt(whole + fraction)) / (100n * scale);
};

/** `minor` (with `subunit`) divided by `rate` (decimal text), in `toSubunit` places, rounded down. */
export const convert = (minor: bigint, subunit: number, rate: string, toSubunit: number): bigint => {
  const [whole = '0', fraction = ''] = rate.split('.');
  const rateUnits = BigInt(whole + fraction);
  if (rateUnits === 0n) return 0n;
  return (minor * 10n ** BigInt(toSubunit + fraction.length)) / (rateUnits * 10n ** BigInt(subunit));
};
