import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { kit } from './kit.js';

const app = new Hono();
app.all('/checkout-api/*', (c) => kit.checkout(c.req.raw));
app.post('/payments/notify', (c) => kit.notifications(c.req.raw));
// On Node; on Bun, Deno or Cloudflare Workers, `export default app` instead.
export const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000) });
