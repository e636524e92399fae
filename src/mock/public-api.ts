/**
 * The public API under `/api/public`: no signature. Documented: the bank list of a currency
 * and an invoice's QR code (SVG). Undocumented but called by the hosted payment page with only
 * `X-Identity`: the variants of an invoice and start-deal. Imports api.ts and what it does.
 */
import QRCode from 'qrcode';
import { MERCHANT_ROUTES, ownInvoice, type ApiContext, type ApiEnv } from './api.js';
import { bankListOf } from './banks.js';
import { MockControlError } from './errors.js';
import type { FormPart } from './http.js';
import { activeDeal, type MerchantRecord } from './records.js';
import { qrTextOf } from './requisites.js';
import type { Route } from './routes.js';

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

/** The merchant route of the same operation, so both answer alike. */
const merchantRoute = (method: string, path: string) => MERCHANT_ROUTES.find((route) => route.method === method && route.path === path)!;

export const PUBLIC_ROUTES: readonly Route<PublicContext>[] = [
  {
    method: 'GET',
    path: '/payment-methods/{currency}',
    signing: 'public',
    handle: (c, p) =>
      new Response(c.env.quirks.render(bankListOf(p.currency).map(({ code, name }) => ({ code, name })), 'answer'), {
        headers: { 'content-type': 'application/json; charset=utf-8' },
      }),
  },
  {
    method: 'GET',
    path: '/invoices/{id}/qr-code',
    signing: 'public',
    handle: async (c, p) => {
      const invoice = c.env.store.invoices.get(p.id!.toLowerCase());
      if (!invoice) throw new MockControlError(404, 'not_found', 'no such invoice');
      // The QR of a QR option is its data; else the bank's pay link; else the payment page.
      const text = qrTextOf(activeDeal(invoice), invoice) ?? invoice.invoiceUrl;
      const svg = await QRCode.toString(text, { type: 'svg', margin: 1 });
      return new Response(svg, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' } });
    },
  },
  {
    method: 'GET',
    path: '/invoices/{id}/available-payment-variants',
    signing: 'public',
    handle: (c, p) => merchantRoute('GET', '/invoices/{id}/available-payment-variants').handle(identified(c), p),
  },
  {
    method: 'POST',
    path: '/invoices/{id}/start-deal',
    signing: 'public',
    handle: (c, p) => {
      ownInvoice(identified(c), p.id!);
      return merchantRoute('POST', '/invoices/{id}/start-deal').handle(identified(c), p);
    },
  },
];
