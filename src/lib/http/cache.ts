// Cache policies (DESIGN §10): shared content may sit in a CDN; personalised answers never.
export const PUBLIC_CONTENT = { 'cache-control': 'public, max-age=60, s-maxage=300, stale-while-revalidate=86400' } as const;
export const PRIVATE = { 'cache-control': 'private, no-store' } as const;
/** Pages that are the same for everyone (info, blog, brands): a CDN may keep them briefly. */
export const PUBLIC_PAGE = { 'cache-control': 'public, max-age=0, s-maxage=300, stale-while-revalidate=86400' } as const;
/** What crawlers and marketplaces fetch (robots.txt, sitemaps, the feed): fresh enough within the hour. */
export const CRAWLER_FILE = { 'cache-control': 'public, max-age=600, s-maxage=3600' } as const;
