/**
 * The Node platform (http/platform.ts): `node:crypto`'s HMAC, synchronous (Web Crypto's goes
 * through the thread pool and a promise per call, which made signing the largest single cost of
 * a proxied request: bench/proxy.ts), and the keep-alive `fetch` of `createNodeFetch` as the
 * clients' default. Only the Node entry (`src/server/node.ts`) and Node-only code use it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { HmacHash, ServerPlatform } from '../http/platform.js';
import { nodeDefaultFetch } from './fetch.js';

const NODE_HASH = { 'SHA-1': 'sha1', 'SHA-256': 'sha256' } as const satisfies Record<HmacHash, string>;

let node: ServerPlatform | undefined;

/** Node's platform (made on first use, then shared). */
export const nodePlatform = (): ServerPlatform =>
  (node ??= {
    name: 'node',
    hmac: (hash, key, text) => createHmac(NODE_HASH[hash], key).update(text, 'utf8').digest('base64'),
    verifyHmac: (hash, key, text, mac) => {
      const expected = createHmac(NODE_HASH[hash], key).update(text, 'utf8').digest();
      // The length of a digest is no secret; timingSafeEqual wants equal lengths.
      return mac.byteLength === expected.byteLength && timingSafeEqual(mac, expected);
    },
    defaultFetch: nodeDefaultFetch,
  });
