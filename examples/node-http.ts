import { createNodeServer } from 'merchant-checkout/server';
import { kit } from './kit.js';

// node:http with the deadlines a public server needs; the kit's fetch serves both routes.
export const server = createNodeServer(kit.fetch).listen(Number(process.env.PORT ?? 3000));
