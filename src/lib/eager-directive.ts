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

const HELD = 'button:not([type=submit]),button[data-hold],a[data-hold]';
const TAPPED = 'shop:first-tap';

/**
 * Runs once the first contentful paint has been presented, or the page has loaded, whichever comes first
 * (a tab opened in the background paints nothing until shown). Asked for with the head, the islands'
 * code shared the phone's link with the stylesheet, fonts and first image and arrived no sooner after
 * the paint; and Lighthouse, which simulates every request that ends before the observed paint as
 * holding it back, put first paint and LCP 0.2–0.8 s later (docs/performance.md, "First taps").
 */
function afterFirstPaint(run: () => void): void {
  if (document.readyState === 'complete') return run();
  window.addEventListener('load', run, { once: true });
  try {
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      setTimeout(run, 0);
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    // No paint timing in this browser: the load event starts it.
  }
}

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

const eager: ClientDirective = (load, _options, island) => {
  const held: HTMLElement[] = [];
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    preloadShared();
    try {
      await (
        await load()
      )();
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
