/**
 * Shared zod (`zod/mini`) schemas for every object of the merchant API and the checkout
 * protocol, and the types inferred from them. Imported by the element, the server and the mock.
 */
export * from './primitives.js';
export * from './invoice.js';
export * from './dispute.js';
export * from './withdrawal.js';
export * from './checkout.js';
export { isRequisitesKind, REQUISITES_KINDS, requisitesKind, type RequisitesKind } from './requisites-kind.js';
export * from './notification.js';
export * from './responses.js';
export * from './service.js';
export * from './operations.js';
