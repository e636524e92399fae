import { kit } from '../../../lib/kit';

export const POST = (request: Request): Promise<Response> => kit().notifications(request);
