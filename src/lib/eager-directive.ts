// `client:eager` (registered in astro.config.mjs): the first screen's islands (header, bottom navigation,
// buy box, modals, toasts, cart, checkout) load once the page has painted — at once if the shopper taps
// one of them before — and a tap made before their code has arrived is not lost (docs/decisions/014). Astro
// writes this function inline into every page that has such an island, so it answers from the first paint:
// - links and forms underneath work on their own (the search form, the cart link, a size's radio);
// - a tap on a button, or on a link the island answers itself (`data-hold`: «Каталог», the account,
//   a guest's orders and wishlist), is held — the browser neither follows it nor forgets it — and
//   clicked again, in order, once the island has hydrated.
// Keep it small and dependency-free: it is part of every page's HTML.
import type { ClientDirective } from 'astro';
import { afterFirstPaint } from './first-paint.ts';

const HELD = 'button:not([type=submit]),button[data-hold],a[data-hold]';
const TAPPED = 'shop:first-tap';

/**
 * The shared files every first-screen island imports (`<html data-island-modules>`, from the build's
 * list: src/lib/first-screen.ts), asked for beside the islands' own entries instead of one import
 * level (a round trip) later.
 */
function preloadShared(): void {
  const root = document.documentElement;
  const files = root.dataset['islandModules'];
  if (!files) return;
  delete root.dataset['islandModules'];
  for (const href of files.split(' ')) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
}

/**
 * The page's whole stylesheets, deferred behind the first paint's inline rules (src/lib/http/first-paint-css.ts),
 * once they apply: an island drawing a state the server did not (the cart's empty state, say) uses
 * classes only they hold, and drawn before them it would jump when they arrive. The head's boot line
 * takes `data-rest` off a sheet that has loaded or failed. A sheet stalled on the network holds no island
 * past 3 s.
 */
function restStyles(): Promise<unknown> {
  const pending = [...document.querySelectorAll<HTMLLinkElement>('link[data-rest]')];
  if (!pending.length) return Promise.resolve();
  return Promise.race([
    Promise.all(
      pending.map(
        (link) =>
          new Promise((done) => {
            link.addEventListener('load', done, { once: true });
            link.addEventListener('error', done, { once: true });
          }),
      ),
    ),
    new Promise((done) => setTimeout(done, 3000)),
  ]);
}

const eager: ClientDirective = (load, _options, island) => {
  const held: HTMLElement[] = [];
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    preloadShared();
    try {
      const [hydrate] = await Promise.all([load(), restStyles()]);
      await hydrate();
    } finally {
      island.removeEventListener('click', hold, true);
    }
    // Hydration is synchronous: the island's handlers answer the replayed clicks.
    for (const target of held) if (target.isConnected) target.click();
  };
  const hold = (event: Event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>(HELD) : null;
    if (!target || !island.contains(target)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push(target);
    // A tap before the page has loaded starts every first-screen island at once (the header's tap may
    // open a modal, which the modals' island shows).
    window.dispatchEvent(new Event(TAPPED));
  };
  island.addEventListener('click', hold, true);
  window.addEventListener(TAPPED, () => void start(), { once: true });
  afterFirstPaint(() => void start());
};

export default eager;
