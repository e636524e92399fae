/** `GET /invoices/{id}/events`: the invoice as Server-Sent Events (src/server/events/invoice-events.ts); off with `events: false`. */
import type { ProxyRoute } from '../context.js';

export const eventsRoute: ProxyRoute = {
  enabled: (proxy) => proxy.events !== undefined,
  serve: async (proxy, { request, id, budget: { deadline }, c }) => {
    const { invoice, client } = await proxy.verifiedInvoice(id, request, deadline, true);
    // The stream's projections carry the policy this payer is answered.
    if (typeof proxy.receipts === 'function') await proxy.receiptsPolicy(invoice, request, deadline);
    return proxy.events!.respond(c, id, invoice, client, request);
  },
};
