/**
 * The checkout protocol's routes, declared once (docs/ARCHITECTURE.md,
 * "The checkout protocol"): one row per route with its method, path template under the proxy's mount and the
 * kind of body it takes. The proxy's router (src/server/proxy/router.ts), the element's protocol
 * client (src/element/protocol-client.ts) and the OpenAPI file (scripts/gen-openapi.ts) are built
 * from it; the zod schemas of each route are attached on the server's side
 * (`CHECKOUT_ROUTE_SCHEMAS`, checkout-route-schemas.ts). No zod here: the element imports it.
 */

/** What a route's request carries: nothing, JSON, or a multipart upload (its own size cap and read deadline). */
export type CheckoutRouteBody = 'none' | 'json' | 'multipart';

/** One route of the checkout protocol. */
export interface CheckoutRouteRow {
  /** The one method it answers (besides `OPTIONS`, which never reaches upstream). */
  readonly method: 'GET' | 'POST';
  /** The path under the mount, `{id}` standing for the invoice id (what traces and metrics name it by). */
  readonly path: string;
  /** What the request carries; a body sent to a `none` POST is read within the limit and ignored. */
  readonly body: CheckoutRouteBody;
  /**
   * The method of the element's `CheckoutClient` that asks this route
   * (src/element/protocol-client.ts builds its default client from these rows): it takes the
   * invoice id where the path has one, else the value of `query`; then the body, where there is
   * one; then `{ signal }`.
   */
  readonly client: string;
  /** The one query parameter of a route without an invoice id (`GET /banks?currency=RUB`). */
  readonly query?: string;
}

/** Every route, in the order the OpenAPI file lists them. */
export const CHECKOUT_ROUTES = {
  invoice: { method: 'GET', path: '/invoices/{id}', body: 'none', client: 'getInvoice' },
  variants: { method: 'GET', path: '/invoices/{id}/available-payment-variants', body: 'none', client: 'getPaymentVariants' },
  cancel: { method: 'POST', path: '/invoices/{id}/cancel', body: 'none', client: 'cancelInvoice' },
  deal: { method: 'POST', path: '/invoices/{id}/deal', body: 'json', client: 'startDeal' },
  receipt: { method: 'POST', path: '/invoices/{id}/receipt', body: 'multipart', client: 'sendReceipt' },
  dispute: { method: 'POST', path: '/invoices/{id}/dispute', body: 'multipart', client: 'reportPayment' },
  banks: { method: 'GET', path: '/banks', body: 'none', client: 'getBanks', query: 'currency' },
  events: { method: 'GET', path: '/invoices/{id}/events', body: 'none', client: 'watch' },
} as const satisfies Readonly<Record<string, CheckoutRouteRow>>;

/** A route of the checkout protocol; all but `banks` name an invoice. */
export type CheckoutRouteName = keyof typeof CHECKOUT_ROUTES;

/** The routes' names, in the table's order. */
export const CHECKOUT_ROUTE_NAMES = Object.keys(CHECKOUT_ROUTES) as CheckoutRouteName[];

/**
 * The path of `route` with its `{id}` filled in (percent-encoded whole), for a client of the
 * protocol: `checkoutPath('deal', id)` → `/invoices/{id}/deal`.
 */
export const checkoutPath = (route: CheckoutRouteName, id = ''): string =>
  CHECKOUT_ROUTES[route].path.replace('{id}', encodeURIComponent(id));
