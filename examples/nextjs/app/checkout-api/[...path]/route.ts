import { kit } from '../../../lib/kit';

const handle = (request: Request): Promise<Response> => kit().checkout(request);

export const GET = handle;
export const POST = handle;
