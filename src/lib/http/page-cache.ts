// A short-lived cache of rendered public pages in each process (docs/decisions/007). Catalogue and
// product pages are the same for every visitor (their cache-control says `public`), yet rendering one
// costs milliseconds of CPU; keeping the HTML for a few seconds lets a popular page be served at close
// to static speed while staying as fresh as the CDN policy already allows. Personalised answers
// (anything not `public`, any page in another language) are never stored.
//
// This module is the one place that decides what may be cached and under which key. Both the
// middleware (which fills the cache) and scripts/server.mjs (which answers hits before Astro runs)
// import it, so it keeps to relative imports that Node's type stripping can load.
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { Cache } from '../cache.ts';
import { compressAsync, isCompressible, preferredEncoding, type Encoding } from './compression.ts';
import { env } from '../env.ts';

export interface CachedPage {
  at: number;
  status: number;
  /** The headers every form shares (content-type, cache-control, the page's CSP, vary). */
  headers: Record<string, string>;
  /**
   * Text pages are kept only compressed, brotli and gzip, compressed once when stored: a third of the
   * memory of keeping the plain body too. A client that takes neither (rare: scripts, old bots) gets the
   * gzip form unpacked. Anything else is kept as it is, under identity.
   */
  forms: Partial<Record<Encoding | 'identity', Uint8Array>>;
  /** The plain body's SHA-256: a render that changed nothing keeps the forms already made. */
  digest: string;
  /** The pattern of the route that rendered it ('/product/[slug]'): hits are counted under it. */
  route?: string;
}

/**
 * A rendered page as it is stored. `previous`: the copy it replaces. A page renders to the same bytes until
 * its data changes (Astro's island ids are hashes of their props), so a re-render that changed nothing
 * keeps the previous copy's compressed forms, already refined, instead of compressing again.
 */
export async function cachedPage(
  status: number,
  headers: Headers,
  body: Uint8Array,
  { now = Date.now(), previous, route }: { now?: number; previous?: CachedPage | undefined; route?: string } = {},
): Promise<CachedPage> {
  const shared: Record<string, string> = {};
  for (const [name, value] of headers) if (name !== 'content-length' && name !== 'content-encoding') shared[name] = value;
  const digest = createHash('sha256').update(body).digest('base64');
  const named = route ? { route } : {};
  if (!isCompressible(headers.get('content-type'), body.byteLength))
    return { at: now, status, headers: shared, forms: { identity: exact(body) }, digest, ...named };
  shared['vary'] = shared['vary'] ? `${shared['vary']}, accept-encoding` : 'accept-encoding';
  if (previous?.digest === digest && previous.status === status && JSON.stringify(previous.headers) === JSON.stringify(shared))
    return { at: now, status, headers: previous.headers, forms: previous.forms, digest, ...named };
  const [br, gzip] = await Promise.all([compressAsync(body, 'br', 'best'), compressAsync(body, 'gzip', 'best')]);
  const page: CachedPage = { at: now, status, headers: shared, forms: { br: exact(br), gzip: exact(gzip) }, digest, ...named };
  refineLater(page, body);
  return page;
}

// A stored page's brotli form is made at quality 6 (2 ms) so the visitor who caused the render is not kept
// waiting; quality 11 (compression.ts) makes a category page 14.2 KB instead of 15.8 — with its headers
// inside the ~14.6 KB a phone's first round trip carries, one round trip (150 ms on Lighthouse's mobile
// network) less for every later visitor (docs/performance.md, "First paint"). So stored pages are
// compressed once more afterwards: one at a time on libuv's thread pool, and only once no page has been
// stored for QUIET_MS, so a burst of renders postpones the work instead of competing with it; past
// REFINE_WAITING pages waiting, new ones stay at 6. The cache's byte count keeps the larger size. A page
// re-rendered unchanged keeps its refined form (cachedPage's `previous`), so the work is once per change.
const QUIET_MS = 100;
const REFINE_WAITING = 32;
const refining = { queue: [] as { page: CachedPage; body: Uint8Array }[], lastStored: 0, running: undefined as Promise<void> | undefined };

function refineLater(page: CachedPage, body: Uint8Array): void {
  refining.lastStored = Date.now();
  if (refining.queue.length >= REFINE_WAITING) return;
  refining.queue.push({ page, body });
  // Never a rejection nobody awaits (that would end the process): a page that could not be refined
  // simply stays at 6.
  refining.running ??= refine()
    .catch(() => undefined)
    .finally(() => (refining.running = undefined));
}

async function refine(): Promise<void> {
  for (let job = refining.queue[0]; job; job = refining.queue[0]) {
    const wait = refining.lastStored + QUIET_MS - Date.now();
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait).unref());
      continue;
    }
    refining.queue.shift();
    const br = await compressAsync(job.body, 'br', 'refine').catch(() => undefined);
    if (!br) continue;
    if (br.byteLength < (job.page.forms.br?.byteLength ?? Infinity)) job.page.forms.br = exact(br);
  }
}

/** Resolves once every stored page waiting to be compressed again has been (for tests and benchmarks). */
export async function pagesRefined(): Promise<void> {
  while (refining.running) await refining.running;
}

/**
 * The bytes alone, in a memory of their own. zlib answers with a view into its 64 KB output chunk: kept
 * as it is, a 17 KB page held 64 KB, and 330 cached pages 42 MB instead of 11 (docs/performance.md,
 * "Memory").
 */
