/**
 * `merchant-checkout/mock`: an offline fake of the payment service's merchant API, for the
 * demo, the tests and merchants' own integration tests. Everything it does that the service's
 * reference does not show is a named assumption in `assumptions.ts`.
 */
export {
  createMockService,
  MOCK_API_PREFIX,
  MOCK_CONTROL_PREFIX,
  type MockMerchant,
  type MockRequestRecord,
  type MockService,
  type MockServiceOptions,
} from './service.js';
export { startMockServer, type MockServer, type MockServerOptions } from './server.js';
export { MockControlError } from './http.js';
export type { NotificationAttempt, NotificationRecord, NotificationRetryOptions } from './notifier.js';
export { NOTIFICATION_TOKEN_HEADER_NAME } from './notifier.js';
export * as assumptions from './assumptions.js';
export { CONTROL_ROUTES } from './controls.js';
