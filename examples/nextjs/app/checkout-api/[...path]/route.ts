import { MerchantClient, createCheckoutHandler } from 'merchant-checkout/server';
import { orders, sessionOf } from '../../../lib/shop';

// Made at the first request: `next build` loads this module, perhaps without the keys set.
let checkout: ((request: Request) => Promise<Response>) | undefined;
const handle = (request: Request): Promise<Response> =>
  (checkout ??= createCheckoutHandler({
    client: new MerchantClient({
      baseUrl: process.env.PAYMENT_API_URL!, // the service's {base_url}
      apiKey: process.env.PAYMENT_API_KEY!,
      secretKey: process.env.PAYMENT_SECRET_KEY!,
    }),
    basePath: '/checkout-api', // this route's folder, and the element's `endpoint`
    // Invoice ids are no secret: answer true only for an order of this visitor's session.
    authorize: async (invoiceId, visitor) => {
      const order = await orders.findByInvoice(invoiceId);
      return order !== undefined && order.sessionId === sessionOf(visitor);
    },
  }))(request);

export const GET = handle;
export const POST = handle;
