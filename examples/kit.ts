import { MerchantClient, createCheckoutServer } from 'merchant-checkout/server';
import { createSqliteStore } from 'merchant-checkout/sqlite';
import { orders, sessionOf } from './shop.js';

// One kit: the proxy the element talks to, the receiver of the service's notifications and the
// reconciler share one store, on disk: a restart loses nothing (createRedisStore for several instances).
export const kit = createCheckoutServer({
  store: createSqliteStore({ path: process.env.CHECKOUT_DB ?? 'data/checkout.db' }),
  client: new MerchantClient({
    baseUrl: process.env.PAYMENT_API_URL!, // the service's {base_url}
    apiKey: process.env.PAYMENT_API_KEY!,
    secretKey: process.env.PAYMENT_SECRET_KEY!,
  }),
  basePath: '/checkout-api', // the element's `endpoint`
  // Invoice ids are no secret: answer true only for an order of this visitor's session.
  authorize: async (invoiceId, request) => {
    const order = await orders.findByInvoice(invoiceId);
    return order !== undefined && order.sessionId === sessionOf(request);
  },
  // The notificationUrl of your invoices ends with this path; the token is their notificationToken.
  notifications: { token: process.env.PAYMENT_NOTIFICATION_TOKEN!, path: '/payments/notify' },
  // Every change of money or state, read from the service (never a notification's word): at least
  // once, always under the same change.id (a crash may repeat one), so record it idempotently.
  onChange: async (change) => {
    await orders.record(change.id, change.invoiceId, change.invoice.status);
  },
});
