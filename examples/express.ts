import express from 'express';
import { toNodeHandler } from 'merchant-checkout/server';
import { kit } from './kit.js';

const app = express();
// Before your body parsers: the kit reads the bodies itself.
app.use('/checkout-api', toNodeHandler(kit.checkout));
app.post('/payments/notify', toNodeHandler(kit.notifications));
export const server = app.listen(Number(process.env.PORT ?? 3000));
