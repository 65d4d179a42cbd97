// The shop's HTTP server: Astro's Node handler behind a thin front that answers repeat visits of
// public pages straight from the page cache the middleware fills (src/lib/http/page-cache.ts,
// docs/decisions/007). A hit skips Astro's routing, static-file lookup and middleware, which cost
// more than the copy of the HTML itself. Everything else — misses, the API, assets, personalised
// pages — goes to Astro unchanged. Run by `npm start`, the tests and the benchmark.
import http from 'node:http';
import { fileURLToPath } from 'node:url';

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const entry = new URL('../dist/server/entry.mjs', import.meta.url);
const { handler } = await import(fileURLToPath(entry));
const CACHE = Symbol.for('brandshop.pageCache');

function cachedPage(req) {
  if (req.method !== 'GET' || req.url.startsWith('/api/') || req.url.startsWith('/_astro/')) return undefined;
  // Pages in English are personal (docs/decisions/006): only Astro answers them.
  if (/(?:^|;\s*)lang=en(?:;|$)/.test(req.headers.cookie ?? '')) return undefined;
  const cache = globalThis[CACHE];
  if (!cache) return undefined;
  let url;
  try {
    url = new URL(req.url, 'http://localhost');
  } catch {
    return undefined;
  }
  return cache.get(url.pathname + url.search);
}

const server = http.createServer((req, res) => {
  const page = cachedPage(req);
  if (!page) return handler(req, res);
  const headers = Object.fromEntries(page.headers);
  headers['age'] = String(Math.floor((Date.now() - page.at) / 1000));
  headers['content-length'] = String(page.body.byteLength);
  res.writeHead(page.status, headers);
  res.end(page.body);
});

const host = process.env.HOST ?? 'localhost';
const port = Number(process.env.PORT ?? 4321);
server.listen(port, host, () => console.log(`Server listening on http://${host}:${port}`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)).closeAllConnections());
