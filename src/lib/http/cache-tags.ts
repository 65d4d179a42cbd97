// What a public answer shows, as cache tags (docs/operations.md "A CDN in front"), and how long shared
// caches may keep it. The catalogue's views name what they read (tagAnswer) while a request runs; the
// middleware writes the tags into Surrogate-Key (Varnish's xkey, Fastly) and Cache-Tag (Cloudflare) of a
// shareable answer. A change purges exactly these names: the database's triggers (migration 0027) write
// them to the purge outbox, and src/features/cdn sends them. The two lists must spell tags alike.
//
// Relative imports only: scripts/server.mjs loads this module's neighbours from src/.
import { AsyncLocalStorage } from 'node:async_hooks';
import { env } from '../env.ts';

export const cacheTag = {
  /** The product's page and its API answer. */
  product: (id: number) => `product-${id}`,
  /** Every answer showing the product's card: listings, the home page, related products, search. */
  card: (id: number) => `card-${id}`,
  /** The category's listing pages (its whole subtree's products). */
  category: (id: number) => `category-${id}`,
  /** The brand's listing pages. */
  brand: (id: number) => `brand-${id}`,
  /** The brands page and the home page's popular brands. */
  brands: 'brands',
  home: 'home',
  /** Every search page. */
  search: 'search',
  /** Every page with the header's category menu: categories and colours show everywhere. */
  menu: 'menu',
  /** Every tagged answer: purged when a new build starts (src/features/cdn). */
  shop: 'shop',
} as const;

const GLOBAL = Symbol.for('brandshop.cacheTags');
const shared = globalThis as { [GLOBAL]?: AsyncLocalStorage<Set<string>> };
// One store for the bundled middleware and the front's copy of this module.
const store = (shared[GLOBAL] ??= new AsyncLocalStorage<Set<string>>());

const BUILD = Symbol.for('brandshop.buildId');

/** The front names the build it serves (a digest of its script and sheet names): a new one purges the CDN. */
export function setBuildId(id: string): void {
  (globalThis as { [BUILD]?: string })[BUILD] = id;
}

export function buildId(): string | undefined {
  return (globalThis as { [BUILD]?: string })[BUILD];
}

/** Runs a request with a fresh set of tags. */
export function withCacheTags<T>(run: () => T): T {
  return store.run(new Set(), run);
}

/** Names what the answer being made shows; outside a request, nothing. */
export function tagAnswer(...tags: readonly string[]): void {
  const set = store.getStore();
  if (set) for (const tag of tags) set.add(tag);
}

/** The tags named so far in this request. */
export function answerTags(): ReadonlySet<string> {
  return store.getStore() ?? new Set();
}

// Cloudflare takes up to 16 KB of Cache-Tag per answer; far beyond any page here (a listing of 96 cards
// is ~1.3 KB), but an answer past it is kept by no shared cache rather than kept untaggable.
const MAX_TAG_BYTES = 8 * 1024;

/**
 * The shared-cache headers of a public answer: how long browsers and shared caches keep it, and its
 * tags. Browsers revalidate every time (a change cannot be purged from them) but may show the last copy
 * while the shop is unreachable; shared caches keep it CDN_MAX_AGE_SECONDS when changes purge them, else
 * CDN_SHORT_SECONDS, serving it stale for a minute while they fetch it again and for a day while the shop
 * answers errors. Caches that know only Cache-Control (and so no purge) keep it CDN_SHORT_SECONDS.
 * Every tagged answer carries `shop` too: a new build purges it (its pages name new scripts).
 */
export function sharedCacheHeaders(tags: ReadonlySet<string>): Record<string, string> {
  const e = env();
  const list = tags.size > 0 ? [...tags, cacheTag.shop] : [];
  const keys = list.join(' ');
  if (keys.length > MAX_TAG_BYTES) return { 'cache-control': 'public, max-age=0, stale-if-error=86400', 'cdn-cache-control': 'no-store' };
  const shared = e.CDN_PURGE === 'none' || list.length === 0 ? e.CDN_SHORT_SECONDS : e.CDN_MAX_AGE_SECONDS;
  const headers: Record<string, string> = {
    'cache-control': `public, max-age=0, s-maxage=${e.CDN_SHORT_SECONDS}, stale-if-error=86400`,
    'cdn-cache-control': `public, max-age=${shared}, stale-while-revalidate=60, stale-if-error=86400`,
  };
  if (list.length > 0) {
    headers['surrogate-key'] = keys;
    headers['cache-tag'] = list.join(',');
  }
  return headers;
}
