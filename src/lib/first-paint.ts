// Browser code that waits for the page's first paint before it fetches anything of its own: the
// first-screen islands (eager-islands.client.ts) and the wishlist hearts; and for the first screen's islands
// before the web fonts. Part of the page script (page.client.ts), cached once for every page.

/**
 * Runs once the first contentful paint has been presented. Asked for with the head, the islands' code
 * shared the phone's link with the stylesheet, fonts and first image and arrived no sooner after the
 * paint; and Lighthouse, which simulates every request that ends before the observed paint as holding
 * it back, put first paint and LCP 0.2–0.8 s later (docs/performance.md, "First taps"). Not on the load
 * event either: on a busy phone the page can load before it paints, and the islands' work would then
 * hold the paint back. A tab opened in the background paints when shown; a browser without paint timing,
 * or a page that never paints, starts 3 s after load.
 *
 * Two signals, whichever comes first: the paint entry, and the frame after the document was parsed. On
 * the throttled phone the paint entry reached the page 300–550 ms after the paint itself, behind the
 * layout tasks that follow it, and the islands' code was asked for that much later (docs/performance.md,
 * "React again"). A frame's animation callback runs before that frame is painted; a message posted from
 * it arrives after: the first frame drawn once the document is parsed holds the first contentful paint.
 */
export function afterFirstPaint(run: () => void): void {
  const once = onlyOnce(run);
  const paints = typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('paint');
  const fallback = () => setTimeout(once, paints ? 3000 : 0);
  if (document.readyState === 'complete') fallback();
  else window.addEventListener('load', fallback, { once: true });
  const afterNextFrame = () =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = once;
      channel.port2.postMessage(null);
    });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', afterNextFrame, { once: true });
  else afterNextFrame();
  try {
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      setTimeout(once, 0);
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    // No paint timing in this browser: the load event starts it.
  }
}

/** `run` on the first of several signals, never again. */
function onlyOnce(run: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    run();
  };
}

const FIRST_SCREEN = 'shop:first-screen';
interface Marked {
  shopFirstScreen?: boolean;
}

/** Said by client:eager once every first-screen island of the page has hydrated. */
export function firstScreenHydrated(): void {
  if ((window as Marked).shopFirstScreen) return;
  (window as Marked).shopFirstScreen = true;
  window.dispatchEvent(new Event(FIRST_SCREEN));
}

/**
 * Runs once the first screen's islands have hydrated, or 3 s after the first paint. The web fonts wait for
 * it: asked for at the first paint, their 60 KB shared the phone's 1.6 Mbit/s with React's, and each face
 * that arrived laid the page out again on the main thread the islands were waiting for.
 */
export function afterFirstScreen(run: () => void): void {
  const once = onlyOnce(run);
  if ((window as Marked).shopFirstScreen) return once();
  window.addEventListener(FIRST_SCREEN, once, { once: true });
  afterFirstPaint(() => setTimeout(once, 3000));
}
