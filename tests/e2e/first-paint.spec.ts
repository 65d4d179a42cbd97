// The first paint needs no stylesheet request (issue 27, docs/decisions/016): each page carries inline the
// rules its HTML uses, and the whole stylesheet follows without blocking. Held back for good, the first
// screen still looks exactly as with it; when it arrives nothing moves; an island drawing what the server
// did not waits for it; with JavaScript off the page links it as before. Astro's island runtime comes as
// a cached file, and the web fonts after the first paint.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * Every element of the first screen: its box (as far as the screen shows it), colours and type. Each box is
 * read once: an element of a part laid out only near the screen (content-visibility) may report an empty box
 * first and its real one once a read has laid it out — a footer list read as at 0 and then at 4064 px.
 */
function firstScreen(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.top < innerHeight)
      .map(({ e, r }) => {
        const s = getComputedStyle(e);
        // Below the screen, parts of the page are laid out when they come near it (content-visibility).
        const height = Math.min(r.bottom, innerHeight) - r.top;
        return `${e.tagName} ${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(height)} ${s.color} ${s.backgroundColor} ${s.fontFamily} ${s.fontSize} ${s.display}`;
      }),
  );
}

/**
 * The first screen once its layout has settled (issue 54): read after two frames, again and again, until two
 * reads agree. On a slow machine the page's lower parts are still being laid out when the footer is parsed,
 * and a comparison made then compared a page in the middle of it.
 */
async function settledFirstScreen(page: Page): Promise<string[]> {
  const frames = () => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await frames();
  let last = await firstScreen(page);
  for (let read = 0; read < 30; read++) {
    await frames();
    const next = await firstScreen(page);
    if (next.join('\n') === last.join('\n')) return next;
    last = next;
  }
  throw new Error(`the first screen did not settle: ${last.slice(0, 5).join(' | ')}…`);
}

/** The families of the faces the page has loaded (a face added by script reports its family quoted). */
function loadedFaces(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replaceAll('"', '')));
}

/** The islands' code, answered never: the pages compared are the server's HTML, styled. */
async function holdScripts(page: Page): Promise<void> {
  await page.route(/\/_astro\/.*\.js$/, () => undefined);
}

/** The deferred sheets, answered never. */
async function holdStylesheets(page: Page): Promise<string[]> {
  const asked: string[] = [];
  await page.route(/\/_astro\/.*\.css$/, (route) => void asked.push(route.request().url()));
  return asked;
}

