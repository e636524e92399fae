/**
 * What every route of the proxy shares about failing: the time budget of one request, the
 * checkout error a failure is answered with (never the upstream's text), and `fail`.
 */
import type { Context } from '@opentelemetry/api';
import type { CheckoutProxyErrorCode } from '../../schemas/index.js';
import { MerchantApiError, MerchantNetworkError, MerchantResponseError, MerchantTimeoutError } from '../client/errors.js';
import { CheckoutHttpError, Deadline } from '../http/answers.js';

/**
 * The service's refusals a payer can act on, by the client's stable code (`MerchantApiError.code`),
 * with the protocol code the element shows in the payer's words.
 */
export const SERVICE_TO_CHECKOUT_ERROR: Readonly<Record<string, readonly [CheckoutProxyErrorCode, string]>> = {
  no_requisites: ['no_requisites', 'this bank has no free requisites right now'],
  option_not_allowed: ['option_not_allowed', 'this payment option is not available for the invoice'],
  method_not_allowed: ['bank_not_allowed', 'this bank is not available for the invoice'],
  pay_in_disabled: ['service_unavailable', 'payments are switched off for this shop right now'],
};

export const fail = (code: CheckoutProxyErrorCode, message: string): never => {
  throw new CheckoutHttpError(code, message);
};

export const upstreamUnavailable = () => new CheckoutHttpError('upstream_error', 'the payment service failed to answer');

/** The time budget of one request: one {@link Deadline}, which an upload route starts again once its body has arrived. */
export class Budget {
  deadline: Deadline;
  /** True once an upload was read to its end (an error answer then need not close the connection). */
  bodyRead = false;
  readonly #timeoutMs: number;
  readonly #parent: AbortSignal;

  /** `traceContext`: the route's span, the parent of its upstream calls. */
  constructor(timeoutMs: number, parent: AbortSignal, traceContext?: Context) {
    this.#timeoutMs = timeoutMs;
    this.#parent = parent;
    this.deadline = new Deadline(timeoutMs, parent, traceContext);
  }

  /** A fresh deadline for the work after the upload (the one before is disposed). */
  restart(): Deadline {
    this.deadline.dispose();
    this.deadline = new Deadline(this.#timeoutMs, this.#parent, this.deadline.traceContext);
    return this.deadline;
  }
}

/** The checkout error a failure is answered with; never the upstream's text. */
export const toCheckoutError = (error: unknown, deadline: Deadline | undefined): CheckoutHttpError => {
  if (error instanceof CheckoutHttpError) return error;
  if (deadline?.exceeded || error instanceof MerchantTimeoutError) {
    return new CheckoutHttpError('upstream_timeout', 'the payment service did not answer in time');
  }
  if (error instanceof MerchantApiError) {
    const known = SERVICE_TO_CHECKOUT_ERROR[error.code];
    if (known) return new CheckoutHttpError(known[0], known[1]);
    return upstreamUnavailable();
  }
  if (error instanceof MerchantNetworkError) return upstreamUnavailable();
  if (error instanceof MerchantResponseError) {
    return new CheckoutHttpError('upstream_invalid', 'the payment service answered something unexpected');
  }
  return new CheckoutHttpError('internal_error', 'internal error');
};
