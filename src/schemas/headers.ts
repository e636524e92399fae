/**
 * Header names of the checkout protocol, shared by the element and the server (no zod: the
 * element imports this).
 */

/** The header the element sends a checkout token in (`checkout-token`), and the gateway reads it from. */
export const CHECKOUT_TOKEN_HEADER = 'x-checkout-token';
