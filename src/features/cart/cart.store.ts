// The cart in the browser (spec §3, §4): a guest's lines in localStorage under the spec's guest-products
// key; a customer's cart on the server, of which the browser keeps a copy. On login the guest's lines
// join the server cart and the local ones are cleared; on logout the server copy here is emptied.
import { atom, computed } from 'nanostores';
import { showToast } from '~/components/ui/toast.store.ts';
import { ApiError } from '~/lib/api.client.ts';
import { bt } from '~/lib/i18n/browser.ts';
import { $session, onCustomerChange } from '~/features/auth/auth.store.ts';
import { cartListCall, storeCartCall } from './cart.client.ts';
import type { CartLine } from './cart.ts';

export const GUEST_CART_KEY = 'guest-products';

/** A guest's line as kept in the browser: what was chosen, nothing priced (spec §3 guest cart). */
export interface GuestCartLine {
  uid: string;
  id: number;
  quantity: number;
  variant_code?: string;
  is_selected?: boolean;
}

export const $guestLines = atom<GuestCartLine[]>([]);
/** The customer's cart as the server last answered it. */
export const $serverLines = atom<CartLine[]>([]);

/** spec §4: the count is the sum of quantities — of the server cart for a customer, the local one for a guest. */
export const $cartCount = computed([$session, $guestLines, $serverLines], (session, guest, server) =>
  (session ? server : guest).reduce((sum, l) => sum + (Number.isFinite(l.quantity) ? l.quantity : 0), 0),
);

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

let loaded = false;
export function loadGuestCart(store: Storage | undefined = storage()): void {
  if (loaded || !store) return;
  loaded = true;
  try {
    const parsed: unknown = JSON.parse(store.getItem(GUEST_CART_KEY) ?? '[]');
    if (Array.isArray(parsed))
      $guestLines.set(parsed.filter((l): l is GuestCartLine => typeof l === 'object' && l !== null && typeof (l as GuestCartLine).quantity === 'number'));
  } catch {
    // A damaged entry is treated as an empty cart rather than breaking the page.
  }
}

export function saveGuestLines(lines: GuestCartLine[], store: Storage | undefined = storage()): void {
  $guestLines.set(lines);
  try {
    if (lines.length === 0) store?.removeItem(GUEST_CART_KEY);
    else store?.setItem(GUEST_CART_KEY, JSON.stringify(lines));
  } catch {
    // Storage full or blocked: the lines still count for this page.
  }
}

/** The guest's lines as items to send (login's cart_items, validate-cart-items). */
export function guestItems(): GuestCartLine[] {
  loadGuestCart();
  return $guestLines.get();
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
 * must not exceed the line maximum, otherwise nothing is added.
 */
export function addToGuestCart(item: AddToCart, store: Storage | undefined = storage(), now = Date.now()): AddResult {
  loadGuestCart(store);
  const lines = $guestLines.get();
  const existing = lines.find((l) => l.id === item.id && l.variant_code === item.variant_code);
  const quantity = (existing?.quantity ?? 0) + item.quantity;
  if (quantity > item.max_item) return { ok: false, message: cartLimitMessage(item.max_item) };
  // spec §3: a guest line's uid comes from the current timestamp.
  const line: GuestCartLine = existing ? { ...existing, quantity } : { uid: String(now), id: item.id, quantity, variant_code: item.variant_code };
  saveGuestLines(existing ? lines.map((l) => (l === existing ? line : l)) : [...lines, line], store);
  return { ok: true, line };
}

/** Adds to whichever cart this visitor has: the server's for a customer (the server checks the limit), else the local one. */
export async function addToCart(item: AddToCart): Promise<AddResult> {
  if (!$session.get()) return addToGuestCart(item);
  const uid = String(Date.now());
  try {
    $serverLines.set(await storeCartCall({ id: item.id, quantity: item.quantity, uid, variant_code: item.variant_code }));
    return { ok: true, line: { uid, id: item.id, quantity: item.quantity, variant_code: item.variant_code } };
  } catch (error) {
    return { ok: false, message: error instanceof ApiError ? error.message : bt('error.network') };
  }
}

let followed = false;

/**
 * Follows the session (spec §4): for a customer, the guest's lines still here (a registration, which
 * sends none) join the server cart and are cleared, then the server cart is loaded; for a guest, the
 * server copy is emptied.
 */
export function followCart(): void {
  if (followed) return;
  followed = true;
  loadGuestCart();
  onCustomerChange((session) => {
    if (!session) {
      $serverLines.set([]);
      return;
    }
    const who = session.user.id;
    void (async () => {
      const leftover = $guestLines.get();
      for (const line of leftover) {
        await storeCartCall({ id: line.id, quantity: line.quantity, uid: line.uid, variant_code: line.variant_code }, session.accessToken).catch(
          () => undefined,
        );
      }
      if (leftover.length > 0) saveGuestLines([]);
      const lines = await cartListCall(session.accessToken).catch(() => null);
      if (lines && $session.get()?.user.id === who) $serverLines.set(lines);
    })();
  });
}

/** Shows a failed cart call's message (a 401 has already asked the customer to log in again). */
export function cartError(error: unknown): void {
  if (error instanceof ApiError && error.failure.status === 401) return;
  showToast(error instanceof ApiError ? error.message : bt('error.network'), 'error');
}
