// Runs before every page and endpoint: language and security headers.
import { defineMiddleware } from 'astro:middleware';
import { withCacheTimings } from '~/lib/cache.ts';
import { securityHeaders } from '~/lib/http/security-headers.ts';
import { logUnexpected } from '~/lib/log.ts';
import { noteRoute } from '~/lib/metrics.ts';
import '~/features/housekeeping/housekeeping.server.ts';
import { apiMethodRefusal } from '~/lib/http/edge.ts';
import { routeMethods } from '~/pages/api/_routes.ts';
import { fail } from '~/lib/http/envelope.ts';
import { COMPRESSIBLE, compressAsync, isCompressible, preferredEncoding } from '~/lib/http/compression.ts';
import { cachedPage, isPrivatePage, isShareable, pageAnswer, pageCache, pageCacheKey, pageGeneration } from '~/lib/http/page-cache.ts';
import { PRIVATE } from '~/lib/http/cache.ts';
import { answerTags, cacheTag, sharedCacheHeaders, withCacheTags } from '~/lib/http/cache-tags.ts';
import { preparePage as prepareHtml, preparedPolicy, registeredAssets } from '~/lib/http/prepare-page.ts';
import { LOCALE_COOKIE, localeFromHeader, t, type Locale } from '~/lib/i18n/index.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered) {
    // Built once into a file for every visitor (info pages, the blog): Russian, no request to read; the
    // front serves the file with its headers (src/lib/http/static-files.ts).
    context.locals.locale = 'ru';
    context.locals.requestId = 'build';
    return next();
  }
  const requestId = context.request.headers.get('x-request-id') ?? 'none';
  context.locals.requestId = requestId;
  // For the front's request metrics: the route's pattern, never the path (src/lib/metrics.ts).
  noteRoute(context.routePattern);
  const { result: response, serverTiming } = await withCacheTimings(async () => {
    const isApi = context.url.pathname.startsWith('/api/');
    try {
      return await withCacheTags(() => answer(isApi));
    } catch (error) {
      // Logged once, here, without the request's data; the visitor gets the shop's error page with the
      // id to quote (spec route 'error'), an API client the envelope.
      logUnexpected(requestId, isApi ? 'api' : 'page', error);
      if (isApi || context.url.pathname === '/500') return withSecurityHeaders(fail(500, t(context.locals.locale, 'error.internal')));
      return withSecurityHeaders(await context.rewrite('/500'));
    }
  });
  if (serverTiming) response.headers.append('server-timing', serverTiming);
  return response;

  /**
   * A method the endpoint does not have: Astro answers 404 without a body of ours; the route table
   * knows which methods the path has, so the caller learns them (405 with Allow).
   */
  async function apiAnswer(response: Response): Promise<Response> {
    if (response.status !== 404 || isJson(response)) return response;
    // The front's refusal (edge.ts), from the same route table, for requests that reached Astro before
    // the front had loaded its copy.
    const refusal = apiMethodRefusal(await routeMethods(), context.request.method, context.url.pathname, context.locals.locale);
    return refusal ? new Response(refusal.body, { status: refusal.status, headers: refusal.headers }) : response;
  }

  async function answer(isApi: boolean): Promise<Response> {
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
    const acceptEncoding = context.request.headers.get('accept-encoding');
    if (!cache || key === undefined)
      return encoded(finish(isApi ? await apiAnswer(await next()) : await next(), isApi, context.locals.locale, context.url.pathname), acceptEncoding);

    // Visitors asking for a page that is being rendered wait for that render instead of starting their own.
    let own: Response | undefined;
    const page = await cache.getOrLoad(key, async () => {
      const generation = pageGeneration();
      own = await next();
      if (!isShareable(own)) return undefined;
      const html = await own.arrayBuffer();
      // The catalogue changed while this page rendered: this visitor gets it, nobody else.
      if (pageGeneration() !== generation) {
        own = new Response(html, own);
        return undefined;
      }
      const rendered = finish(new Response(html, own), isApi, context.locals.locale, context.url.pathname);
      const headers = new Headers(rendered.headers);
      const body = preparePage(headers, new Uint8Array(await rendered.arrayBuffer()));
      return cachedPage(rendered.status, headers, body, { previous: cache.peek(key), route: context.routePattern });
    });
    if (page) {
      const { status, headers, body } = pageAnswer(page, acceptEncoding);
      return new Response(context.request.method === 'HEAD' ? null : body.slice(), { status, headers });
    }
    // Rendered here but personal, or someone else's render turned out personal: this visitor's own.
    return encoded(finish(own ?? (await next()), isApi, context.locals.locale, context.url.pathname), acceptEncoding);
  }
});

