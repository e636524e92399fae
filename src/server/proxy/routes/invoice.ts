/** `GET /invoices/{id}`: the invoice's projection for this payer. */
import type { ProxyRoute } from '../context.js';

export const invoiceRoute: ProxyRoute = {
  serve: async (proxy, { request, id, budget: { deadline } }) => {
    const { invoice, client } = await proxy.verifiedInvoice(id, request, deadline);
    return proxy.projected(invoice, client, request, deadline);
  },
};
