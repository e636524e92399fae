/**
 * Stands in for the shop's own code that the examples call: its order table (a Map here, a
 * database table in a real shop) and its session cookie. Replace it with yours.
 */
export interface Order {
  invoiceId: string;
  /** The session of the visitor who placed the order. */
  sessionId: string;
  paymentStatus: string;
}

const table = new Map<string, Order>();

export const orders = {
  insert: (order: Order): Promise<void> => Promise.resolve(void table.set(order.invoiceId, { ...order })),
  findByInvoice: (invoiceId: string): Promise<Order | undefined> => Promise.resolve(table.get(invoiceId)),
  /** Idempotent: a repeated notification sets the same status again. */
  setPaymentStatus: (invoiceId: string, paymentStatus: string): Promise<void> => {
    const order = table.get(invoiceId);
    if (order) order.paymentStatus = paymentStatus;
    return Promise.resolve();
  },
};

/** The visitor's session id, from the shop's own session cookie; `undefined` without one. */
export const sessionOf = (request: Request): string | undefined =>
  /(?:^|;\s*)shop_session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
