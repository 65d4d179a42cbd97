// Runs before every page and endpoint: language and security headers.
import { defineMiddleware } from 'astro:middleware';
import { fail } from '~/lib/http/envelope.ts';
import { LOCALE_COOKIE, localeFromHeader, t } from '~/lib/i18n/index.ts';
import { env } from '~/lib/env.ts';
import { isShareable, PageCache } from '~/lib/http/page-cache.ts';

let pageCache: PageCache | undefined;

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
  pageCache ??= new PageCache(env().PAGE_CACHE_SECONDS * 1000, 64 * 1024 * 1024);
  const cacheable = !isApi && pageCache.enabled && context.request.method === 'GET' && context.locals.locale === 'ru';
  const key = context.url.pathname + context.url.search;
  const hit = cacheable ? pageCache.get(key) : undefined;
  if (hit) {
    const headers = new Headers(hit.headers);
    headers.set('age', String(Math.floor((Date.now() - hit.at) / 1000)));
    return new Response(hit.body.slice(), { status: hit.status, headers });
  }
  let response = await next();
  if (cacheable && isShareable(response)) {
    const body = new Uint8Array(await response.arrayBuffer());
    response = new Response(body, { status: response.status, headers: response.headers });
    withSecurityHeaders(response, context.url);
    pageCache.set(key, { at: Date.now(), status: response.status, headers: [...response.headers], body });
    return response;
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
