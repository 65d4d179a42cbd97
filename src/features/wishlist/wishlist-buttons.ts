// One listener for every server-rendered wishlist heart ([data-wishlist="<product id>"]): cards are
// static HTML, so they need no island of their own. Each heart shows whether its product is in the
// wishlist (aria-pressed) and while its toggle is on its way (aria-busy). WishlistButton.astro loads this
// module once the page has loaded, and hands over a heart pressed before then (toggleHeart).
import { $wishlistBusy, $wishlistIds, toggleWishlist } from './wishlist.store.ts';

function paint(): void {
  const ids = new Set($wishlistIds.get());
  const busy = new Set($wishlistBusy.get());
  document.querySelectorAll<HTMLButtonElement>('[data-wishlist]').forEach((b) => {
    const id = Number(b.dataset['wishlist']);
    b.setAttribute('aria-pressed', String(ids.has(id)));
    b.setAttribute('aria-busy', String(busy.has(id)));
  });
}

export function toggleHeart(button: HTMLElement): void {
  void toggleWishlist(Number(button.dataset['wishlist'])).then((inWishlist) => {
    // On the wishlist page a card whose heart was undone leaves the list.
    if (!inWishlist) button.closest('[data-wishlist-card]')?.remove();
  });
}

document.addEventListener('click', (event) => {
  const button = (event.target as Element | null)?.closest<HTMLButtonElement>('[data-wishlist]');
  if (!button) return;
  event.preventDefault();
  toggleHeart(button);
});
$wishlistIds.subscribe(paint);
$wishlistBusy.subscribe(paint);
