/** Timestamps as the mock writes them: ISO 8601 with a UTC offset. */
import { UTC_OFFSET_MINUTES } from './assumptions.js';

const pad = (value: number): string => String(value).padStart(2, '0');

/** `ms` since the epoch → `2026-11-22T10:00:00.000+03:00` (in {@link UTC_OFFSET_MINUTES}). */
export const isoWithOffset = (ms: number, offsetMinutes: number = UTC_OFFSET_MINUTES): string => {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  if (offsetMinutes === 0) return `${local}Z`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
};
