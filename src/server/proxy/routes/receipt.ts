/**
 * `POST /invoices/{id}/receipt`, multipart `attachment`: the payer's receipt for the active
 * deal, through the service's confirm-transfer. The caller is authorized before the upload is
 * read; the time budget of the upstream work starts once it has arrived.
 */
import type { Invoice } from '../../../schemas/index.js';
import { MerchantApiError } from '../../client/errors.js';
import { UNDISPUTABLE_DEAL_STATUSES, type ProxyRoute } from '../context.js';
import { fail } from '../failures.js';
import { formFields, readUploadForm, receiptOf, requireMultipart } from '../uploads.js';

export const receiptRoute: ProxyRoute = {
  serve: async (proxy, { request, id, budget }) => {
    if (proxy.receipts === 'off') fail('receipts_off', 'this shop takes no receipts');
    requireMultipart(request);
    const { internalId } = await proxy.authorize(id, request, budget.deadline);
    const form = await readUploadForm(request, proxy.upload);
    budget.bodyRead = true;
    formFields(form, ['attachment'], 'attachment');
    const attachment = await receiptOf(form);
    const deadline = budget.restart();
    const { invoice, client } = await proxy.checkedInvoice(id, request, deadline, internalId);
    const policy = await proxy.receiptsPolicy(invoice, request, deadline);
    if (policy === 'off') fail('receipts_off', 'this shop takes no receipts for this invoice');
    const deal = invoice.deals.find((each) => each.isActive);
    // Sent again (the answer was lost, a second tap): the transfer is confirmed already.
    if (deal?.status === 'transfer_confirmed') return proxy.projected(invoice, client, request, deadline, policy);
    if (!deal || UNDISPUTABLE_DEAL_STATUSES.includes(deal.status)) fail('no_deal', 'no deal of this invoice waits for a transfer');
    let confirmed: Invoice;
    try {
      // Not the payer's signal: a receipt that arrived whole is delivered even if its sender
      // went away, and a repeat of it (a second tap, a POST the browser sent again) joins it.
      confirmed = await deadline.race(
        proxy.uploadFlight(id, () => client.confirmTransfer(id, attachment, proxy.recordedCall({ timeoutMs: proxy.timeoutMs }))),
      );
    } catch (error) {
      if (error instanceof MerchantApiError && error.status >= 400 && error.status < 500 && ![401, 403].includes(error.status)) {
        // Refused: perhaps because another instance delivered it just now. The invoice says.
        const now = (
          await proxy.reader.read(id, { client, signal: deadline.signal, traceContext: deadline.traceContext }).catch(() => undefined)
        )?.invoice;
        if (now) proxy.record(now, client);
        if (now?.deals.find((each) => each.isActive)?.status === 'transfer_confirmed')
          return proxy.projected(now, client, request, deadline, policy);
        proxy.report(error, request, id);
        fail('no_deal', 'the payment service refused the receipt: the deal no longer waits for a transfer; read the invoice again');
      }
      throw error;
    }
    return proxy.projected(proxy.changed(confirmed, client, id, request, 'confirm-transfer'), client, request, deadline, policy);
  },
};
