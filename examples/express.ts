import express from 'express';
import { MerchantClient, createCheckoutHandler, toNodeHandler } from 'merchant-checkout/server';
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

const app = express();
app.use('/checkout-api', toNodeHandler(checkout)); // before your body parsers
export const server = app.listen(Number(process.env.PORT ?? 3000));
