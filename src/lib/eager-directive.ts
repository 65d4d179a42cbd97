// `client:eager` (registered in astro.config.mjs): the first screen's islands (header, bottom navigation,
// buy box, modals, toasts, cart, checkout) load once the page has painted — at once if the shopper taps
// one of them before — and a tap made before their code has arrived is not lost (docs/decisions/014). Astro
// writes this file inline into every page that has such an island, ahead of the first one, so it answers
// from the first paint:
// - links, forms, popovers and dialogs underneath work on their own (the search form, the cart link, a
//   size's radio; the catalogue, menu and search panels' popovertarget buttons; the buyout and login
//   dialogs' command buttons: docs/decisions/021);
// - such a button tapped before the parser has reached the dialog or panel it names is clicked again once
//   the document is parsed;
// - a tap on any other button, or on a link the island answers itself (`data-hold`), is held — the
//   browser neither follows it nor forgets it — and clicked again, in order, once the island has hydrated
//   («Добавить в корзину»).
// The taps are held by one listener on the document, set when this runs. The rest — when to start, the
// shared files, waiting for the deferred sheets, replaying the taps — is the page script's
// (eager-islands.client.ts): Astro's island runtime, which calls the directive per island, is a file of its
// own (src/lib/http/shared-scripts.ts) that runs only after the document is parsed, like the page script,
// so nothing is lost by it not being inline, and every page's HTML is 0.6 KB of brotli lighter (what
// decides whether it comes in a phone's first round trip: docs/performance.md).
import type { ClientDirective } from 'astro';
import { eagerState, HELD, QUEUED, TAPPED } from './eager-islands.ts';

if (typeof document !== 'undefined') {
  const state = eagerState();
  document.addEventListener(
    'click',
    (event) => {
      // A dialog's or a popover's button answers itself, but only once the parser has reached what it names
      // (the dialogs stand at the page's end): tapped sooner, the platform does nothing. Held until the
      // document is parsed, then clicked again.
      const opener = event.target instanceof Element ? event.target.closest<HTMLElement>('button[commandfor],button[popovertarget]') : null;
      const named = opener?.getAttribute('commandfor') ?? opener?.getAttribute('popovertarget');
      if (opener && named && document.readyState === 'loading' && !document.getElementById(named)) {
        event.preventDefault();
        event.stopImmediatePropagation();
        document.addEventListener('DOMContentLoaded', () => opener.click(), { once: true });
        return;
      }
      const target = event.target instanceof Element ? event.target.closest<HTMLElement>(HELD) : null;
      const island = target?.closest('astro-island[client="eager"]');
      if (!target || !island || state.hydrated.has(island)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      state.held.set(island, [...(state.held.get(island) ?? []), target]);
      // A tap before the page has loaded starts every first-screen island at once (the header's tap may
      // open a modal, which the modals' island shows).
      state.tapped = true;
      window.dispatchEvent(new Event(TAPPED));
    },
    true,
  );
}

const eager: ClientDirective = (load, _options, island) => {
  eagerState().queued.push({ load, island });
  window.dispatchEvent(new Event(QUEUED));
};

export default eager;
