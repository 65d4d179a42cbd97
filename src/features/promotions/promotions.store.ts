// The code a shopper applied in the cart (issue 56), carried to the checkout for this tab's visit: kept in
// sessionStorage, so it is gone with the tab and never outlives the visit on a shared computer.
const KEY = 'promo-code';

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

/** The code applied in the cart, or '' (read after hydration: the server renders without it). */
export const keptPromoCode = (): string => storage()?.getItem(KEY) ?? '';

/** Keeps the applied code for the checkout, or forgets it (''): removed, refused, or the order placed. */
export function keepPromoCode(code: string): void {
  try {
    if (code) storage()?.setItem(KEY, code);
    else storage()?.removeItem(KEY);
  } catch {
    // Storage full or refused (private mode): the shopper types the code again at checkout.
  }
}
