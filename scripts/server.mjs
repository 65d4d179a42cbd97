// The shop's HTTP server: Astro's Node handler behind a thin front. The front
// - answers repeat visits of public pages straight from the page cache the middleware fills
//   (src/lib/http/page-cache.ts decides what may be cached and under which key, for both;
//   docs/decisions/007) — a hit skips Astro's routing, static-file lookup and middleware;
// - refuses what no route could answer well (src/lib/http/edge.ts): TRACE, pages written to, paths
//   that do not decode, request lines Node cannot parse;
// - lets at most a few requests into Astro at once and refuses the excess of a flood with 503
//   (src/lib/http/admission.ts), so cached pages, files and health checks keep answering;
// - gives every request an id and every answer the security headers, and logs one JSON line per
//   request (src/lib/log.ts);
// - gives memory back to the system once traffic pauses (src/lib/memory-release.ts);
// - answers /metrics (src/lib/metrics.ts) and counts every request by its route's pattern;
// - takes the visitor's address from X-Forwarded-For on connections from TRUST_PROXY only
//   (src/lib/http/client-address.ts);
// - stops gracefully (docs/operations.md "Stopping and restarting"): on SIGTERM or SIGINT, or when the
//   process that started it asks or goes away, readiness turns 503, the port closes, requests in flight
//   finish within SHUTDOWN_GRACE_SECONDS, then the jobs stop, the mail outbox is flushed and the database
//   closed (src/lib/runtime.ts), and the process exits 0. A second signal exits at once.
// Everything else — misses, the API, assets, personalised pages — goes to Astro. Run by `npm start`,
// the tests and the benchmark.
import http from 'node:http';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { env, loadDotEnv } from '../src/lib/env.ts';
import { ADMISSION_LIMITS, Admission } from '../src/lib/http/admission.ts';
import { apiMethodRefusal, clientErrorResponse, exchangeUrl, methodTable, preflight, rawHttp, refusal } from '../src/lib/http/edge.ts';
import { t } from '../src/lib/i18n/index.ts';
import { pageAnswer, pageCache, pageCacheKey } from '../src/lib/http/page-cache.ts';
import { securityHeaders } from '../src/lib/http/security-headers.ts';
import { serveStatic, staticIndex } from '../src/lib/http/static-files.ts';
import { serveMedia } from '../src/lib/http/media-files.ts';
import { mediaBase } from '../src/features/media/media.storage.server.ts';
import { compileBuiltSheets } from '../src/lib/http/first-paint-css-compile.ts';
import { registerAssets } from '../src/lib/http/prepare-page.ts';
import { setBuildId } from '../src/lib/http/cache-tags.ts';
import { createHash } from 'node:crypto';
import { sharedScripts } from '../src/lib/http/shared-scripts-files.ts';
import { loggableError, loggablePath, logger, requestIdFrom } from '../src/lib/log.ts';
import { releaseMemoryWhenIdle } from '../src/lib/memory-release.ts';
import { operatorToken } from '../src/lib/operator-token.ts';
import { markDraining, markReady, runStopHooks } from '../src/lib/runtime.ts';
import { exposition, metrics, withRouteSlot } from '../src/lib/metrics.ts';
import { clientAddress } from '../src/lib/http/client-address.ts';
import { sameSecret } from '../src/lib/same-secret.ts';

