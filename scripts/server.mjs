// The shop's HTTP server: Astro's Node handler behind a thin front that answers repeat visits of
// public pages straight from the page cache the middleware fills (src/lib/http/page-cache.ts decides
// what may be cached and under which key, for both; docs/decisions/007). A hit skips Astro's routing,
// static-file lookup and middleware, which cost more than the copy of the HTML itself. Everything
// else — misses, the API, assets, personalised pages — goes to Astro unchanged. Run by `npm start`,
// the tests and the benchmark.
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { env, loadDotEnv } from '../src/lib/env.ts';
import { pageCache, pageCacheKey, pageResponseHeaders } from '../src/lib/http/page-cache.ts';

loadDotEnv();
const { HOST, PORT } = env();
process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const entry = new URL('../dist/server/entry.mjs', import.meta.url);
const { handler } = await import(fileURLToPath(entry));
const cache = pageCache();

const server = http.createServer((req, res) => {
  const key = cache && pageCacheKey(req.method ?? '', req.url ?? '', req.headers.cookie);
  const page = key ? cache.get(key, { countMiss: false }) : undefined;
  if (!page) return handler(req, res);
  const headers = Object.fromEntries(pageResponseHeaders(page));
  headers['content-length'] = String(page.body.byteLength);
  headers['server-timing'] = 'cache-page;desc="hit 1 miss 0"';
  res.writeHead(page.status, headers);
  res.end(page.body);
});

server.listen(PORT, HOST, () => console.log(`Server listening on http://${HOST}:${PORT}`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)).closeAllConnections());
