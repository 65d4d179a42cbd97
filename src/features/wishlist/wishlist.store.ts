// Wishlist product ids (spec §4): emptied for guests, reloaded on login by the accounts issue.
import { atom, computed } from 'nanostores';
import { showToast } from '~/components/ui/toast.store.ts';
import { bt } from '~/lib/i18n/browser.ts';

export const $wishlistIds = atom<number[]>([]);
export const $wishlistCount = computed($wishlistIds, (ids) => ids.length);

/**
 * spec §4 toggle: adds when absent, removes when present. Every shopper is a guest until accounts
 * land (their issue adds the server call here), so for now it always answers with the login toast.
 */
export async function toggleWishlist(_productId: number): Promise<boolean> {
  // spec §5/§8: a guest's add or remove fails with 'Необходимо авторизоваться'.
  showToast(bt('wishlist.loginRequired'), 'error');
  return false;
}
