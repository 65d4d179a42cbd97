// Runs before every page and endpoint: language and security headers.
import { defineMiddleware } from 'astro:middleware';
import { fail } from '~/lib/http/envelope.ts';
import { LOCALE_COOKIE, localeFromHeader, t } from '~/lib/i18n/index.ts';
import { env } from '~/lib/env.ts';
import { isShareable, PAGE_CACHE_GLOBAL, PageCache, type CachedPage } from '~/lib/http/page-cache.ts';

let pageCache: PageCache | undefined;
const rendering = new Map<string, Promise<CachedPage | undefined>>();

const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

export const onRequest = defineMiddleware(async (context, next) => {
  const isApi = context.url.pathname.startsWith('/api/');
  // API calls follow accept-language (spec §7). Pages are Russian unless the visitor chose English
  // (lang=en cookie): a browser merely set to English would otherwise mix English chrome with Russian
  // products (docs/decisions/006).
  context.locals.locale = isApi ? localeFromHeader(context.request.headers.get('accept-language')) : context.cookies.get(LOCALE_COOKIE)?.value === 'en' ? 'en' : 'ru';
  if (!pageCache) {
    pageCache = new PageCache(env().PAGE_CACHE_SECONDS * 1000, 64 * 1024 * 1024);
    // The front server (scripts/server.mjs) answers hits before Astro runs at all.
    (globalThis as Record<symbol, unknown>)[PAGE_CACHE_GLOBAL] = pageCache;
  }
  const cacheable = !isApi && pageCache.enabled && context.request.method === 'GET' && context.locals.locale === 'ru';
  const key = context.url.pathname + context.url.search;
  const cache = pageCache;
  const serve = (page: CachedPage) => {
    const headers = new Headers(page.headers);
    headers.set('age', String(Math.floor((Date.now() - page.at) / 1000)));
    return new Response(page.body.slice(), { status: page.status, headers });
  };
  const hit = cacheable ? (cache.get(key) ?? (await rendering.get(key))) : undefined;
  if (hit) return serve(hit);
  let done: (page: CachedPage | undefined) => void = () => {};
  // Visitors asking for a page that is being rendered wait for that render instead of starting their own.
  if (cacheable) rendering.set(key, new Promise((resolve) => (done = resolve)));
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    done(undefined);
    rendering.delete(key);
    throw error;
  }
  if (cacheable && isShareable(response)) {
    const body = new Uint8Array(await response.arrayBuffer());
    response = new Response(body, { status: response.status, headers: response.headers });
    withSecurityHeaders(response, context.url);
    const page = { at: Date.now(), status: response.status, headers: [...response.headers], body };
    cache.set(key, page);
    done(page);
    rendering.delete(key);
    return response;
  }
  if (cacheable) {
    done(undefined);
    rendering.delete(key);
  }
  if (isApi && response.status >= 400 && !isJson(response)) {
    // Whatever answered outside our endpoints (a method with no handler, the framework itself),
    // API clients still get the envelope.
    const key = response.status === 404 ? 'error.unknownApi' : response.status === 405 ? 'error.methodNotAllowed' : response.status >= 500 ? 'error.internal' : 'error.badRequest';
    response = fail(response.status, t(context.locals.locale, key));
  }
  withSecurityHeaders(response, context.url);
  if (!isApi && context.locals.locale !== 'ru') {
    // A page in another language must not be served from a shared cache to Russian visitors.
    response.headers.set('cache-control', 'private, no-store');
  }
  return response;
});

function withSecurityHeaders(response: Response, url: URL): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  if (!response.headers.has('content-security-policy')) {
    // Script and style sources are listed per page by Astro's CSP (a <meta> with hashes);
    // these directives can only travel in a header.
    response.headers.set('content-security-policy', "frame-ancestors 'none'; base-uri 'self'; object-src 'none'");
  }
  if (url.protocol === 'https:') {
    response.headers.set('strict-transport-security', 'max-age=31536000; includeSubDomains');
  }
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('application/json');
}
