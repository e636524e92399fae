/**
 * When to read the invoice again, and when to say how much time is left. Pure functions of
 * numbers, so the element's controllers stay thin and these are tested alone.
 */

export const DEFAULT_POLL_INTERVAL = 5000;
/** Below this a misconfigured `poll-interval` would hammer the merchant's proxy. */
export const MIN_POLL_INTERVAL = 1000;
/** Backoff never waits longer than this (or than the interval itself, if that is longer). */
export const MAX_BACKOFF = 60_000;
/** After the countdown ends the status is still re-read this long: a late payment shows as paid. */
export const EXPIRY_GRACE = 120_000;

/** A usable interval from whatever the attribute held: a default for junk, never below the floor. */
export const normalizeInterval = (interval: number | undefined | null): number =>
  typeof interval === 'number' && Number.isFinite(interval) && interval > 0 ? Math.max(MIN_POLL_INTERVAL, interval) : DEFAULT_POLL_INTERVAL;

/**
 * Milliseconds until the next read. With no failure, the interval. After `failures`
 * consecutive failures, exponential backoff (interval × 2^failures) capped, with "equal
 * jitter": a random point in the upper half, so many payers behind one failing proxy do not
 * come back in step. `random` is `Math.random` unless a test passes its own.
 */
export const nextPollDelay = (interval: number, failures: number, random: () => number = Math.random): number => {
  const base = normalizeInterval(interval);
  if (failures <= 0) return base;
  const cap = Math.max(MAX_BACKOFF, base);
  const ceiling = Math.min(cap, base * 2 ** Math.min(failures, 20));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
};

/**
 * How far the server's clock is ahead of this device's, from the `Date` header of an answer
 * received at `receivedAt` (device time). A phone whose clock is an hour off would otherwise
 * show a valid deal as expired. `undefined` when the header is missing or junk.
 *
 * The header has whole seconds, so one reading is good to about a second; `previous` is kept
 * unless the new reading differs by more than `CLOCK_TOLERANCE`, so the countdown does not
 * jitter by a second on every poll.
 */
export const CLOCK_TOLERANCE = 1500;
export const clockOffset = (dateHeader: string | null | undefined, receivedAt: number, previous?: number): number | undefined => {
  const server = dateHeader ? Date.parse(dateHeader) : Number.NaN;
  if (!Number.isFinite(server)) return previous;
  // The header truncates to the second: the server's clock was somewhere in the next 1000 ms.
  const measured = server + 500 - receivedAt;
  return previous !== undefined && Math.abs(measured - previous) <= CLOCK_TOLERANCE ? previous : measured;
};

/**
 * Which "announcement step" a remaining time falls into. A screen reader hears the time left
 * only when the step changes: every 5 minutes while more than 10 minutes remain, every minute
 * down to the last one, then every 30 seconds; never every second.
 */
export const announcementStep = (remainingMs: number): number => {
  const seconds = Math.max(0, Math.ceil(remainingMs / 1000));
  if (seconds > 600) return 10_000 + Math.ceil(seconds / 300);
  if (seconds > 60) return 1000 + Math.ceil(seconds / 60);
  return Math.ceil(seconds / 30);
};

/** A failed event stream is tried again after this, doubling after each failure in a row… */
export const STREAM_RETRY = 30_000;
/** …up to this (a polling-only proxy then sees one refused stream request every 5 minutes). */
export const MAX_STREAM_RETRY = 300_000;

/** Milliseconds before the event stream is opened again after `failures` failures in a row (≥ 1). */
export const nextStreamDelay = (failures: number): number =>
  Math.min(MAX_STREAM_RETRY, STREAM_RETRY * 2 ** Math.min(Math.max(failures - 1, 0), 10));

/** The proxy's heartbeat period when its stream does not say (src/server/events/invoice-events.ts, `heartbeatMs`). */
export const DEFAULT_HEARTBEAT = 15_000;

/**
 * How long a stream may stay silent (no event, no heartbeat) before it counts as dead: twice
 * its heartbeat, so one lost heartbeat is forgiven. A period the stream states is kept within
 * 1 s and 5 minutes: a garbled number must neither kill a healthy stream nor trust a dead one
 * for ever.
 */
export const silenceLimit = (heartbeatMs: number | undefined): number => {
  const period = typeof heartbeatMs === 'number' && Number.isFinite(heartbeatMs) ? heartbeatMs : DEFAULT_HEARTBEAT;
  return 2 * Math.min(300_000, Math.max(1000, period));
};
