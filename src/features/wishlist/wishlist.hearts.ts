// The hearts the server drew on product cards and the product page (WishlistButton.astro). Their code and
// the wishlist store it brings (a chain of four module requests) load after the page's first paint, not
// ahead of it (docs/performance.md, "First paint"), nor on the load event, which on a busy phone can come
// first. A heart pressed before then loads them at once and is toggled when they arrive. Started by the
// layout's page script (src/features/layout/page.client.ts) on pages that have hearts.
import { afterFirstPaint } from '~/lib/first-paint.ts';

export function bootHearts(): void {
  if (!document.querySelector('[data-wishlist]')) return;
  let ready = false;
  let hearts: Promise<typeof import('~/features/wishlist/wishlist-buttons.ts')> | undefined;
  const load = () =>
    (hearts ??= import('~/features/wishlist/wishlist-buttons.ts').then(
      (module) => ((ready = true), module),
      (error: unknown) => {
        hearts = undefined; // the next press tries again
        throw error;
      },
    ));
  const quietly = () => load().catch(() => undefined);
  afterFirstPaint(() => void quietly());
  document.addEventListener('click', (event) => {
    const button = ready ? null : (event.target as Element | null)?.closest<HTMLElement>('[data-wishlist]');
    if (!button) return;
    event.preventDefault();
    load().then(
      ({ toggleHeart }) => toggleHeart(button),
      () => undefined,
    );
  });
}
