/** `GET /banks?currency=`: the service's banks of a currency, public, from the shared cache; off with `bankNames: false`. */
import type { ProxyRoute } from '../context.js';
import { fail } from '../failures.js';
import { jsonAnswer } from '../../http/answers.js';

export const banksRoute: ProxyRoute = {
  enabled: (proxy) => proxy.bankNames !== undefined,
  serve: async (proxy, { request, budget: { deadline } }) => {
    const currencies = new URL(request.url).searchParams.getAll('currency');
    const currency = currencies.length === 1 ? currencies[0]! : '';
    if (!/^[A-Z]{3,5}$/.test(currency)) fail('bad_request', 'currency: must be one currency code of 3 to 5 capital letters, like "RUB"');
    const list = await deadline.race(proxy.bankNames!.banks(proxy.clients[0]!, currency));
    const answer = jsonAnswer(
      200,
      list.map(({ code, name }) => ({ code, name })),
    );
    answer.headers.set('cache-control', 'public, max-age=3600');
    return answer;
  },
};
