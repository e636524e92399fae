/**
 * Small pieces every benchmark uses: statistics, compressed sizes, time bounds, the machine's
 * description and its load.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { CHROMIUM_PATH } from '../test/e2e/support/browser.js';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The value below which `p` (0…1) of `values` lie, by nearest rank. */
export const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank]!;
};

/** The median; for an even count the mean of the two middle values. */
export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

/** Raw bytes, `gzip -9` and brotli quality 11: the figures a CDN serves. */
export const sizesOf = (code: string | Uint8Array): Sizes => {
  const bytes = typeof code === 'string' ? Buffer.from(code) : code;
  return {
    raw: bytes.byteLength,
    gzip: gzipSync(bytes, { level: 9 }).byteLength,
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
    }).byteLength,
  };
};

/** Rejects when `work` has not settled within `ms`: each benchmark bounds its own time. */
export const withinTime = async <T>(name: string, ms: number, work: Promise<T>): Promise<T> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name}: not done within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
};

export interface Machine {
  cpu: string;
  cores: number;
  node: string;
  chromium: string;
  os: string;
}

export const machine = (): Machine => {
  let chromium = 'unknown';
  try {
    const text = execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    chromium = /Chrom(?:e|ium) [\d.]+/.exec(text)?.[0] ?? text.trim();
  } catch {
    // Reported as unknown; the browser benchmarks will say why they failed.
  }
  let os: string = process.platform;
  try {
    os = execFileSync('uname', ['-sr'], { encoding: 'utf8' }).trim();
  } catch {
    // uname is missing: the platform name will do.
  }
  return { cpu: cpus()[0]?.model.trim() ?? 'unknown', cores: cpus().length, node: process.version, chromium, os };
};

/** The 1-minute load average, rounded to two decimals. */
export const load = (): number => Math.round((loadavg()[0] ?? 0) * 100) / 100;

/** Waits (at most `maxMs`) for the 1-minute load average to fall to `below`; returns the load then. */
export const waitForQuiet = async (below: number, maxMs: number): Promise<number> => {
  const end = Date.now() + maxMs;
  while (load() > below && Date.now() < end) await sleep(1000);
  return load();
};

/** `1234567` → `1,234,567`. */
export const int = (value: number): string => Math.round(value).toLocaleString('en-US');

/** A number with `digits` decimals, `–` when it is not a number. */
export const fixed = (value: number, digits = 1): string => (Number.isFinite(value) ? value.toFixed(digits) : '–');

/** What a run prints as it goes (to stderr, so a partial run's stdout stays clean). */
export const log = (message: string): void => {
  process.stderr.write(`[bench] ${message}\n`);
};
