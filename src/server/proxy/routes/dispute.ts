/**
 * `POST /invoices/{id}/dispute`, multipart `reason`, `amount`, `attachment`: the payer reports a
 * payment that went missing. At most one dispute per invoice across instances (the store's
 * claim): the claim is kept once a dispute is made (forwarded, or reported by the hook),
 * released when the hook or the service refused, and left to lapse when the outcome is unknown
 * (the service did not answer).
 */
import type { CheckoutDisputeAnswer, Deal, Invoice } from '../../../schemas/index.js';
import { safeParse } from '../../../schemas/index.js';
import { CHECKOUT_ROUTE_SCHEMAS } from '../../../schemas/checkout-route-schemas.js';
import { MerchantApiError, MerchantResponseError, MerchantValidationError } from '../../client/errors.js';
import { UNDISPUTABLE_DEAL_STATUSES, type ProxyContext, type ProxyRoute } from '../context.js';
import { fail, type Budget } from '../failures.js';
import { formFields, readUploadForm, receiptOf, requireMultipart } from '../uploads.js';

/** How long a dispute's claim is held beyond the time budget when its outcome is not known (the service did not answer). */
const DISPUTE_CLAIM_MARGIN_MS = 60_000;

const DISPUTE_DECISIONS: readonly string[] = ['forward', 'notify', 'refuse'];

/**
 * The deal a payer's report is about: the active deal, else the most recent one they could
 * have paid to (not completed, not already disputed): latest by its deadline (`canceledAt`),
 * then by its place in `deals`. Only a deal with an id can be named to the service.
 */
const disputedDeal = (invoice: Invoice): Deal | undefined => {
  const candidates = invoice.deals
    .map((deal, index) => ({ deal, index, at: deal.canceledAt ? Date.parse(deal.canceledAt) : Number.NEGATIVE_INFINITY }))
    .filter(({ deal }) => deal.id && !UNDISPUTABLE_DEAL_STATUSES.includes(deal.status));
  const active = candidates.find(({ deal }) => deal.isActive);
  if (active) return active.deal;
  candidates.sort((a, b) => a.at - b.at || a.index - b.index);
  return candidates.at(-1)?.deal;
};

/** Reads and checks the dispute form: reason, amount (with `invalid_sum`) and the receipt. */
const readDisputeForm = async (proxy: ProxyContext, request: Request, budget: Budget) => {
  const form = await readUploadForm(request, proxy.upload);
  budget.bodyRead = true;
  const fields = formFields(form, ['reason', 'amount', 'attachment'], 'attachment');
  const attachment = await receiptOf(form);
  const parsed = safeParse(CHECKOUT_ROUTE_SCHEMAS.dispute.request, { ...fields, attachment });
  if (!parsed.success) return fail('bad_request', `invalid form: ${parsed.message}`);
  return parsed.data;
};

const serveDispute = async (proxy: ProxyContext, id: string, request: Request, budget: Budget): Promise<CheckoutDisputeAnswer> => {
  requireMultipart(request);
  const { internalId } = await proxy.authorize(id, request, budget.deadline);
  const { reason, amount, attachment } = await readDisputeForm(proxy, request, budget);
  const deadline = budget.restart();
  const { invoice, client } = await proxy.checkedInvoice(id, request, deadline, internalId);
  if (invoice.status === 'dispute' || invoice.deals.some((deal) => deal.status === 'dispute')) {
    fail('dispute_exists', 'a dispute about this invoice is open already');
  }
  if (invoice.status === 'canceled' || invoice.status === 'paid')
    fail('dispute_not_allowed', `a ${invoice.status} invoice cannot be disputed`);
  const decimals = amount?.split('.')[1]?.length ?? 0;
  if (decimals > invoice.sum.subunit) {
    fail('bad_request', `invalid form: amount: must have at most ${invoice.sum.subunit} digits after the point in ${invoice.sum.currency}`);
  }
  const deal = disputedDeal(invoice) ?? fail('no_deal', 'this invoice has no deal the payer could have paid to');
  const claim =
    (await deadline.race(proxy.store.claimDispute(id, proxy.timeoutMs + DISPUTE_CLAIM_MARGIN_MS))) ??
    fail('dispute_exists', 'this invoice has its dispute already');
  const settle = async (outcome: 'kept' | 'released') => {
    try {
      await claim.settle(outcome);
    } catch (error) {
      // The claim then lapses by itself; the payer's answer stands.
      proxy.report(error, request, id);
    }
  };
  const disputeHook = proxy.options.dispute;
  let decision: string;
  try {
    decision = disputeHook
      ? await deadline.race(
          disputeHook({
            id,
            internalId: invoice.internalId,
            invoice,
            deal,
            reason,
            amount,
            attachment,
            request,
            signal: deadline.signal,
            client,
          }),
        )
      : 'forward';
    if (!DISPUTE_DECISIONS.includes(decision))
      throw new TypeError(`dispute must answer "forward", "notify" or "refuse", got ${JSON.stringify(decision)}`);
  } catch (error) {
    await settle('released');
    throw error;
  }
  if (decision === 'refuse') {
    await settle('released');
    fail('dispute_refused', 'the shop does not take this report');
  }
  if (decision === 'notify') {
    await settle('kept');
    return { outcome: 'reported', invoice: await proxy.projected(invoice, client, request, deadline) };
  }
  let disputed: Invoice;
  try {
    disputed = await client.openDispute(id, { dealId: deal.id!, reason, amount, attachment }, proxy.recordedCall(deadline));
  } catch (error) {
    if ((error instanceof MerchantApiError && error.status < 500) || error instanceof MerchantValidationError) {
      // Refused: nothing was opened, the payer may try again.
      await settle('released');
      if (error instanceof MerchantApiError && ![401, 403].includes(error.status)) {
        proxy.report(error, request, id);
        fail('dispute_not_allowed', 'the payment service refused the dispute: the invoice can no longer be disputed');
      }
    } else if (error instanceof MerchantResponseError && error.status >= 200 && error.status < 300) {
      // Accepted, though the answer is unreadable: the dispute is open.
      await settle('kept');
    }
    throw error;
  }
  await settle('kept');
  return {
    outcome: 'forwarded',
    invoice: await proxy.projected(proxy.changed(disputed, client, id, request, 'dispute'), client, request, deadline),
  };
};

export const disputeRoute: ProxyRoute = {
  serve: (proxy, { request, id, budget }) => serveDispute(proxy, id, request, budget),
};
