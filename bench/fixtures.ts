/** The merchant and the invoice every benchmark loads: an SBP deal, so requisites and a QR code. */
import type { Invoice, MerchantClient } from '../src/server/node.js';

export const MERCHANT = { apiKey: 'bench-key', secretKey: 'bench-secret', storeId: 7, storeName: 'Bench Shop' };
export const INTERNAL_ID = 'bench-order-1';

export const createBenchInvoice = (client: MerchantClient, index = 0): Promise<Invoice> =>
  client.createInvoice({
    type: 'in',
    amount: '1500',
    currency: 'RUB',
    notificationUrl: 'http://127.0.0.1:9/notify',
    notificationToken: 'bench-token',
    internalId: index === 0 ? INTERNAL_ID : `${INTERNAL_ID}-${index}`,
    startDeal: true,
    paymentOption: 'SBP',
  });
