/**
 * The checkout protocol between `<merchant-checkout>` and the merchant's proxy
 * (DESIGN.md, "The checkout protocol"). Answers reuse the service's DTO schemas.
 */
import * as z from 'zod/mini';
import { PaymentMethodSchema, PaymentOptionSchema } from './invoice.js';

/**
 * Error codes of the `{ "error": { "code", "message" } }` body, with the HTTP status the
 * proxy answers each with. `network_error` and `invalid_response` are produced by the
 * browser side when no usable answer arrived at all.
 */
export const CHECKOUT_ERROR_STATUS = {
  bad_request: 400,
  /** A notification without the right token (the notification receiver's answer). */
  unauthorized: 401,
  /** A state-changing request a browser marked as cross-site, from an origin not allowed. */
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** The merchant's own hook failed; no detail is sent. */
  internal_error: 500,
  not_implemented: 501,
  upstream_error: 502,
  upstream_timeout: 504,
} as const;
export type CheckoutProxyErrorCode = keyof typeof CHECKOUT_ERROR_STATUS;
export type CheckoutErrorCode = CheckoutProxyErrorCode | 'network_error' | 'invalid_response' | 'http_error';

export const CheckoutErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
  }),
});
export type CheckoutErrorBody = z.infer<typeof CheckoutErrorBodySchema>;

/** Body of `POST /invoices/{id}/deal`: the variant the payer picked. */
export const StartDealRequestSchema = z.strictObject({
  option: PaymentOptionSchema,
  method: PaymentMethodSchema,
});
export type StartDealRequest = z.infer<typeof StartDealRequestSchema>;
