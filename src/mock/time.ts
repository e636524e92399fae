/** Timestamps as the mock writes them: ISO 8601 with a UTC offset, whole seconds. Imports nothing. */

const pad = (value: number): string => String(value).padStart(2, '0');

/** `ms` since the epoch → `2024-11-23T20:43:07+00:00` (the documented form) in `offsetMinutes`. */
export const isoWithOffset = (ms: number, offsetMinutes = 0): string => {
  const local = new Date(Math.floor(ms / 1000) * 1000 + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
};

/** Reads an ISO 8601 timestamp (fixtures, controls) or ms; NaN when it is neither. */
export const parseInstant = (value: unknown): number =>
  typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
