import { kit } from '../../../../lib/kit';

// The platform's cron (vercel.json) calls it with `Authorization: Bearer $CRON_SECRET`; so may any scheduler.
export const GET = (request: Request): Promise<Response> => kit().cron(request);
export const POST = GET;
// The kit stops reading after cron.budgetMs (5 s); a change being handed to onChange then may take up to 10 s more.
export const maxDuration = 30;