function exact(bytes: Uint8Array): Uint8Array {
  return bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/** The memory a stored page holds (what the cache's byte bound counts). */
export function cachedPageBytes(page: CachedPage): number {
  const held = (bytes: Uint8Array | undefined) => bytes?.buffer.byteLength ?? 0;
  return held(page.forms.br) + held(page.forms.gzip) + held(page.forms.identity);
}

/**
 * The stored page for one request: the form its accept-encoding prefers, with its age. Plain objects,
 * not Headers: this runs for every cache hit, and the front writes it with one writeHead.
 */
export function pageAnswer(
  page: CachedPage,
  acceptEncoding: string | null | undefined,
  now = Date.now(),
): { status: number; headers: Record<string, string>; body: Uint8Array } {
  const encoding = preferredEncoding(acceptEncoding);
  const packed = encoding ? page.forms[encoding] : undefined;
  const body = packed ?? page.forms.identity ?? new Uint8Array(gunzipSync(page.forms.gzip ?? new Uint8Array()));
  const headers: Record<string, string> = { ...page.headers, age: String(Math.floor((now - page.at) / 1000)), 'content-length': String(body.byteLength) };
  if (packed && encoding) headers['content-encoding'] = encoding;
  return { status: page.status, headers, body };
}

const MAX_BYTES = 64 * 1024 * 1024;
// The middleware's copy of this module is bundled into dist/, the front server's is loaded from src/:
// the cache itself hangs off a global so both see one.
const GLOBAL = Symbol.for('brandshop.pageCache');

/** This process's page cache, or undefined when PAGE_CACHE_SECONDS is 0. */
export function pageCache(): Cache<string, CachedPage> | undefined {
  const holder = globalThis as { [GLOBAL]?: Cache<string, CachedPage> | null };
  if (holder[GLOBAL] === undefined) {
    const seconds = env().PAGE_CACHE_SECONDS;
    holder[GLOBAL] =
      seconds > 0
        ? new Cache<string, CachedPage>({
            name: 'page',
            ttlMs: seconds * 1000,
            maxBytes: MAX_BYTES,
            // The front answers a page being re-rendered from its previous copy, up to 30 s past its time.
            graceMs: 30_000,
            sizeOf: cachedPageBytes,
          })
        : null;
  }
  return holder[GLOBAL] ?? undefined;
}

/**
 * Drops every stored page: the catalogue they show has changed (read-model.server.ts calls this when its
 * index moves to a new catalogue version). A page whose render began before the drop is not stored after
 * it (`pageGeneration`): it may have read the old catalogue.
 */
export function dropPages(): void {
  const holder = globalThis as { [GENERATION]?: number };
  holder[GENERATION] = (holder[GENERATION] ?? 0) + 1;
  pageCache()?.clear();
}

/** How many times the stored pages were dropped: a render compares it before and after. */
export function pageGeneration(): number {
  return (globalThis as { [GENERATION]?: number })[GENERATION] ?? 0;
}
const GENERATION = Symbol.for('brandshop.pageGeneration');

/** The listing's query parameters (listingQuerySchema in features/catalog/listing.ts; a test keeps them equal). */
export const LISTING_PARAMS = [
  'sort',
  'page',
  'per_page',
  'brands',
  'categories',
  'color',
  'attr',
  'free_delivery',
  'with_discount',
  'top_rating',
  'price_min',
  'price_max',
];

/**
 * Pages made for one visitor (DESIGN §4): the account area, cart, checkout, order results, the test
 * provider's payment page, the reset and sign-in pages, a mail's unsubscribe page, a gift certificate's purchase, an
 * order's review page. Never kept, never coalesced with another visitor's render, always `private, no-store`.
 */
const PRIVATE_PAGES =
  /^\/(?:dashboard|ops|checkout|cart|password|auth-redirect|order-success|order-failed|test-payment|exchange|unsubscribe|gift-certificate|review)(?:[/?]|$)/;

export function isPrivatePage(url: string): boolean {
  return PRIVATE_PAGES.test(url);
}

/** The query parameters each page reads; any other (utm_*, ref, a cache-buster) cannot change the page. */
const PAGE_PARAMS: [RegExp, readonly string[]][] = [
  [/^\/(?:c|m|product\/search)\//, LISTING_PARAMS],
  // A product's reviews page (issue 57, features/reviews/reviews.ts REVIEW_LIST_PARAMS; a test keeps them equal).
  [/^\/p\/\d+\/reviews(?:[/?]|$)/, ['sort', 'rating', 'photos', 'page']],
];

/**
 * The key a request's page is kept under, or undefined when the request may not be answered from the
 * cache: only GET of pages (not the API or assets), and not in English (docs/decisions/006: those pages
 * are personal). The key holds only the parameters the page reads, in one order, so a flood of
 * made-up query strings finds the one cached page instead of rendering and storing a page each.
 */
export function pageCacheKey(method: string, url: string, cookie: string | null | undefined): string | undefined {
  if (method !== 'GET' || url.startsWith('/api/') || url.startsWith('/_astro/') || isPrivatePage(url)) return undefined;
  if (/(?:^|;\s*)lang=en(?:;|$)/.test(cookie ?? '')) return undefined;
  // Split by hand, not with new URL(): this runs for every request the front sees. A path that URL
  // parsing would normalise (dot segments) simply misses here and is answered by Astro.
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  if (mark === -1 || mark === url.length - 1) return path;
  const reads = PAGE_PARAMS.find(([pattern]) => pattern.test(path))?.[1];
  if (!reads) return path;
  const kept = [...new URLSearchParams(url.slice(mark + 1))].filter(([name]) => reads.includes(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return kept.length === 0 ? path : `${path}?${new URLSearchParams(kept).toString()}`;
}

/** Whether a rendered response may be shared with every visitor. */
export function isShareable(response: Response): boolean {
  const cc = response.headers.get('cache-control') ?? '';
  return (
    response.status === 200 &&
    /\bpublic\b/.test(cc) &&
    !response.headers.has('set-cookie') &&
    (response.headers.get('content-type') ?? '').startsWith('text/html')
  );
}
