// The built files (dist/client), served by the front (scripts/server.mjs) instead of the adapter, which
// sends everything uncompressed with max-age=0 (DESIGN §8): brotli or gzip from the siblings
// scripts/compress-assets.ts wrote at build, `immutable` for hashed /_astro/ files, a week for images and
// icons, ETag revalidation, the security headers (set on every answer by the front). Prerendered pages
// (info pages, the blog) are files too: served at their address without `index.html`, revalidated on
// every visit, with the Content-Security-Policy Astro wrote for each into dist/_headers.json.
// Relative imports only: loaded by Node from src/.
import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join, relative, sep } from 'node:path';
import { PUBLIC_PAGE } from './cache.ts';
import { preferredEncoding, type Encoding } from './compression.ts';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

export interface Variant {
  path: string;
  size: number;
}

export interface StaticFile extends Variant {
  type: string;
  etag: string;
  lastModified: string;
  cacheControl: string;
  encoded: Partial<Record<Encoding, Variant>>;
  /** Headers of this file alone (a prerendered page's CSP). */
  headers: Record<string, string>;
}

/** The per-page headers the adapter's build wrote (staticHeaders), by page path. */
function pageHeaders(root: string): Map<string, Record<string, string>> {
  const byPath = new Map<string, Record<string, string>>();
  let entries: { pathname: string; headers: { key: string; value: string }[] }[];
  try {
    entries = JSON.parse(readFileSync(join(dirname(root), '_headers.json'), 'utf8')) as typeof entries;
  } catch {
    return byPath;
  }
  for (const entry of entries) {
    byPath.set(entry.pathname.replace(/\/$/, '') || '/', Object.fromEntries(entry.headers.map((h) => [h.key.toLowerCase(), h.value])));
  }
  return byPath;
}

function cacheControlFor(url: string): string {
  // Hashed names change with their content: a browser may keep them for good.
  if (url.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  return 'public, max-age=604800, stale-while-revalidate=86400';
}

/** Every servable file under the root by its URL path; a prerendered page by its address. */
export function staticIndex(root: string): Map<string, StaticFile> {
  const index = new Map<string, StaticFile>();
  const headersOf = pageHeaders(root);
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path);
        continue;
      }
      const type = TYPES[extname(entry.name)];
      if (!type) continue;
      const file = `/${relative(root, path).split(sep).join('/')}`;
      const isPage = file.endsWith('/index.html');
      const url = isPage ? file.slice(0, -'/index.html'.length) || '/' : file;
      const stat = statSync(path);
      const variant = (suffix: string): Variant | undefined => {
        try {
          return { path: `${path}${suffix}`, size: statSync(`${path}${suffix}`).size };
        } catch {
          return undefined;
        }
      };
      const br = variant('.br');
      const gzip = variant('.gz');
      index.set(url, {
        path,
        size: stat.size,
        type,
        etag: `W/"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`,
        lastModified: stat.mtime.toUTCString(),
        // Prerendered pages like the rendered public ones: browsers ask again each time (ETag makes that
        // cheap), shared caches keep them 5 minutes.
        cacheControl: isPage ? PUBLIC_PAGE['cache-control'] : cacheControlFor(url),
        encoded: { ...(br ? { br } : {}), ...(gzip ? { gzip } : {}) },
        headers: (isPage && headersOf.get(url)) || {},
      });
      // /blog/ finds /blog too (Astro's trailingSlash: 'ignore').
      if (isPage && url !== '/') index.set(`${url}/`, index.get(url) as StaticFile);
    }
  };
  walk(root);
  return index;
}

/** Answers a GET or HEAD for a built asset; false when the request is not for one. */
export function serveStatic(index: Map<string, StaticFile>, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const file = index.get(path);
  if (!file) return false;
  const headers: Record<string, string> = {
    ...file.headers,
    'content-type': file.type,
    'cache-control': file.cacheControl,
    etag: file.etag,
    'last-modified': file.lastModified,
  };
  if (Object.keys(file.encoded).length > 0) headers['vary'] = 'accept-encoding';
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  const chosen = (encoding && file.encoded[encoding]) || undefined;
  sendFile(req, res, headers, chosen ?? file, chosen && encoding ? { 'content-encoding': encoding } : {});
  return true;
}

/**
 * Answers with a file on disk: 304 when the browser holds `headers.etag`, else 200 with its length and,
 * but for HEAD, its bytes. `whole` are headers of the 200 answer alone (its content-encoding).
 */
export function sendFile(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>, body: Variant, whole: Record<string, string> = {}): void {
  if (req.headers['if-none-match'] === headers['etag']) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, ...whole, 'content-length': String(body.size) });
  if (req.method === 'HEAD') res.end();
  else createReadStream(body.path).pipe(res);
}
