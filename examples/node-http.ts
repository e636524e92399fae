import { MerchantClient, createCheckoutHandler, createNodeServer } from 'merchant-checkout/server';
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

// node:http with the deadlines a public server needs: headers, whole request, idle connections.
export const server = createNodeServer(checkout).listen(Number(process.env.PORT ?? 3000));
