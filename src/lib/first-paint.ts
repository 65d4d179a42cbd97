// Browser code that waits for the page's first paint before it fetches anything of its own: the
// first-screen islands (eager-directive.ts) and the wishlist hearts. Kept dependency-free: it is
// written inline into every page.

/**
 * Runs once the first contentful paint has been presented. Asked for with the head, the islands' code
 * shared the phone's link with the stylesheet, fonts and first image and arrived no sooner after the
 * paint; and Lighthouse, which simulates every request that ends before the observed paint as holding
 * it back, put first paint and LCP 0.2–0.8 s later (docs/performance.md, "First taps"). Not on the load
 * event either: on a busy phone the page can load before it paints, and the islands' work would then
 * hold the paint back. A tab opened in the background paints when shown; a browser without paint timing,
 * or a page that never paints, starts 3 s after load.
 */
export function afterFirstPaint(run: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  const paints = typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('paint');
  const fallback = () => setTimeout(once, paints ? 3000 : 0);
  if (document.readyState === 'complete') fallback();
  else window.addEventListener('load', fallback, { once: true });
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