/** An answer made for one request, compressed at a fast level when it is text the client can take compressed. */
async function encoded(response: Response, acceptEncoding: string | null): Promise<Response> {
  const encoding = preferredEncoding(acceptEncoding);
  const type = response.headers.get('content-type');
  const html = type?.startsWith('text/html') && !response.headers.has('content-encoding');
  if ((!encoding && !html) || !response.body || response.headers.has('content-encoding') || !COMPRESSIBLE.test(type ?? '')) return response;
  const headers = new Headers(response.headers);
  const body = preparePage(headers, new Uint8Array(await response.arrayBuffer()));
  if (!encoding) return new Response(body, { status: response.status, headers });
  headers.append('vary', 'accept-encoding');
  if (!isCompressible(type, body.byteLength)) return new Response(body, { status: response.status, headers });
  const packed = await compressAsync(body, encoding, 'fast');
  headers.set('content-encoding', encoding);
  headers.set('content-length', String(packed.byteLength));
  return new Response(packed as Uint8Array<ArrayBuffer>, { status: response.status, headers });
}

/**
 * A page as sent (prepare-page.ts); other answers pass untouched. The page is read as its bytes, one per
 * character (`latin1`), and written back the same way: no UTF-8 decoding and encoding of every page.
 */
function preparePage(headers: Headers, body: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  if (!headers.get('content-type')?.startsWith('text/html')) return body;
  const html = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  const page = prepareHtml(html, registeredAssets(), 'latin1');
  if (page.html !== html) {
    body = Buffer.from(page.html, 'latin1') as Uint8Array<ArrayBuffer>;
    if (headers.has('content-length')) headers.set('content-length', String(body.byteLength));
  }
  const policy = headers.get('content-security-policy');
  if (policy) headers.set('content-security-policy', preparedPolicy(policy, page));
  return body;
}

function finish(response: Response, isApi: boolean, locale: Locale, url: string): Response {
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
  withSecurityHeaders(response);
  // Pages say their charset (Astro sends a bare text/html).
  if (response.headers.get('content-type') === 'text/html') response.headers.set('content-type', 'text/html; charset=utf-8');
  if (!isApi && isPrivatePage(url)) {
    // Whatever the page said, an answer made for one visitor is kept by no cache (page-cache.ts decides).
    response.headers.set('cache-control', PRIVATE['cache-control']);
  } else if (!isApi && locale !== 'ru') {
    // A page in another language must not be served from a shared cache to Russian visitors.
    response.headers.set('cache-control', 'private, no-store');
  } else if (isSharedAnswer(response)) {
    // What it shows, and so when a CDN must drop it (src/lib/http/cache-tags.ts); every page shows the menu.
    // An answer that names nothing of the catalogue (the editors' content, crawler files) keeps its own policy.
    const tags = new Set(answerTags());
    if (response.headers.get('content-type')?.startsWith('text/html')) tags.add(cacheTag.menu);
    if (tags.size > 0) for (const [name, value] of Object.entries(sharedCacheHeaders(tags))) response.headers.set(name, value);
  }
  return response;
}

/** An answer every visitor gets alike, which the page or endpoint marked public. */
function isSharedAnswer(response: Response): boolean {
  return (
    (response.status === 200 || response.status === 301) &&
    /\bpublic\b/.test(response.headers.get('cache-control') ?? '') &&
    !response.headers.has('set-cookie')
  );
}

function withSecurityHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(securityHeaders())) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('application/json');
}