test.describe('the first paint', () => {
  for (const [name, path] of [
    ['home', '/'],
    ['catalogue', '/catalog'],
    ['brands', '/brands'],
    ['info page', '/i/12/razmery'],
  ] as const) {
    test(`${name}: the first screen is the same without the stylesheet files as with them`, async ({ page, browser }) => {
      await holdScripts(page);
      // Neither load nor DOMContentLoaded comes while module scripts are held: parsed to the footer is enough.
      await page.goto(path, { waitUntil: 'commit' });
      await expect(page.locator('footer')).toBeAttached();
      await page.evaluate(() => document.fonts.ready);
      const whole = await settledFirstScreen(page);

      // The same device, in a context of its own: nothing cached from the first visit.
      const { isMobile = false, hasTouch = false } = test.info().project.use;
      const other = await browser.newContext({ viewport: page.viewportSize(), isMobile, hasTouch, locale: 'ru-RU', baseURL: new URL(page.url()).origin });
      const held = await other.newPage();
      await holdScripts(held);
      const asked = await holdStylesheets(held);
      await held.goto(path, { waitUntil: 'commit' });
      await expect(held.locator('footer')).toBeAttached();
      await held.evaluate(() => document.fonts.ready);
      // The page asked for its stylesheets (deferred), and painted without them.
      expect(asked.length).toBeGreaterThan(0);
      expect(await held.locator('link[data-rest]').count()).toBe(asked.length);
      expect(await settledFirstScreen(held)).toEqual(whole);
      await other.close();
    });
  }

  test('the product page carries its rules inline and lets the policy allow exactly them', async ({ page, request }) => {
    const product = ((await (await request.get('/api/v1/ecommerce-core/products?per_page=1')).json()) as { data: { products: { url: string }[] } }).data
      .products[0];
    const answer = await request.get(product?.url ?? '/');
    const html = await answer.text();
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
    expect(styles.length).toBeGreaterThan(0);
    // No stylesheet the first paint waits for: every link to one is deferred, or absent.
    expect(html).not.toMatch(/<link rel="stylesheet" href="[^"]+">(?!<\/noscript>)/);
    const policy = answer.headers()['content-security-policy'] ?? '';
    const { createHash } = await import('node:crypto');
    for (const [, css] of styles)
      expect(policy).toContain(
        `'sha256-${createHash('sha256')
          .update(css ?? '')
          .digest('base64')}'`,
      );
    await page.goto(product?.url ?? '/');
    await expect(page.locator('h1')).toBeVisible();
  });

  test("the home slides' pictures: shown and fetched from tablets up; a phone, which hides them, never asks for them", async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (r) => void asked.push(new URL(r.url()).pathname));
    await page.goto('/');
    await page.waitForLoadState('load');
    const slides = page.locator('[data-carousel] picture img');
    const first = new URL((await slides.first().getAttribute('src')) ?? '', page.url()).pathname;
    if ((page.viewportSize()?.width ?? 0) >= 768) {
      await expect(slides.first()).toBeVisible();
      expect(await slides.first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(720);
      expect(asked).toContain(first);
      // Beside the slide's text, not under it.
      const [picture, heading] = await Promise.all([slides.first().boundingBox(), page.locator('[data-carousel] h1').boundingBox()]);
      expect(picture?.x ?? 0).toBeGreaterThan((heading?.x ?? 0) + (heading?.width ?? 0));
      expect(picture?.y ?? 0).toBeLessThan((heading?.y ?? 0) + (heading?.height ?? 0));
    } else {
      await expect(slides.first()).toBeHidden();
      const pictures = await slides.evaluateAll((imgs) => imgs.map((img) => new URL(img.getAttribute('src') ?? '', location.href).pathname));
      expect(pictures.length).toBeGreaterThan(0);
      expect(asked.filter((path) => pictures.includes(path))).toEqual([]);
    }
  });

  test('the deferred sheets declare no font face again: their arrival lays no line of text out anew', async ({ page, request }) => {
    const html = await (await request.get('/')).text();
    const deferred = [...html.matchAll(/<link rel="preload" as="style"[^>]* href="([^"]+)" data-rest>/g)].map(([, href]) => href ?? '');
    const whole = [...html.matchAll(/<noscript><link rel="stylesheet" href="(\/_astro\/[^"]+)"><\/noscript>/g)].map(([, href]) => href ?? '');
    expect(deferred).toHaveLength(whole.length);
    const texts = await Promise.all([...deferred, ...whole].map(async (href) => (await request.get(href)).text()));
    // The faces are in the page's inline rules and in the whole sheet JavaScript-off browsing links, not in what is deferred.
    expect(texts.slice(0, deferred.length).join('')).not.toMatch(/@font-face|@keyframes/);
    expect(texts.slice(deferred.length).join('')).toContain('@font-face');
    expect(html.slice(0, html.indexOf('</head>'))).toMatch(/<style>[^<]*@font-face/);

    // In the browser, each deferred copy becomes one of the page's stylesheets.
    await page.goto('/');
    await expect(page.locator('link[data-rest]')).toHaveCount(0);
    const applied = await page.evaluate(() => [...document.styleSheets].flatMap((s) => (s.href ? [new URL(s.href).pathname] : [])));
    expect(applied).toEqual(expect.arrayContaining(deferred));
  });

  test('an island drawing what the server did not waits for the whole stylesheet', async ({ page }) => {
    let release = () => undefined as void;
    const arrived = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/_astro\/.*\.css$/, async (route) => {
      await arrived;
      await route.fallback();
    });
    const code = page.waitForResponse(/\/_astro\/CartPage[^/]*\.js$/);
    await page.goto('/cart', { waitUntil: 'domcontentloaded' });
    // The cart's island has its code but not the rules of its empty state: it has not drawn it.
    await code;
    await page.waitForTimeout(800);
    await expect(page.getByText('В корзине пока пусто')).toHaveCount(0);
    expect(await page.locator('astro-island[ssr]').count()).toBeGreaterThan(0);
    release();
    const empty = page.getByText('В корзине пока пусто');
    await expect(empty).toBeVisible();
    // Drawn with the rules it needs: centred, as designed.
    expect(await empty.evaluate((e) => getComputedStyle(e.parentElement as Element).textAlign)).toBe('center');
  });

  test("Astro's island runtime is one cached file, not inline in the page, and the islands still hydrate", async ({ page, request }) => {
    const html = await (await request.get('/')).text();
    expect(html).not.toContain('customElements.define("astro-island"');
    const src = html.match(/<script type="module" fetchpriority="low" src="(\/_astro\/shared-[0-9a-f]{10}\.js)">/)?.[1];
    expect(src).toBeTruthy();
    const file = await request.get(src ?? '');
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toContain('javascript');
    expect(file.headers()['cache-control']).toContain('immutable');
    expect(await file.text()).toContain('astro-island');
    await page.goto('/');
    await expect(page.locator('astro-island[client="eager"]:not([ssr])').first()).toBeAttached();
  });

  test('a first visit paints in the fallback faces and fetches the web fonts only after the first paint; the next page has them at once', async ({ page }) => {
    const fonts: { url: string; at: number }[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/fonts/')) fonts.push({ url: r.url(), at: Date.now() });
    });
    await page.goto('/brands');
    await expect.poll(() => loadedFaces(page)).toContain('Manrope Variable');
    // All five faces come in one go, one new layout of the page: none is added still loading.
    expect(await page.evaluate(() => [...document.fonts].filter((f) => /Manrope Variable|Cormorant Garamond/.test(f.family)).map((f) => f.status))).toEqual([
      'loaded',
      'loaded',
      'loaded',
      'loaded',
      'loaded',
    ]);
    expect(await page.locator('link[rel=preload][as=font]').count()).toBe(0);
    const { paint, origin } = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      origin: performance.timeOrigin,
    }));
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) expect(font.at - origin).toBeGreaterThan(paint);
    // The heading's face becomes the web font, no longer its stand-in (once the fetched face is decoded:
    // checked at once it failed one CI run in many).
    await expect
      .poll(() => page.locator('h1').evaluate((e) => document.fonts.check(`500 16px ${getComputedStyle(e).fontFamily}`, e.textContent ?? '')))
      .toBe(true);
    // A shopper whose browser has the fonts gets them added at once on the next page, not after its paint.
    expect(await page.evaluate(() => localStorage.getItem('fonts-seen'))).toBe('1');
    await page.goto('/i/12/razmery');
    expect(await page.evaluate(() => [...document.fonts].some((f) => f.family.replaceAll('"', '') === 'Manrope Variable'))).toBe(true);
  });

  test("the first screen's island files are asked for together once the page has painted, not before and not each after the other", async ({
    page,
    request,
  }) => {
    const html = await (await request.get('/')).text();
    const listed = (html.match(/data-island-modules="([^"]*)"/)?.[1] ?? '').split(' ');
    // React, the frame's shared file, the frame's islands (header, bottom navigation, modals, toasts) and Astro's React renderer.
    expect(listed.filter((href) => /\/_astro\/(runtime|frame|Header|BottomNav|Modals|Toaster|client)\./.test(href))).toHaveLength(7);
    await page.goto('/');
    await expect(page.locator('astro-island[client="eager"]:not([ssr])').first()).toBeAttached();
    const { paint, asked, preloaded } = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      asked: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({ path: new URL(e.name).pathname, at: e.startTime })),
      preloaded: [...document.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')].map((l) => new URL(l.href).pathname),
    }));
    for (const href of listed) {
      // Preloaded by the head's script, all at once, not found by an import one level down after another.
      expect(preloaded, href).toContain(href);
      const entry = asked.find((e) => e.path === href);
      expect(entry, href).toBeDefined();
      // Vite's lazy-import helper is the page script's own import, asked for with the head at low priority.
      // Not before the first paint's frame: the paint entry's time is when that frame was presented, which can
      // follow by some milliseconds the moment the main thread was done drawing it (the page script's signal).
      if (!href.startsWith('/_astro/lazy.')) expect(entry?.at, href).toBeGreaterThanOrEqual(paint - 100);
    }
  });

  test.describe('with JavaScript off', () => {
    test.use({ javaScriptEnabled: false });
    test('the whole stylesheet is linked as before, and the web fonts are declared by their own sheet', async ({ page }) => {
      await page.goto('/');
      const media = await page.evaluate(() => [...document.styleSheets].filter((s) => s.href?.includes('/_astro/')).map((s) => s.media.mediaText || 'all'));
      expect(media).toContain('all');
      await expect.poll(() => loadedFaces(page)).toContain('Manrope Variable');
    });
  });
});