loadDotEnv();
// Made (or read) before the first request, so `npm run order` on this machine finds the key.
operatorToken();
const { HOST, PORT, DATABASE_URL, DATA_DIR, EXCHANGE_PATH, SHUTDOWN_GRACE_SECONDS, SHUTDOWN_DELAY_SECONDS, METRICS_TOKEN, TRUST_PROXY = [] } = env();
/** Each connection's own peer (see the request handler), held weakly: a closed connection's entry goes with it. @type {WeakMap<import("node:net").Socket, string | undefined>} */
const proxyPeers = new WeakMap();
// Imported photos (src/features/media).
const mediaDir = join(DATA_DIR, 'media');
// Photos in a bucket (MEDIA_STORAGE=s3): /media/ addresses are sent to it. (With the folder and a MEDIA_URL, a
// CDN takes them from here: they are served.)
const mediaElsewhere = env().MEDIA_STORAGE === 's3' ? mediaBase() : undefined;
process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const entry = new URL('../dist/server/entry.mjs', import.meta.url);
const { handler } = await import(fileURLToPath(entry));
const cache = pageCache();
const clientDir = fileURLToPath(new URL('../dist/client', import.meta.url));
const assets = staticIndex(clientDir);
// The build, by its hashed script and sheet names: a new one purges a CDN in front (src/features/cdn).
setBuildId(
  createHash('sha256')
    .update(
      [...assets.keys()]
        .filter((url) => url.startsWith('/_astro/'))
        .sort()
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 16),
);
// Pages carry the rules of these sheets their first paint needs inline, and load Astro's island runtime
// from the file the build wrote, when it did (src/lib/http/prepare-page.ts).
const scripts = sharedScripts();
registerAssets({ sheets: compileBuiltSheets(clientDir), ...(existsSync(join(clientDir, scripts.path)) ? { scripts } : {}) });
/** @type {import('../src/lib/http/edge.ts').MethodTable | undefined} */
let methods;
const admission = new Admission(ADMISSION_LIMITS[DATABASE_URL ? 'postgres' : 'pglite']);
const memory = releaseMemoryWhenIdle();
const { httpRequests, httpDuration } = metrics();
// The answers being written, so that a stopping process can wait for them.
/** @type {Set<import('node:http').ServerResponse>} */
const inFlight = new Set();
let stopping = false;
// Set once the port has closed: only from then on may idle connections be closed (see stop()).
let portClosed = false;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const server = http.createServer((req, res) => {
  const started = performance.now();
  memory.touch();
  const requestId = requestIdFrom(req.headers['x-request-id']);
  // Astro's answer reads the id from the request (error page, error log).
  req.headers['x-request-id'] = requestId;
  res.setHeader('x-request-id', requestId);
  for (const [name, value] of Object.entries(securityHeaders())) res.setHeader(name, value);
  /** @type {import('../src/lib/metrics.ts').RouteSlot} */
  const slot = {};
  inFlight.add(res);
  // A stopping process answers what it still receives on open connections, and closes each after.
  if (stopping) res.setHeader('connection', 'close');
  res.once('close', () => {
    inFlight.delete(res);
    if (portClosed) server.closeIdleConnections();
  });
  res.once('finish', () => {
    const seconds = (performance.now() - started) / 1000;
    logger.info({ requestId, method: req.method, path: loggablePath(req.url ?? ''), status: res.statusCode, ms: Math.round(seconds * 10_000) / 10 }, 'request');
    // Labels from fixed sets only: the route's pattern (never the path), a known method, the status.
    const method = METHODS.has(req.method ?? '') ? /** @type {string} */ (req.method) : 'other';
    const route = slot.route ?? 'other';
    httpRequests.inc({ route, method, status: String(res.statusCode) });
    httpDuration.observe({ route, method }, seconds);
  });
  // Behind nginx the connection is nginx's: the visitor is named in X-Forwarded-For, believed from
  // TRUST_PROXY only. Astro then reads the visitor's address as the connection's (its own reading of
  // the header, the first entry, is anyone's to write: the header never reaches it).
  if (TRUST_PROXY.length > 0) {
    // The connection's own peer, kept from its first request: a keep-alive connection from the proxy carries
    // many visitors, and the property below holds the previous one's address (with it as the peer, every
    // later request on the connection was that visitor's: found by issue 56's guessing test).
    let peer = proxyPeers.get(req.socket);
    if (peer === undefined) proxyPeers.set(req.socket, (peer = req.socket.remoteAddress));
    const visitor = clientAddress(peer, req.headers['x-forwarded-for'], TRUST_PROXY);
    Object.defineProperty(req.socket, 'remoteAddress', { value: visitor, configurable: true });
  }
  delete req.headers['x-forwarded-for'];

  // 1C calls the exchange where the shop owner said (EXCHANGE_PATH); Astro answers it at one route.
  req.url = exchangeUrl(req.url ?? '/', EXCHANGE_PATH);
  const early = preflight(req.method ?? '', req.url ?? '/') ?? apiMethodRefusal(methods, req.method ?? '', req.url ?? '/');
  if (early) {
    slot.route = 'refused';
    res.writeHead(early.status, early.headers);
    res.end(req.method === 'HEAD' ? undefined : early.body);
    return;
  }
  if (serveStatic(assets, req, res)) return void (slot.route = 'static');
  if (serveMedia(mediaDir, req, res, mediaElsewhere)) return void (slot.route = 'media');
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (path === '/metrics' && METRICS_TOKEN) return void answerMetrics(req, res, slot);
  const key = cache && pageCacheKey(req.method ?? '', req.url ?? '', req.headers.cookie);
  const page = key ? cache.get(key, { countMiss: false, whileLoading: true }) : undefined;
  if (!page) return withRouteSlot(slot, () => admitted(req, res, path, key));
  slot.route = page.route ?? 'page-cache';
  sendPage(req, res, page);
});

