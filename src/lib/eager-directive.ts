// `client:eager` (registered in astro.config.mjs): the first screen's islands (header, bottom navigation,
// buy box, modals, toasts, cart, checkout) load once the page has painted — at once if the shopper taps
// one of them before — and a tap made before their code has arrived is not lost (docs/decisions/014). Astro
// writes this file inline into every page that has such an island, ahead of the first one, so it answers
// from the first paint:
// - links, forms, popovers and dialogs underneath work on their own (the search form, the cart link, a
//   size's radio; the catalogue, menu and search panels' popovertarget buttons; the buyout and login
//   dialogs' command buttons: docs/decisions/021);
// - a tap on any other button, or on a link the island answers itself (`data-hold`), is held — the
//   browser neither follows it nor forgets it — and clicked again, in order, once the island has hydrated
//   («Добавить в корзину»).
// The taps are held by one listener on the document, set when this runs: Astro's island runtime, which
// calls the directive per island, is a file of its own (src/lib/http/shared-scripts.ts) and runs only
// after the document is parsed.
// Keep it small and dependency-free: it is part of every page's HTML.
import type { ClientDirective } from 'astro';
import { afterFirstPaint, firstScreenHydrated } from './first-paint.ts';

/** The platform answers a popover's or a dialog's button itself: never held. */
const HELD = 'button:not([type=submit]):not([popovertarget]):not([commandfor]),button[data-hold],a[data-hold]';
const TAPPED = 'shop:first-tap';

/** The taps held per island, in order; an island's entry goes once it has hydrated. */
const held = new Map<Element, HTMLElement[]>();
const hydrated = new WeakSet<Element>();
let tapped = false;

if (typeof document !== 'undefined')
  document.addEventListener(
    'click',
    (event) => {
      const target = event.target instanceof Element ? event.target.closest<HTMLElement>(HELD) : null;
      const island = target?.closest('astro-island[client="eager"]');
      if (!target || !island || hydrated.has(island)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      held.set(island, [...(held.get(island) ?? []), target]);
      // A tap before the page has loaded starts every first-screen island at once (the header's tap may
      // open a modal, which the modals' island shows).
      tapped = true;
      window.dispatchEvent(new Event(TAPPED));
    },
    true,
  );

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
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    preloadShared();
    try {
      const [hydrate] = await Promise.all([load(), restStyles()]);
      await hydrate();
    } finally {
      // Failed or not, the island's taps are no longer held: a page whose code did not come works as HTML.
      hydrated.add(island);
      if ([...document.querySelectorAll('astro-island[client="eager"]')].every((other) => hydrated.has(other))) firstScreenHydrated();
    }
    const taps = held.get(island) ?? [];
    held.delete(island);
    // React hydrates the part a replayed click lands on at once, before it handles the click.
    for (const target of taps) if (target.isConnected) target.click();
  };
  if (tapped) void start();
  else window.addEventListener(TAPPED, () => void start(), { once: true });
  afterFirstPaint(() => void start());
};

export default eager;
