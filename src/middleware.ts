// Runs before every page and endpoint: language and security headers.
import { defineMiddleware } from 'astro:middleware';
import { fail } from '~/lib/http/envelope.ts';
import { LOCALE_COOKIE, localeFromHeader, t } from '~/lib/i18n/index.ts';

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
  let response = await next();
  if (isApi && response.status >= 400 && !isJson(response)) {
    // Whatever answered outside our endpoints (a method with no handler, the framework itself),
    // API clients still get the envelope.
    const key = response.status === 404 ? 'error.unknownApi' : response.status === 405 ? 'error.methodNotAllowed' : response.status >= 500 ? 'error.internal' : 'error.badRequest';
    response = fail(response.status, t(context.locals.locale, key));
  }
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  if (!response.headers.has('content-security-policy')) {
    // Script and style sources are listed per page by Astro's CSP (a <meta> with hashes);
    // these directives can only travel in a header.
    response.headers.set('content-security-policy', "frame-ancestors 'none'; base-uri 'self'; object-src 'none'");
  }
  if (!isApi && context.locals.locale !== 'ru') {
    // A page in another language must not be served from a shared cache to Russian visitors.
    response.headers.set('cache-control', 'private, no-store');
  }
  if (context.url.protocol === 'https:') {
    response.headers.set('strict-transport-security', 'max-age=31536000; includeSubDomains');
  }
  return response;
});

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('application/json');
}
