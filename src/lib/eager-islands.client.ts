// Starts the islands the inline `client:eager` directive has queued (eager-directive.ts, eager-islands.ts):
// after the first paint, or at once when the shopper has tapped one of them; then replays the taps it held.
import { afterFirstPaint, firstScreenHydrated } from './first-paint.ts';
import { eagerState, QUEUED, TAPPED, type EagerIsland } from './eager-islands.ts';

/**
 * React's DOM renderer (through Astro's React client) and the frame's shared file evaluated one per task
 * before the islands' own entries. Imported by the first island all at once, they were evaluated in one task
 * of 25–100 ms on this host's unthrottled Chromium, four times that on Lighthouse's phone, all of it blocking
 * time (docs/performance.md "React paid back").
 */
async function evaluateShared(files: string[]): Promise<void> {
  try {
    for (const file of [/^\/_astro\/client\./, /^\/_astro\/frame\./].map((name) => files.find((f) => name.test(f)))) {
      if (!file) continue;
      await import(/* @vite-ignore */ file);
      await new Promise((next) => setTimeout(next));
    }
  } catch {
    // The islands' own imports meet the same failure and leave their HTML as it is.
  }
}

/**
 * The first screen's files, asked for together once the page has painted: the shared files, the frame's
 * islands' entries and Astro's React renderer (`<html data-island-modules>`, the build's list:
 * src/lib/first-screen.ts), and the entries of the page's own eager islands (a product page's buy box). Left
 * to the imports, they came one import level, one round trip, after another. Asked for from the head at the
 * paint entry instead, they moved Lighthouse's FCP and LCP on a product page (0.95 → 1.16 s, 1.14 → 1.40 s:
 * docs/performance.md "React paid back"). Then the shared ones evaluated (evaluateShared), unless a tap is
 * already held. Once per page.
 */
let firstScreen: Promise<void> | undefined;
function firstScreenReady(): Promise<void> {
  firstScreen ??= largestImagePainted().then(() => {
    const listed = (document.documentElement.dataset['islandModules'] ?? '').split(' ').filter(Boolean);
    const files = new Set(listed);
    for (const island of document.querySelectorAll('astro-island[client="eager"]'))
      for (const name of ['component-url', 'renderer-url']) files.add(island.getAttribute(name) ?? '');
    for (const href of files) {
      if (!href) continue;
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
    // A held tap waits for its island: then one task that evaluates everything answers sooner than three
    // queued behind whatever the busy phone is doing.
    return eagerState().tapped ? Promise.resolve() : evaluateShared(listed);
  });
  return firstScreen;
}

/**
 * Once the first screen's largest image (the one the page asks for first, `fetchpriority="high"`: a product's
 * photo, the first cards, the home page's banner) has painted, or a tap is held, or 1.5 s have passed. Asked
 * for before that paint, the islands' 60 KB of script shared the phone's link with the photo, and Lighthouse,
 * which counts every request made before the largest paint as holding it back, put a product page's LCP at
 * 1.22 s instead of 1.08 s in three runs of five (docs/performance.md "React paid back", fourth session).
 */
function largestImagePainted(): Promise<void> {
  const image = document.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
  if (!image || eagerState().tapped) return Promise.resolve();
  return new Promise((done) => {
    const painted = () => requestAnimationFrame(() => setTimeout(done));
    if (image.complete) painted();
    else {
      image.addEventListener('load', painted, { once: true });
      image.addEventListener('error', painted, { once: true });
    }
    window.addEventListener(TAPPED, () => done(), { once: true });
    setTimeout(done, 1500);
  });
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

/** Loads and hydrates one island, then clicks again the taps held for it. */
async function start({ load, island }: EagerIsland): Promise<void> {
  const state = eagerState();
  try {
    const [hydrate] = await Promise.all([firstScreenReady().then(load), restStyles()]);
    await hydrate();
  } finally {
    // Failed or not, the island's taps are no longer held: a page whose code did not come works as HTML.
    state.hydrated.add(island);
    if ([...document.querySelectorAll('astro-island[client="eager"]')].every((other) => state.hydrated.has(other))) firstScreenHydrated();
  }
  const taps = state.held.get(island) ?? [];
  state.held.delete(island);
  // React hydrates the part a replayed click lands on at once, before it handles the click.
  for (const target of taps) if (target.isConnected) target.click();
}

/**
 * Starts the islands queued so far and those the directive queues later (Astro's runtime may run before or
 * after this), once the page has painted or a tap was held, whichever comes first. Each island leaves the
 * queue when taken, so none starts twice.
 */
export function bootEagerIslands(): void {
  const state = eagerState();
  let going = false;
  const take = () => {
    if (going) for (const island of state.queued.splice(0)) void start(island);
  };
  const go = () => {
    going = true;
    take();
  };
  window.addEventListener(QUEUED, take);
  if (state.tapped) go();
  else window.addEventListener(TAPPED, go, { once: true });
  afterFirstPaint(go);
}
