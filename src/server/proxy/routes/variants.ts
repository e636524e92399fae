/** `GET /invoices/{id}/available-payment-variants`: the options and banks the payer may pick. */
import type { ProxyRoute } from '../context.js';
import { projectVariants } from '../../events/projection.js';

export const variantsRoute: ProxyRoute = {
  serve: async (proxy, { request, id, budget: { deadline } }) => {
    const { client } = await proxy.verifiedInvoice(id, request, deadline);
    return projectVariants(await client.listPaymentVariants(id, deadline.upstream()));
  },
};
