// What the shop's HTTP front (scripts/server.mjs) decides before Astro sees a request: requests no
// route could answer well — a method no page or call has, a path that does not decode, a request line
// Node cannot parse — get a clear refusal here, in the envelope on /api and as a short Russian page
// elsewhere, with the security headers. Relative imports only (loaded from src/ by Node).
import { t, type Locale } from '../i18n/index.ts';
import { escapeHtml } from '../html.ts';
import { pathPattern } from './path-pattern.ts';
import { securityHeaders } from './security-headers.ts';
import { NOTHING_POLICY, cspHash } from './csp.ts';

export interface EarlyAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Where Astro answers the 1C exchange; the front hands the configured EXCHANGE_PATH to it (exchangeUrl). */
export const EXCHANGE_ROUTE = '/exchange/1c';

/**
 * A request's address as Astro is to see it: the configured exchange path becomes the exchange's route,
 * and the route under its own name answers nothing when another path is configured (404 from Astro).
 */
export function exchangeUrl(url: string, exchangePath: string): string {
  if (exchangePath === EXCHANGE_ROUTE) return url;
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  if (path === exchangePath) return EXCHANGE_ROUTE + (mark === -1 ? '' : url.slice(mark));
  if (path === EXCHANGE_ROUTE) return `${EXCHANGE_ROUTE}-not-here`;
  return url;
}

/** Methods nothing here answers; undici cannot even build a request for some of them. */
const REFUSED_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);
const PAGE_METHODS = 'GET, HEAD';
/**
 * Pages whose own forms post to them: the managers' console (docs/decisions/019), the gift certificate's
 * purchase, which must work without a script (docs/decisions/025), and an order's review page, whose form
 * carries photos (docs/decisions/026).
 */
const POSTED_PAGES = /^\/(?:ops(?:\/|$)|gift-certificate\/?$|review\/BS-\d{8}(?:\/[\w-]{1,64})?\/?$)/;

const REFUSAL_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:20vh auto;padding:0 1.5rem;color:#1d1d1f}.brand{letter-spacing:.3em}h1{font-weight:500}a{color:inherit}';
/** The refusal page's one style block is all it may use. */
const REFUSAL_POLICY = `${NOTHING_POLICY}; style-src '${cspHash(REFUSAL_STYLE)}'`;

/** A refusal in the form the caller reads: the envelope on /api, a page elsewhere. */
export function refusal(status: number, path: string, message: string, extra: Record<string, string> = {}): EarlyAnswer {
  const headers = { ...securityHeaders(), 'cache-control': 'no-store', ...extra };
  if (path.startsWith('/api/')) {
    return { status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ success: false, message }) };
  }
  const body = `<!doctype html><html lang="ru"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(message)} — Brandshop</title><style>${REFUSAL_STYLE}</style><body><p class="brand">BRANDSHOP</p><h1>${escapeHtml(message)}</h1><p><a href="/">${escapeHtml(t('ru', 'notFound.back'))}</a></p></body></html>`;
  return { status, headers: { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': REFUSAL_POLICY }, body };
}

/** A request the front answers itself, or undefined to hand it to Astro. */
export function preflight(method: string, url: string, locale: Locale = 'ru'): EarlyAnswer | undefined {
  const path = url.split('?')[0] ?? '/';
  const isApi = path.startsWith('/api/');
  if (REFUSED_METHODS.has(method)) return refusal(405, path, t(locale, 'error.methodNotAllowed'), isApi ? {} : { allow: PAGE_METHODS });
  try {
    // The query too: Astro's adapter answers a query that does not decode with a bare 'Bad request.',
    // outside the envelope and the shop's page.
    decodeURIComponent(url);
  } catch {
    return refusal(400, path, t(locale, isApi ? 'error.badRequest' : 'error.badUrl'));
  }
  // Storefront pages are read, never written to: a form that posts goes to the API. The 1C exchange is not a
  // page; the managers' console posts its forms (with their CSRF tokens) to its own pages, and so does the
  // gift certificate's purchase (refused from another site by its Sec-Fetch-Site).
  if (!isApi && path !== EXCHANGE_ROUTE && !(POSTED_PAGES.test(path) && method === 'POST') && method !== 'GET' && method !== 'HEAD')
    return refusal(405, path, t(locale, 'error.methodNotAllowedPage'), { allow: PAGE_METHODS });
  return undefined;
}

export interface MethodTable {
  /** The API's paths (OpenAPI templates as patterns) and the methods each answers. */
  routes: { pattern: RegExp; methods: string[] }[];
}

/** The table from the API's own OpenAPI document (/api/openapi.json), fetched once the server is up. */
export function methodTable(document: { paths?: Record<string, Record<string, unknown>> }): MethodTable {
  return {
    routes: Object.entries(document.paths ?? {}).map(([template, ops]) => {
      const methods = Object.keys(ops).map((m) => m.toUpperCase());
      return {
        pattern: pathPattern(template),
        methods: methods.includes('GET') ? [...methods, 'HEAD'] : methods,
      };
    }),
  };
}

/**
 * A method an API path does not have, refused by the front with 405 and Allow (Astro would answer the
 * same after logging a warning per request — a flood of them would flood the log).
 */
export function apiMethodRefusal(table: MethodTable | undefined, method: string, url: string, locale: Locale = 'ru'): EarlyAnswer | undefined {
  const path = url.split('?')[0] ?? '/';
  if (!table || !path.startsWith('/api/')) return undefined;
  const route = table.routes.find((r) => r.pattern.test(path));
  if (!route || route.methods.includes(method)) return undefined;
  return refusal(405, path, t(locale, 'error.methodNotAllowed'), { allow: route.methods.join(', ') });
}

/**
 * The answer to a request Node's parser refused (an unknown method, a broken request line): written
 * straight to the socket, since there is no request object.
 */
export function clientErrorResponse(code: string | undefined, rawPacket: Buffer | undefined): string {
  const line = rawPacket?.toString('latin1').split('\r\n')[0] ?? '';
  const path = line.split(' ')[1] ?? '/';
  return rawHttp(
    code === 'HPE_INVALID_METHOD'
      ? refusal(405, path, t('ru', 'error.methodNotAllowed'), path.startsWith('/api/') ? {} : { allow: PAGE_METHODS })
      : refusal(400, path, t('ru', 'error.badRequest')),
  );
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 405: 'Method Not Allowed' };

/** An answer as bytes for a socket that has no response object (the connection is closed after it). */
export function rawHttp(answer: EarlyAnswer): string {
  const headers = Object.entries({ ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)), connection: 'close' })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  return `HTTP/1.1 ${answer.status} ${REASONS[answer.status] ?? 'Error'}\r\n${headers}\r\n\r\n${answer.body}`;
}