/** /metrics for Prometheus, with METRICS_TOKEN as its bearer token (docs/operations.md "Metrics"). */
async function answerMetrics(req, res, slot) {
  slot.route = '/metrics';
  const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!given || !sameSecret(/** @type {string} */ (METRICS_TOKEN), given)) {
    res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer', 'cache-control': 'no-store' });
    return res.end('401 Unauthorized\n');
  }
  const { body, contentType } = await exposition();
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** @param {import('../src/lib/http/page-cache.ts').CachedPage} page */
function sendPage(req, res, page) {
  const answer = pageAnswer(page, req.headers['accept-encoding']);
  answer.headers['server-timing'] = 'cache-page;desc="hit 1 miss 0"';
  res.writeHead(answer.status, answer.headers);
  res.end(req.method === 'HEAD' ? undefined : answer.body);
}

/** Astro's answer, once the request is let in; a refusal when the renderer is saturated. */
function admitted(req, res, path, key) {
  // The load balancer's questions must be answered even, and especially, under a flood.
  if (path === '/api/health' || path === '/api/ready') return handler(req, res);
  const enter = (ok) => {
    if (!ok) {
      // Saturated: a page's previous copy (within the cache's grace) is better than no page.
      const stale = key && cache?.peekWithinGrace(key);
      if (stale) return sendPage(req, res, stale);
      const busy = refusal(503, path, t('ru', 'error.busy'), { 'retry-after': '1' });
      res.writeHead(busy.status, busy.headers);
      res.end(req.method === 'HEAD' ? undefined : busy.body);
      return;
    }
    // A visitor who gave up while waiting frees the place at once.
    if (req.socket.destroyed) return admission.leave();
    res.once('close', () => admission.leave());
    handler(req, res);
  };
  const gate = admission.enter();
  if (gate === true || gate === false) enter(gate);
  else gate.then(enter);
}

// CONNECT is never a request Node hands to the handler: refused here, like TRACE.
// An idle connection is kept 65 s, not Node's 5: a client that sends on one the moment the process closes it
// gets no answer ("other side closed": undici does not send a POST again), and clients keep theirs about as
// long as the server's Keep-Alive says, less a second. Above the 60 s load balancers keep their own idle
// connections to a backend. The headers' deadline stays above it, as Node requires.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

server.on('connect', (req, socket) => {
  const answer = preflight('CONNECT', req.url ?? '/');
  if (answer) socket.end(rawHttp(answer));
  else socket.destroy();
});

// A request line Node cannot parse (an unknown method, garbage) still gets an answer a client can read.
server.on('clientError', (error, socket) => {
  if (!socket.writable) return socket.destroy();
  const code = /** @type {{ code?: string; rawPacket?: Buffer }} */ (error).code;
  socket.end(clientErrorResponse(code, /** @type {{ rawPacket?: Buffer }} */ (error).rawPacket));
  logger.info({ method: null, status: code === 'HPE_INVALID_METHOD' ? 405 : 400, code }, 'refused before parsing');
});

