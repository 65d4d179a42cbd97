// One listener for every server-rendered wishlist heart ([data-wishlist="<product id>"]): cards are
// static HTML, so they need no island of their own.
import { $wishlistIds, toggleWishlist } from './wishlist.store.ts';

function paint(): void {
  const ids = new Set($wishlistIds.get());
  document
    .querySelectorAll<HTMLButtonElement>('[data-wishlist]')
    .forEach((b) => b.setAttribute('aria-pressed', String(ids.has(Number(b.dataset['wishlist'])))));
}

document.addEventListener('click', (event) => {
  const button = (event.target as Element | null)?.closest<HTMLButtonElement>('[data-wishlist]');
  if (!button) return;
  event.preventDefault();
  void toggleWishlist(Number(button.dataset['wishlist']));
});
$wishlistIds.subscribe(paint);
