// The wishlist (spec §4): product ids of the signed-in customer, reloaded on login and emptied on logout;
// a toggle adds when absent and removes when present, one product at a time with its own loading state.
import { atom, computed } from 'nanostores';
import { showToast } from '~/components/ui/toast.store.ts';
import { ApiError } from '~/lib/api.client.ts';
import { bt } from '~/lib/i18n/browser.ts';
import { $session, onCustomerChange } from '~/features/auth/auth.store.ts';
import { removeWishlistCall, storeWishlistCall, wishlistCall } from './wishlist.client.ts';

export const $wishlistIds = atom<number[]>([]);
export const $wishlistCount = computed($wishlistIds, (ids) => ids.length);
/** Products whose toggle is on its way to the server. */
export const $wishlistBusy = atom<number[]>([]);

let followed = false;

/** Follows the session: the customer's wishlist on login (and on each page for a customer), nothing for a guest. */
export function followWishlist(): void {
  if (followed) return;
  followed = true;
  onCustomerChange((session) => {
    if (!session) {
      $wishlistIds.set([]);
      return;
    }
    const who = session.user.id;
    wishlistCall(session.accessToken).then(
      (cards) => {
        if ($session.get()?.user.id === who) $wishlistIds.set(cards.map((c) => c.id));
      },
      () => undefined,
    );
  });
}

/** spec §4 toggle. A guest gets 'Необходимо авторизоваться' (spec §5, §8). Answers whether the product is in the wishlist after. */
export async function toggleWishlist(productId: number): Promise<boolean> {
  const present = $wishlistIds.get().includes(productId);
  if (!$session.get()) {
    showToast(bt('wishlist.loginRequired'), 'error');
    return present;
  }
  if ($wishlistBusy.get().includes(productId)) return present;
  $wishlistBusy.set([...$wishlistBusy.get(), productId]);
  try {
    const { ids } = present ? await removeWishlistCall(productId) : await storeWishlistCall(productId);
    $wishlistIds.set(ids);
    return ids.includes(productId);
  } catch (error) {
    // A 401 has already logged the customer out and opened the modal; anything else says what went wrong.
    if (error instanceof ApiError && error.failure.status !== 401) showToast(error.message, 'error');
    return present;
  } finally {
    $wishlistBusy.set($wishlistBusy.get().filter((id) => id !== productId));
  }
}
