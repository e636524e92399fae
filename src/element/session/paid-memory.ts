/**
 * "I have paid" remembered for a reload of the page, per tab (`sessionStorage`): the key of the
 * deal it was said of, by invoice. Where storage is blocked (private mode, a sandboxed frame)
 * it holds for this page only.
 */
const confirmedKey = (invoiceId: string) => `merchant-checkout:paid:${invoiceId.toLowerCase()}`;

export const remembered = (invoiceId: string): string | undefined => {
  try {
    return sessionStorage.getItem(confirmedKey(invoiceId)) ?? undefined;
  } catch {
    return undefined;
  }
};

export const remember = (invoiceId: string, key: string | undefined): void => {
  try {
    if (key === undefined) sessionStorage.removeItem(confirmedKey(invoiceId));
    else sessionStorage.setItem(confirmedKey(invoiceId), key);
  } catch {
    // as above
  }
};
