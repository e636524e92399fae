/**
 * `POST /invoices/{id}/deal` with `{ option, method }`: starts a deal for the variant the payer
 * picked, through the service's `start-deal` or the merchant's `startDeal` hook.
 */
import { GetInvoiceResponseSchema, safeParse, type Invoice } from '../../../schemas/index.js';
import { CHECKOUT_ROUTE_SCHEMAS } from '../../../schemas/checkout-route-schemas.js';
import type { MerchantClient } from '../../client/merchant-client.js';
import type { ProxyContext, ProxyRoute } from '../context.js';
import { fail, upstreamUnavailable } from '../failures.js';
import { readBodyLimited, type Deadline } from '../../http/answers.js';

/** The deal request: JSON in UTF-8, an object of the route's request schema. */
const readDealRequest = async (proxy: ProxyContext, request: Request) => {
  const type = request.headers.get('content-type') ?? '';
  const [mediaType = '', ...parameters] = type.split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((parameter) => parameter.startsWith('charset='))?.slice('charset='.length);
  if (mediaType !== 'application/json' || (charset !== undefined && charset.replace(/"/g, '') !== 'utf-8')) {
    fail('unsupported_media_type', 'the body must be application/json');
  }
  const text = await readBodyLimited(request, proxy.maxBodyBytes, proxy.bodyTimeoutMs);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    fail('bad_request', 'the body is not JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail('bad_request', 'the body must be a JSON object');
  const parsed = safeParse(CHECKOUT_ROUTE_SCHEMAS.deal.request, json);
  if (!parsed.success) return fail('bad_request', `invalid body: ${parsed.message}`);
  return parsed.data;
};

/** A deal started for the payer: the invoice must be `id` and show an active deal, else the bank had no requisites. */
const dealStarted = (
  proxy: ProxyContext,
  invoice: Invoice,
  id: string,
  request: Request,
  source: string,
  client: MerchantClient,
  deadline: Deadline,
) => {
  if (invoice.id.toLowerCase() === id && !invoice.deals.some((deal) => deal.isActive))
    fail('no_requisites', 'this bank has no free requisites right now');
  return proxy.projected(proxy.changed(invoice, client, id, request, source), client, request, deadline);
};

export const dealRoute: ProxyRoute = {
  serve: async (proxy, { request, id, budget: { deadline } }) => {
    const { option, method } = await readDealRequest(proxy, request);
    const { invoice, client } = await proxy.verifiedInvoice(id, request, deadline);
    const { startDeal } = proxy.options;
    if (!startDeal) {
      const started = await client.startDeal(id, { paymentOption: option, paymentMethod: method }, proxy.recordedCall(deadline));
      return dealStarted(proxy, started, id, request, 'start-deal', client, deadline);
    }
    const answer = await deadline.race(
      startDeal({ id, internalId: invoice.internalId, option, method, invoice, request, signal: deadline.signal, client }),
    );
    const parsed = safeParse(GetInvoiceResponseSchema, answer);
    if (!parsed.success) {
      proxy.report(new Error(`startDeal answered an invalid invoice: ${parsed.message}`), request, id);
      throw upstreamUnavailable();
    }
    return dealStarted(proxy, parsed.data, id, request, 'startDeal', client, deadline);
  },
};
