import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { MerchantClient, createCheckoutHandler } from 'merchant-checkout/server';
import { orders, sessionOf } from './shop.js';

const checkout = createCheckoutHandler({
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
});

const app = new Hono();
app.all('/checkout-api/*', (c) => checkout(c.req.raw));
// On Node; on Bun, Deno or Cloudflare Workers, `export default app` instead.
export const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000) });
