/** `POST /invoices/{id}/cancel`: cancels the invoice; a refusal of the service is 409 `cancel_refused`. */
import { MerchantApiError } from '../../client/errors.js';
import type { ProxyRoute } from '../context.js';
import { fail } from '../failures.js';
import { readBodyLimited } from '../../http/answers.js';
import { projectCanceledInvoice } from '../../events/projection.js';

export const cancelRoute: ProxyRoute = {
  serve: async (proxy, { request, id, budget: { deadline } }) => {
    // The service describes no body; one is read (within the limit) and ignored.
    await readBodyLimited(request, proxy.maxBodyBytes, proxy.bodyTimeoutMs);
    const { client } = await proxy.verifiedInvoice(id, request, deadline);
    try {
      return projectCanceledInvoice(await client.cancelInvoice(id, deadline.upstream()));
    } catch (error) {
      if (error instanceof MerchantApiError && error.status >= 400 && error.status < 500 && ![401, 403, 404].includes(error.status)) {
        proxy.report(error, request, id);
        fail('cancel_refused', 'the payment service refused to cancel; the invoice may have changed');
      }
      throw error;
    }
  },
};
