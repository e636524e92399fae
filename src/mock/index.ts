/**
 * `merchant-checkout/mock`: an offline fake of the payment service (merchant API, public API,
 * notifications), for the demo, the tests and merchants' own integration tests. It follows
 * the service's public documentation; every behaviour the documentation does not show is an
 * option of `createMockService` (see options.ts and README.md).
 */
export {
  createMockService,
  MOCK_API_PREFIX,
  MOCK_CONTROL_PREFIX,
  CONTROL_ROUTES,
  type MockService,
  type MockDisputeOpening,
} from './service.js';
export type { MockServiceOptions, MockMerchant, AmountLimit, MockClockOptions, MockRefusal, NotificationRetryOptions } from './options.js';
export { DEFAULTS as MOCK_DEFAULTS } from './options.js';
export type { MockRequestRecord } from './pipeline.js';
export type { FaultScope } from './faults.js';
export type { MockFixtures } from './fixtures.js';
export type { AccountDto, InvoiceDto } from './dto.js';
export { startMockServer, type MockServer, type MockServerOptions } from './server.js';
export { MockControlError } from './errors.js';
export type { NotificationAttempt, NotificationRecord } from './notifier.js';
export { NOTIFICATION_TOKEN_HEADER_NAME } from './notifier.js';
export { BANKS, PAYMENT_OPTIONS } from './banks.js';
