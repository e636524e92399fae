/**
 * `createCheckoutHandler`: the merchant's signing proxy for `<merchant-checkout>`. It serves
 * exactly the routes of the checkout protocol (`CHECKOUT_ROUTES`, docs/ARCHITECTURE.md) and
 * nothing else: every other path, method or body is answered here without any upstream call.
 * The payer's browser never holds a key; the merchant's `authorize` hook decides whose invoice
 * a request may touch; answers are allow-listed projections (`projection.ts`), never upstream
 * objects. The router is router.ts, each route's handler a file of routes/, what they share
 * context.ts, the options options.ts.
 */
import { requireRuntime } from '../http/platform.js';
import { createInvoiceReader } from '../client/invoice-reader.js';
import { createMemoryStore } from '../store/memory.js';
import { ProxyContext, type ProxyOptions, type ProxyShared } from './context.js';
import { checkOptions } from '../options-check.js';
import { CHECKOUT_HANDLER_OPTIONS, validateOptions, type CheckoutHandlerOptions } from './options.js';
import { createRouter } from './router.js';

export {
  DEFAULT_CHECKOUT_MAX_BODY_BYTES,
  validateCheckoutOptions,
  type CheckoutHandlerOptions,
  type CheckoutCorsOptions,
  type StartDealContext,
  type ReceiptsOption,
  type DisputeDecision,
  type DisputeContext,
} from './options.js';

/**
 * Creates the checkout proxy: `(request: Request) => Promise<Response>`. Mount it in a Fetch
 * runtime directly, or in node:http / Express with `toNodeHandler`.
 *
 * | request | upstream | answer |
 * |---|---|---|
 * | `GET /invoices/{id}` | `authorize(id)`, then `getInvoice(id)` | the invoice's projection |
 * | `GET /invoices/{id}/available-payment-variants` | the invoice check, then `listPaymentVariants(id)` | `[{option, method}]` |
 * | `POST /invoices/{id}/cancel` | the invoice check, then `cancelInvoice(id)` | the cancel answer's projection |
 * | `POST /invoices/{id}/deal` `{option, method}` | the invoice check, then `startDeal(id, …)` (or the hook) | the invoice's projection |
 * | `GET /invoices/{id}/events` | the invoice check (a watched invoice is not read again) | `text/event-stream` of the projection (events/invoice-events.ts) |
 * | `POST /invoices/{id}/receipt` (multipart `attachment`) | the invoice check, then `confirmTransfer(id, file)` | the invoice's projection |
 * | `POST /invoices/{id}/dispute` (multipart `reason`, `amount`, `attachment`) | the invoice check, the dispute claim, the `dispute` hook, then `openDispute` | `{ outcome, invoice }` |
 * | `GET /banks?currency=` | none (public); the first client's `listPaymentMethods`, cached an hour | `[{code, name}]` |
 */
export const createCheckoutHandler = (options: CheckoutHandlerOptions): ((request: Request) => Promise<Response>) => {
  checkOptions('createCheckoutHandler', options, CHECKOUT_HANDLER_OPTIONS);
  // The time budget's timers and the event streams.
  requireRuntime('createCheckoutHandler', ['timers', 'streams']);
  const clients = validateOptions(options);
  return createProxy({ reader: createInvoiceReader(clients), store: options.store ?? createMemoryStore() }, options);
};

/**
 * The proxy over the reads and store it shares (the kit's, or its own): what
 * {@link createCheckoutHandler} and the kit's `checkout` are.
 * @internal
 */
export const createProxy = (shared: ProxyShared, options: ProxyOptions): ((request: Request) => Promise<Response>) => {
  // Each route reads its body with its own cap and deadline, and tells an adapter in front of
  // it (`toNodeHandler`) so (body.ts, BODY_LIMITS): nothing to declare here.
  return createRouter(new ProxyContext(shared, options));
};
