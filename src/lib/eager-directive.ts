// `client:eager` (registered in astro.config.mjs): the first screen's islands (header, bottom navigation,
// buy box, modals, toasts) start loading with the page instead of when the browser is idle, and a tap
// made before their code has arrived is not lost (docs/decisions/014). Astro writes this function inline
// into every page that has such an island, so it answers from the first paint:
// - links and forms underneath work on their own (the search form, the cart link, a size's radio);
// - a tap on a button, or on a link the island answers itself (`data-hold`: «Каталог», the account,
//   a guest's orders and wishlist), is held — the browser neither follows it nor forgets it — and
//   clicked again, in order, once React has taken the island over.
// Keep it small and dependency-free: it is part of every page's HTML.
import type { ClientDirective } from 'astro';

const HELD = 'button:not([type=submit]),button[data-hold],a[data-hold]';

const eager: ClientDirective = async (load, _options, island) => {
  const held: HTMLElement[] = [];
  const hold = (event: Event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>(HELD) : null;
    if (!target || !island.contains(target)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push(target);
  };
  island.addEventListener('click', hold, true);
  try {
    await (
      await load()
    )();
  } finally {
    island.removeEventListener('click', hold, true);
  }
  // React hydrates the part a replayed click lands on at once, before it handles the click.
  for (const target of held) if (target.isConnected) target.click();
};

export default eager;
