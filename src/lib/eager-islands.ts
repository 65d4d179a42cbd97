// What the inline `client:eager` directive (eager-directive.ts) and the page script's starter
// (eager-islands.client.ts) share through the window: the directive, written into every page, only holds
// the taps made early and queues the islands Astro's runtime hands it; the page script, cached once for
// every page, starts them. Dependency-free: the directive's copy of it is inline in every page.

/** The platform answers a popover's or a dialog's button itself: never held. */
export const HELD = 'button:not([type=submit]):not([popovertarget]):not([commandfor]),button[data-hold],a[data-hold]';
/** Fired on the window by the first held tap: every first-screen island starts at once. */
export const TAPPED = 'shop:first-tap';
/** Fired on the window when the directive has queued an island. */
export const QUEUED = 'shop:eager-island';

export interface EagerIsland {
  load: () => Promise<() => Promise<void> | void>;
  island: HTMLElement;
}

export interface EagerState {
  /** The taps held per island, in order; an island's entry goes once it has hydrated. */
  held: Map<Element, HTMLElement[]>;
  hydrated: WeakSet<Element>;
  tapped: boolean;
  /** Islands handed over by Astro's runtime that the page script has not taken yet. */
  queued: EagerIsland[];
}

/** The page's one state, made by whichever side runs first. */
export function eagerState(): EagerState {
  const scope = window as { shopEager?: EagerState };
  return (scope.shopEager ??= { held: new Map(), hydrated: new WeakSet(), tapped: false, queued: [] });
}
