// A short-lived cache of rendered public pages in each process (docs/decisions/007). Catalogue and
// product pages are the same for every visitor (their cache-control says `public`), yet rendering one
// costs milliseconds of CPU; keeping the HTML for a few seconds lets a popular page be served at close
// to static speed while staying as fresh as the CDN policy already allows. Personalised answers
// (anything not `public`, any page in another language) are never stored.
//
// This module is the one place that decides what may be cached and under which key. Both the
// middleware (which fills the cache) and scripts/server.mjs (which answers hits before Astro runs)
// import it, so it keeps to relative imports that Node's type stripping can load.
import { Cache } from '../cache.ts';
import { compress, isCompressible, preferredEncoding, type Encoding } from './compression.ts';
import { env } from '../env.ts';

export interface CachedPage {
  at: number;
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  /** The body compressed once, when stored, at the best settings. */
  encoded: Partial<Record<Encoding, Uint8Array>>;
}

/** A rendered page as it is stored: the body with its brotli and gzip forms. */
export function cachedPage(status: number, headers: Headers, body: Uint8Array, now = Date.now()): CachedPage {
  const encoded = isCompressible(headers.get('content-type'), body.byteLength)
    ? { br: compress(body, 'br', 'best'), gzip: compress(body, 'gzip', 'best') }
    : {};
  return { at: now, status, headers: [...headers], body, encoded };
}

/** The stored page for one request: the form its accept-encoding prefers, with its age. */
export function pageAnswer(
  page: CachedPage,
  acceptEncoding: string | null | undefined,
  now = Date.now(),
): { status: number; headers: Headers; body: Uint8Array } {
  const headers = new Headers(page.headers);
  headers.set('age', String(Math.floor((now - page.at) / 1000)));
  const encoding = preferredEncoding(acceptEncoding);
  const encoded = encoding ? page.encoded[encoding] : undefined;
  if (Object.keys(page.encoded).length > 0) headers.set('vary', 'accept-encoding');
  if (encoding && encoded) headers.set('content-encoding', encoding);
  const body = encoded ?? page.body;
  headers.set('content-length', String(body.byteLength));
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
            sizeOf: (p) => p.body.byteLength + (p.encoded.br?.byteLength ?? 0) + (p.encoded.gzip?.byteLength ?? 0),
          })
        : null;
  }
  return holder[GLOBAL] ?? undefined;
}

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

/** The query parameters each page reads; any other (utm_*, ref, a cache-buster) cannot change the page. */
const PAGE_PARAMS: [RegExp, readonly string[]][] = [[/^\/(?:c|m|product\/search)\//, LISTING_PARAMS]];

/**
 * The key a request's page is kept under, or undefined when the request may not be answered from the
 * cache: only GET of pages (not the API or assets), and not in English (docs/decisions/006: those pages
 * are personal). The key holds only the parameters the page reads, in one order, so a flood of
 * made-up query strings finds the one cached page instead of rendering and storing a page each.
 */
export function pageCacheKey(method: string, url: string, cookie: string | null | undefined): string | undefined {
  if (method !== 'GET' || url.startsWith('/api/') || url.startsWith('/_astro/')) return undefined;
  if (/(?:^|;\s*)lang=en(?:;|$)/.test(cookie ?? '')) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://localhost');
  } catch {
    return undefined;
  }
  const reads = PAGE_PARAMS.find(([pattern]) => pattern.test(parsed.pathname))?.[1] ?? [];
  const kept = [...parsed.searchParams].filter(([name]) => reads.includes(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return kept.length === 0 ? parsed.pathname : `${parsed.pathname}?${new URLSearchParams(kept).toString()}`;
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
