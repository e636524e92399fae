/**
 * The kit (`createCheckoutServer`) on the in-process mock service: the mock's notifications go
 * to the kit's `fetch`, one client signs for the merchant, and the kit gets the rest of its
 * options from the test (`basePath` `/checkout-api`, `authorize` allowing every page, unless
 * given).
 */
import { createMockService, type MockMerchant, type MockService } from '../../src/mock/index.js';
import { MerchantClient, createCheckoutServer, type CheckoutServer, type CheckoutServerOptions } from '../../src/server/node.js';

const SERVICE_URL = 'https://pay.mock.invalid';

export interface KitOnMock {
  mock: MockService;
  client: MerchantClient;
  kit: CheckoutServer;
}

export const kitOnMock = (
  merchant: MockMerchant & { apiKey: string; secretKey: string },
  options: Omit<CheckoutServerOptions, 'client'>,
): KitOnMock => {
  const world = {} as KitOnMock;
  world.mock = createMockService({
    merchants: [merchant],
    publicBaseUrl: SERVICE_URL,
    controls: true,
    notificationFetch: (request) => world.kit.fetch(request),
    notificationAllowed: () => true,
  });
  world.client = new MerchantClient({
    baseUrl: SERVICE_URL,
    apiKey: merchant.apiKey,
    secretKey: merchant.secretKey,
    fetch: (request) => world.mock.fetch(request),
  });
  world.kit = createCheckoutServer({ client: world.client, basePath: '/checkout-api', authorize: () => true, ...options });
  return world;
};
