// Runs before every page and endpoint: language and security headers.
import { defineMiddleware } from 'astro:middleware';
import { withCacheTimings } from '~/lib/cache.ts';
import { fail } from '~/lib/http/envelope.ts';
import { isShareable, pageCache, pageCacheKey, pageResponseHeaders, type CachedPage } from '~/lib/http/page-cache.ts';
import { LOCALE_COOKIE, localeFromHeader, t, type Locale } from '~/lib/i18n/index.ts';

const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

export const onRequest = defineMiddleware(async (context, next) => {
  const { result: response, serverTiming } = await withCacheTimings(async () => {
    const isApi = context.url.pathname.startsWith('/api/');
    // API calls follow accept-language (spec §7). Pages are Russian unless the visitor chose English
    // (lang=en cookie): a browser merely set to English would otherwise mix English chrome with Russian
    // products (docs/decisions/006).
    context.locals.locale = isApi
      ? localeFromHeader(context.request.headers.get('accept-language'))
      : context.cookies.get(LOCALE_COOKIE)?.value === 'en'
        ? 'en'
        : 'ru';
    const cache = pageCache();
    const key = cache && pageCacheKey(context.request.method, context.url.pathname + context.url.search, context.request.headers.get('cookie'));
    if (!cache || key === undefined) return finish(await next(), context.url, isApi, context.locals.locale);

    // Visitors asking for a page that is being rendered wait for that render instead of starting their own.
    let own: Response | undefined;
    const page = await cache.getOrLoad(key, async () => {
      own = await next();
      if (!isShareable(own)) return undefined;
      const rendered = finish(new Response(new Uint8Array(await own.arrayBuffer()), own), context.url, isApi, context.locals.locale);
      return {
        at: Date.now(),
        status: rendered.status,
        headers: [...rendered.headers],
        body: new Uint8Array(await rendered.arrayBuffer()),
      } satisfies CachedPage;
    });
    if (page) return new Response(page.body.slice(), { status: page.status, headers: pageResponseHeaders(page) });
    // Rendered here but personal, or someone else's render turned out personal: this visitor's own.
    return finish(own ?? (await next()), context.url, isApi, context.locals.locale);
  });
  if (serverTiming) response.headers.append('server-timing', serverTiming);
  return response;
});

function finish(response: Response, url: URL, isApi: boolean, locale: Locale): Response {
  if (isApi && response.status >= 400 && !isJson(response)) {
    // Whatever answered outside our endpoints (a method with no handler, the framework itself),
    // API clients still get the envelope.
    const key =
      response.status === 404
        ? 'error.unknownApi'
        : response.status === 405
          ? 'error.methodNotAllowed'
          : response.status >= 500
            ? 'error.internal'
            : 'error.badRequest';
    response = fail(response.status, t(locale, key));
  }
  withSecurityHeaders(response, url);
  if (!isApi && locale !== 'ru') {
    // A page in another language must not be served from a shared cache to Russian visitors.
    response.headers.set('cache-control', 'private, no-store');
  }
  return response;
}

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
