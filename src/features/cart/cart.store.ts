// The guest cart kept in the browser under the spec's guest-products key (spec §3). The cart issue adds
// the server cart and the actions; the header badges already read the count from here.
import { atom, computed } from 'nanostores';
import { bt } from '~/lib/i18n/browser.ts';

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
    if (Array.isArray(parsed))
      $cartLines.set(parsed.filter((l): l is GuestCartLine => typeof l === 'object' && l !== null && typeof (l as GuestCartLine).quantity === 'number'));
  } catch {
    // A damaged entry is treated as an empty cart rather than breaking the page.
  }
}

/** spec §5/§8: what the guest sees when a line would exceed its maximum. */
export function cartLimitMessage(max: number): string {
  return bt('cart.limit', { max });
}

export interface AddToCart {
  id: number;
  variant_code: string;
  quantity: number;
  /** The line maximum from the server (spec §3 max_item). */
  max_item: number;
}

export type AddResult = { ok: true; line: GuestCartLine } | { ok: false; message: string };

/**
 * spec §5 guest cart add: the same product and size joins its line; the existing plus the added quantity
 * must not exceed the line maximum, otherwise nothing is added. The cart issue adds the server cart.
 */
export function addToGuestCart(item: AddToCart, storage: Storage | undefined = globalThis.localStorage, now = Date.now()): AddResult {
  loadGuestCart(storage);
  const lines = $cartLines.get();
  const existing = lines.find((l) => l.id === item.id && l.variant_code === item.variant_code);
  const quantity = (existing?.quantity ?? 0) + item.quantity;
  if (quantity > item.max_item) return { ok: false, message: cartLimitMessage(item.max_item) };
  // spec §3: a guest line's uid comes from the current timestamp.
  const line: GuestCartLine = existing ? { ...existing, quantity } : { uid: String(now), id: item.id, quantity, variant_code: item.variant_code };
  const next = existing ? lines.map((l) => (l === existing ? line : l)) : [...lines, line];
  $cartLines.set(next);
  try {
    storage?.setItem(GUEST_CART_KEY, JSON.stringify(next));
  } catch {
    // Storage full or blocked: the line still counts for this page.
  }
  return { ok: true, line };
}
