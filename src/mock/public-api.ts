/**
 * The public API under `/api/public`: no signature. Documented: the bank list of a currency
 * and an invoice's QR code (SVG). Undocumented but called by the hosted payment page with only
 * `X-Identity`: the variants of an invoice and start-deal. Imports the shared operations,
 * api.ts and what it does.
 */
import QRCode from 'qrcode';
import { PUBLIC_API_PREFIX } from '../schemas/operations.js';
import { MERCHANT_HANDLERS, ownInvoice, type ApiContext, type ApiEnv } from './api.js';
import { bankListOf } from './banks.js';
import { MockControlError, notFound } from './errors.js';
import type { FormPart } from './http.js';
import { activeDeal, type MerchantRecord } from './records.js';
import { qrTextOf } from './requisites.js';
import { operationRoutes, type Handler, type PublicOperationName, type Route } from './routes.js';

export interface PublicContext {
  env: ApiEnv;
  /** The `X-Identity` sent, with its merchant, when there is one. */
  identity: { apiKey: string; merchant: MerchantRecord } | null;
  query: URLSearchParams;
  json: () => unknown;
  form: readonly FormPart[];
}

const identified = (context: PublicContext): ApiContext => {
  if (!context.identity) throw new MockControlError(401, 'unauthorized', 'Unauthorized');
  return { ...context, ...context.identity };
};

/** A brand without the hosted page's routes (`hostedPageRoutes: false`) answers them as the app answers a path it does not have. */
const hostedPage = (context: PublicContext, method: string, path: string): void => {
  if (!context.env.hostedPageRoutes) throw notFound(`no operation ${method} ${path}`);
};

/** The documented public operations of `OPERATIONS`, keyed by name (the type checker names any without a handler). */
export const PUBLIC_HANDLERS: Record<PublicOperationName, Handler<PublicContext>> = {
  listPublicPaymentMethods: (c, p) =>
    new Response(
      c.env.quirks.render(
        bankListOf(p.currency).map(({ code, name }) => ({ code, name })),
        'answer',
      ),
      {
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
    ),
  getInvoiceQrCode: async (c, p) => {
    const invoice = c.env.store.invoices.get(p.id!.toLowerCase());
    if (!invoice) throw new MockControlError(404, 'not_found', 'no such invoice');
    // The QR of a QR option is its data; else the bank's pay link; else the payment page.
    const text = qrTextOf(activeDeal(invoice), invoice) ?? invoice.invoiceUrl;
    const svg = await QRCode.toString(text, { type: 'svg', margin: 1 });
    return new Response(svg, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' } });
  },
};

/**
 * The hosted payment page's undocumented routes (not operations of `OPERATIONS`): the merchant
 * handler of the same operation answers, so both answer alike.
 */
export const HOSTED_PAGE_ROUTES: readonly Route<PublicContext>[] = [
  {
    method: 'GET',
    path: '/invoices/{id}/available-payment-variants',
    signing: 'public',
    handle: (c, p) => {
      hostedPage(c, 'GET', `/invoices/${p.id!}/available-payment-variants`);
      return MERCHANT_HANDLERS.listPaymentVariants(identified(c), p);
    },
  },
  {
    method: 'POST',
    path: '/invoices/{id}/start-deal',
    signing: 'public',
    handle: (c, p) => {
      hostedPage(c, 'POST', `/invoices/${p.id!}/start-deal`);
      ownInvoice(identified(c), p.id!);
      return MERCHANT_HANDLERS.startDeal(identified(c), p);
    },
  },
];

/** The public API's routes under `/api/public`: its operations' rows, then the hosted page's routes. */
export const PUBLIC_ROUTES: readonly Route<PublicContext>[] = [
  ...operationRoutes(PUBLIC_API_PREFIX, PUBLIC_HANDLERS),
  ...HOSTED_PAGE_ROUTES,
];
