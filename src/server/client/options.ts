/**
 * What a `MerchantClient` is built with and what each of its calls takes: the options, their
 * defaults, and the internal flag of the proxy's shared reads.
 */
import type { Context } from '@opentelemetry/api';
import type { DisputeReason } from '../../schemas/index.js';
import { madeBy, type OptionShapeOf } from '../options-check.js';

/** The client's default `timeoutMs`: a request that has not fully answered in 10 s is aborted. */
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** How a `MerchantClient` reaches the service and signs its requests. */
export interface MerchantClientOptions {
  /** The service's `{base_url}` (scheme, host and any path prefix); the client adds `/api/merchant/…`. */
  baseUrl: string | URL;
  /** The shop's API key, sent as `X-Identity`. */
  apiKey: string;
  /** The shop's secret key; signs every request and is never sent. */
  secretKey: string;
  /**
   * A `fetch` to use (a mock's in-process `fetch`, an instrumented one). Default: one shared
   * `createNodeFetch()` on Node, the global `fetch` elsewhere. It gets a `Request` that carries
   * the signal and `redirect: 'manual'`; honour both.
   */
  fetch?: (request: Request) => Promise<Response>;
  /** Abort a request that has not fully answered within this many milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Refuse answers larger than this many bytes (default 1 MiB). */
  maxResponseBytes?: number;
}

/** The keys `new MerchantClient` takes (options-check.ts). */
export const MERCHANT_CLIENT_OPTIONS = {
  baseUrl: true,
  apiKey: true,
  secretKey: true,
  fetch: true,
  timeoutMs: true,
  maxResponseBytes: true,
} as const satisfies OptionShapeOf<MerchantClientOptions>;

/** A factory's `client`: its own options given to that factory are told they belong in `client: new MerchantClient({ … })`. */
export const CLIENT_OPTION = madeBy('new MerchantClient', MERCHANT_CLIENT_OPTIONS);

/** Per-call options of every `MerchantClient` method. */
export interface RequestOptions {
  /** Aborts the request (e.g. the browser that asked the proxy went away). */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /**
   * The OpenTelemetry context whose span the call's span is a child of (default: the active
   * one). The proxy passes its route's, so a read is a child of the request that prompted it.
   */
  traceContext?: Context | undefined;
}

/** A body for `MerchantClient.request`: JSON text, a value to serialise as JSON, or multipart form data. */
export type RawRequestBody = string | FormData | Record<string, unknown> | unknown[] | undefined;

/** What `MerchantClient.openDispute` takes. */
export interface OpenDisputeRequest {
  /** The deal disputed (an invoice's `deals[].id`). */
  dealId: string;
  /** `no_payment`, or `invalid_sum` with the `amount` the payer really sent. */
  reason: DisputeReason;
  /** Decimal text, e.g. `"1000.00"`; required with `invalid_sum`, not sent otherwise. */
  amount?: string | undefined;
  /** Proof of the transfer (a receipt), at most 10 MB. */
  attachment: Blob;
}

/**
 * {@link RequestOptions} of a read the kit makes on a payer's behalf (its invoice reader; not
 * exported from the kit). @internal
 */
export interface SharedReadOptions extends RequestOptions {
  /**
   * An answer whose text is exactly the last one this client read from the same URL gives back
   * the value that text was read into, frozen, instead of parsing and checking it again. Payers
   * poll; most reads of an invoice answer what the last one did (bench/profile.ts: the tolerant
   * reader was an eighth of the proxy's CPU).
   */
  readonly sharedAnswer?: true;
  /**
   * The caller records the invoice this call answers itself (a part of the kit: its reader,
   * its proxy's state changes): the client's observers are told so (`recorded`), and the kit's
   * own observer leaves it to that caller (one writer per state, books/core.ts).
   */
  readonly recorded?: true;
}

/** Whether the caller of a call with `options` records its answer itself ({@link SharedReadOptions.recorded}). @internal */
export const recordedByCaller = (options: RequestOptions | SharedReadOptions | undefined): boolean =>
  options !== undefined && 'recorded' in options && options.recorded === true;
