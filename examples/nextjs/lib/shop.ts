/**
 * Stands in for the shop's own code that the examples call: its order table (a Map here, a
 * database table in a real shop) and its session cookie. Replace it with yours.
 */
export interface Order {
  invoiceId: string;
  /** The session of the visitor who placed the order. */
  sessionId: string;
  paymentStatus: string;
  /** The kit's changes recorded for it (`change.id`), so that a change delivered again is not counted twice. */
  changes: string[];
}

const table = new Map<string, Order>();

export const orders = {
  insert: (order: Omit<Order, 'changes'>): Promise<void> => Promise.resolve(void table.set(order.invoiceId, { ...order, changes: [] })),
  findByInvoice: (invoiceId: string): Promise<Order | undefined> => Promise.resolve(table.get(invoiceId)),
  /** Idempotent by the change's id: the same change recorded twice changes nothing. */
  record: (changeId: string, invoiceId: string, paymentStatus: string): Promise<void> => {
    const order = table.get(invoiceId);
    if (order && !order.changes.includes(changeId)) {
      order.changes.push(changeId);
      order.paymentStatus = paymentStatus;
    }
    return Promise.resolve();
  },
};

/** The visitor's session id, from the shop's own session cookie; `undefined` without one. */
export const sessionOf = (request: Request): string | undefined =>
  /(?:^|;\s*)shop_session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
