/**
 * A payment service whose invoices the test sets by hand, in the documented notification's
 * shapes: `GET /api/merchant/invoices/{id}` (and `…/internal-id/{internalId}`) answers the
 * invoice as it stands (as InvoiceDTO, with `deals`), 404 `null` for any other. For tests of what the kit does with the truth when
 * channels lie (a forged `paid`, a correction, a read that fails), where the mock's own
 * transitions would be in the way. Signatures are not checked here (the mock's tests do).
 */
import type { documentedPaidNotification } from '../fixtures/documented.js';

/** The documented notification's invoice, a fresh copy: what a state of the scripted invoice starts from. */
export type NotifiedInvoiceJson = ReturnType<typeof documentedPaidNotification>['invoice'];

export interface ScriptedService {
  fetch: (request: Request) => Promise<Response>;
  /** Sets what the service answers for the invoice (its notification form; answered with `deals`). */
  set(invoice: NotifiedInvoiceJson): void;
  /** Forgets the invoice: reads answer 404. */
  drop(id: string): void;
  /** The next `count` reads answer 503 (the service down). */
  failNext(count: number): void;
  /** How many reads each invoice had. */
  reads: Map<string, number>;
}

export const createScriptedService = (): ScriptedService => {
  const invoices = new Map<string, NotifiedInvoiceJson>();
  const reads = new Map<string, number>();
  let failures = 0;
  return {
    reads,
    set: (invoice) => void invoices.set(invoice.id, structuredClone(invoice)),
    drop: (id) => void invoices.delete(id),
    failNext: (count) => void (failures = count),
    fetch: (request) => {
      const path = new URL(request.url).pathname;
      const byInternal = /^\/api\/merchant\/invoices\/internal-id\/([^/]+)$/.exec(path);
      const match = byInternal ? undefined : /^\/api\/merchant\/invoices\/([0-9a-f-]{36})$/.exec(path);
      const internal = byInternal
        ? [...invoices.values()].find((invoice) => invoice.internalId === decodeURIComponent(byInternal[1]!))
        : undefined;
      if (request.method !== 'GET' || !(match || internal)) return Promise.resolve(new Response('null', { status: 404 }));
      const id = internal?.id ?? match![1]!;
      reads.set(id, (reads.get(id) ?? 0) + 1);
      if (failures > 0) {
        failures--;
        return Promise.resolve(new Response('[{"message":"Service Unavailable"}]', { status: 503 }));
      }
      const invoice = invoices.get(id);
      if (!invoice) return Promise.resolve(new Response('null', { status: 404, headers: { 'content-type': 'application/json' } }));
      const { deal, ...rest } = invoice;
      return Promise.resolve(
        Response.json({
          ...rest,
          userId: null,
          paymentMethod: null,
          paymentOption: null,
          invoiceUrl: 'https://pay.example/invoice',
          deals: deal ? [{ ...deal, isActive: false, rate: rest.rate }] : [],
        }),
      );
    },
  };
};
