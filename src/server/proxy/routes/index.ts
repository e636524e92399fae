/**
 * Each route's handler, by the name of its row in `CHECKOUT_ROUTES` (src/schemas/checkout-routes.ts):
 * typed to be exhaustive over the table, so a new row does not typecheck without its handler.
 * The router (../router.ts) serves exactly these.
 */
import type { CheckoutRouteName } from '../../../schemas/checkout-routes.js';
import type { ProxyRoute } from '../context.js';
import { banksRoute } from './banks.js';
import { cancelRoute } from './cancel.js';
import { dealRoute } from './deal.js';
import { disputeRoute } from './dispute.js';
import { eventsRoute } from './events.js';
import { invoiceRoute } from './invoice.js';
import { receiptRoute } from './receipt.js';
import { variantsRoute } from './variants.js';

export const ROUTE_HANDLERS: Readonly<Record<CheckoutRouteName, ProxyRoute>> = {
  invoice: invoiceRoute,
  variants: variantsRoute,
  cancel: cancelRoute,
  deal: dealRoute,
  receipt: receiptRoute,
  dispute: disputeRoute,
  banks: banksRoute,
  events: eventsRoute,
};