server.listen(PORT, HOST, () => {
  console.log(`Server listening on http://${HOST}:${PORT}`);
  // Warm-up: the database connection, the catalogue index and the category tree are built now, once,
  // instead of by the first visitors (who would all wait on that one build anyway).
  const started = performance.now();
  const origin = `http://${HOST === '0.0.0.0' ? '127.0.0.1' : HOST.includes(':') ? `[${HOST === '::' ? '::1' : HOST}]` : HOST}:${PORT}`;
  // On the embedded database this process owns the data folder: commands that would open it (npm run
  // import) find the shop here and hand it their work instead (docs/import.md "A running shop").
  if (!DATABASE_URL) announceOwner(origin);
  // The process is ready (/api/ready, the housekeeping jobs) once the warm-up has answered; until then,
  // and while the database does not answer, it tries again every two seconds.
  const warmUp = () => {
    if (stopping) return;
    fetch(`${origin}/api/v1/ecommerce-core/products?per_page=1`, { headers: { 'x-request-id': 'warm-up-at-start' } })
      .then(async (res) => {
        await res.arrayBuffer();
        if (!res.ok) throw Object.assign(new Error('warm-up answered an error'), { status: res.status });
        logger.info({ status: res.status, ms: Math.round(performance.now() - started) }, 'warmed up');
        if (!stopping) markReady();
      })
      .catch((error) => {
        logger.warn({ code: error?.cause?.code, status: error?.status }, 'warm-up failed: trying again in 2 s');
        setTimeout(warmUp, 2_000).unref();
      });
  };
  warmUp();
  // The API's methods per path, from its own contract: wrong methods are refused before Astro.
  fetch(`${origin}/api/openapi.json`)
    .then((res) => res.json())
    .then((document) => (methods = methodTable(document)))
    .catch((error) => logger.warn({ code: error?.cause?.code }, 'method table not loaded'));
});
/** DATA_DIR/shop.json: which process owns the embedded database, and where it answers; gone at exit. */
function announceOwner(origin) {
  const file = join(DATA_DIR, 'shop.json');
  try {
    writeFileSync(file, `${JSON.stringify({ pid: process.pid, url: origin })}\n`, { mode: 0o600 });
    process.on('exit', () => {
      try {
        // Only our own: a shop started after us on the same folder has written its own.
        if (JSON.parse(readFileSync(file, 'utf8')).pid === process.pid) rmSync(file);
      } catch {
        // already gone
      }
    });
  } catch (error) {
    logger.warn({ code: error?.code }, 'shop.json not written');
  }
}

// ---------------------------------------------------------------- stopping
/** @type {ReturnType<typeof setTimeout> | undefined} */
let graceTimer;

/** The graceful stop, once, whoever asks first: a signal, the parent process, or the parent's end. */
function stop(reason) {
  if (stopping) return;
  stopping = true;
  markDraining();
  // Readiness is 503 from now on. A balancer that asks it (not nginx: it only sees refused connections)
  // takes the process out within SHUTDOWN_DELAY_SECONDS, while the process still serves everything.
  logger.info({ reason, delaySeconds: SHUTDOWN_DELAY_SECONDS }, 'stopping: readiness 503');
  for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
  // Idle keep-alive connections stay open through the delay: a balancer that still counts the process
  // healthy may be sending on one as it closes, and a POST it sent there cannot be repeated (a fresh
  // clone's Varnish run met exactly that: «503 Backend fetch failed» on an add-to-cart). A request that
  // does arrive on one is answered with Connection: close, so the balancer drops it itself.
  if (SHUTDOWN_DELAY_SECONDS > 0) setTimeout(closePort, SHUTDOWN_DELAY_SECONDS * 1000);
  else closePort();
}

function closePort() {
  logger.info({ inFlight: inFlight.size, graceSeconds: SHUTDOWN_GRACE_SECONDS }, 'stopping: no new connections, finishing requests');
  // The port closes now; the callback runs once the last connection has closed.
  portClosed = true;
  server.close(() => void finish());
  server.closeIdleConnections();
  graceTimer = setTimeout(() => {
    logger.warn({ inFlight: inFlight.size }, 'stopping: grace period over, closing the remaining connections');
    server.closeAllConnections();
  }, SHUTDOWN_GRACE_SECONDS * 1000);
}

async function finish() {
  clearTimeout(graceTimer);
  // The jobs, the mail outbox, the database — each given a few seconds, so nothing can hold the exit.
  await runStopHooks(5_000, (name, outcome, error) =>
    logger.error({ step: name, outcome, err: error ? loggableError(error) : undefined }, 'stopping: a step did not finish'),
  );
  logger.info('stopped');
  logger.flush?.();
  process.exit(0);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (!stopping) return stop(signal);
    // Asked again: whoever sent it wants the process gone now. The database is left as after a crash,
    // which it survives (docs/operations.md).
    logger.warn({ signal }, 'stopping: second signal, exiting at once');
    logger.flush?.();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}
// Started by npm start or npm run serve (scripts/serve.mjs): that process forwards a stop as a message,
// so a signal it received too (a terminal's Ctrl-C reaches both) is not counted twice, and when it
// goes away without a word (killed), this process stops rather than live on as an orphan.
process.on('message', (message) => {
  if (message && typeof message === 'object' && message.type === 'stop') stop(String(message.reason ?? 'asked'));
});
process.on('disconnect', () => stop('parent process gone'));
