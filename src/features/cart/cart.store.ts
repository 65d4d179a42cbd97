// The guest cart kept in the browser under the spec's guest-products key (spec §3). The cart issue adds
// the server cart and the actions; the header badges already read the count from here.
import { atom, computed } from 'nanostores';

export const GUEST_CART_KEY = 'guest-products';

export interface GuestCartLine {
  uid: string;
  id: number;
  quantity: number;
  variant_code?: string;
}

export const $cartLines = atom<GuestCartLine[]>([]);

/** spec §4: the count is the sum of quantities. */
export const $cartCount = computed($cartLines, (lines) => lines.reduce((sum, l) => sum + (Number.isFinite(l.quantity) ? l.quantity : 0), 0));

let loaded = false;
export function loadGuestCart(storage: Storage | undefined = globalThis.localStorage): void {
  if (loaded || !storage) return;
  loaded = true;
  try {
    const parsed: unknown = JSON.parse(storage.getItem(GUEST_CART_KEY) ?? '[]');
    if (Array.isArray(parsed)) $cartLines.set(parsed.filter((l): l is GuestCartLine => typeof l === 'object' && l !== null && typeof (l as GuestCartLine).quantity === 'number'));
  } catch {
    // A damaged entry is treated as an empty cart rather than breaking the page.
  }
}
