/**
 * `npm run demo`: the demo shop, the signing proxy and the mock payment service in this one
 * process, on http://localhost:5173/ (`PORT` and `HOST` change that). Nothing to configure:
 * the shop's keys at the mock are fixed demo values. Ctrl-C stops everything.
 */
import { SCENARIOS } from '../shared/scenarios.js';
import { DEFAULT_DEMO_PORT, startDemoServer } from './demo-server.js';

const port = process.env.PORT === undefined || process.env.PORT === '' ? DEFAULT_DEMO_PORT : Number(process.env.PORT);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}
const host = process.env.HOST || 'localhost';
const quirksSeed = process.env.MOCK_QUIRKS === undefined || process.env.MOCK_QUIRKS === '' ? undefined : Number(process.env.MOCK_QUIRKS);
if (quirksSeed !== undefined && !(Number.isInteger(quirksSeed) && quirksSeed >= 0)) {
  console.error(`MOCK_QUIRKS must be a seed (a non-negative integer), got ${JSON.stringify(process.env.MOCK_QUIRKS)}`);
  process.exit(1);
}

let server;
try {
  server = await startDemoServer({
    port,
    host,
    log: (message) => console.warn(`  [checkout-api] ${message}`),
    ...(quirksSeed !== undefined ? { quirks: quirksSeed } : {}),
  });
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Port ${port} is in use. Start the demo on another one: PORT=${port + 1} npm run demo`);
  } else {
    console.error(error);
  }
  process.exit(1);
}

const { url, close } = server;
console.log(`
  merchant-checkout demo   ${url}

  React page               ${url}react/
  Vue page                 ${url}vue/
  QA deep links            ${url}?scenario=<${SCENARIOS.join('|')}>[&lang=ru|en][&theme=light|dark]
  Checkout proxy           ${url}checkout-api/   (the element's endpoint)
  Mock service controls    ${url}__mock

  Everything runs in this process against the mock payment service. Ctrl-C stops it.
`);

let stopping = false;
const stop = () => {
  if (stopping) process.exit(1);
  stopping = true;
  void close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
