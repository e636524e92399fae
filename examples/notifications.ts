import { createNodeServer, createNotificationHandler } from 'merchant-checkout/server';
import { orders } from './shop.js';

const notifications = createNotificationHandler({
  token: process.env.PAYMENT_NOTIFICATION_TOKEN!, // the notificationToken of your invoices
  // The service hears 200 only once this resolved, and delivers again otherwise: record, then
  // answer. Credit idempotently, by invoice id: a repeat can still come after a restart.
  onNotification: async (invoice) => {
    await orders.setPaymentStatus(invoice.id, invoice.status);
  },
});

// Its URL (e.g. https://shop.example/payments/notify) is the notificationUrl of your invoices.
export const server = createNodeServer(notifications).listen(Number(process.env.PORT ?? 3001));
