import { MerchantClient, createCheckoutServer, type CheckoutServer } from 'merchant-checkout/server';
import { orders, sessionOf } from './shop';
import { store } from './store';

let made: CheckoutServer | undefined;

/** One kit for every route of the app, made at the first request (`next build` loads routes, perhaps without the keys set). */
export const kit = (): CheckoutServer =>
  (made ??= createCheckoutServer({
    client: new MerchantClient({
      baseUrl: process.env.PAYMENT_API_URL!, // the service's {base_url}
      apiKey: process.env.PAYMENT_API_KEY!,
      secretKey: process.env.PAYMENT_SECRET_KEY!,
    }),
    basePath: '/checkout-api', // the checkout route's folder, and the element's `endpoint`
    // Invoice ids are no secret: answer true only for an order of this visitor's session.
    authorize: async (invoiceId, visitor) => {
      const order = await orders.findByInvoice(invoiceId);
      return order !== undefined && order.sessionId === sessionOf(visitor);
    },
    store: store(),
    notifications: { token: process.env.PAYMENT_NOTIFICATION_TOKEN!, path: '/payments/notify' },
    // A serverless instance sleeps between requests, and a timer with it: with CRON_SECRET set the
    // platform's cron calls app/api/cron/reconcile instead; without it the kit's own timer runs.
    reconcile: { timer: !process.env.CRON_SECRET },
    cron: process.env.CRON_SECRET ? { secret: process.env.CRON_SECRET, path: '/api/cron/reconcile' } : undefined,
    onChange: async (change) => {
      await orders.record(change.id, change.invoiceId, change.invoice.status);
      console.info(`order change ${change.id}: invoice ${change.invoiceId} ${change.kind}, now ${change.invoice.status}`);
    },
  }));
