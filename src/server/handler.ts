/** A handler over Web `Request` and `Response`, as every handler of the server kit is: the proxy, the receiver, the kit's `fetch`; what the adapters mount. */
export type FetchHandler = (request: Request) => Promise<Response> | Response;
