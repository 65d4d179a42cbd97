// Wishlist product ids (spec §4): emptied for guests, reloaded on login by the accounts issue.
import { atom, computed } from 'nanostores';

export const $wishlistIds = atom<number[]>([]);
export const $wishlistCount = computed($wishlistIds, (ids) => ids.length);
