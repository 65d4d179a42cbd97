// `npm run bench [-- --products 100000] [--duration 10] [--skip-http] [--flood] [--discovery] [--auth] [--buy] [--memory] [--spikes] [--uncached-only]`: the catalogue's speed at scale.
// 1. Seeds a benchmark database once (PGlite in data-bench/, and PostgreSQL when BENCH_DATABASE_URL is
//    set) with --products products; later runs reuse it.
// 2. Service timings (tests/bench/catalog.bench.ts): suggestions, filtered listings, product page data.
// 3. HTTP on loopback with autocannon, bounded in time: SSR product and category pages against the same
//    HTML served from memory by a bare Node HTTP server; the ratio is the DESIGN §7 budget (≥ 0.3).
// 4. --flood (issue 10): 200 connections asking a category page with a new `?utm=` each time, and then
//    with a new price filter each time (pages that really differ and must be rendered), while a few
//    shoppers browse pages already cached; their latency, the server's resident memory and /api/health.
// 5. --discovery (issue 12): the sitemap index, every sitemap file and the product feed, timed to the last
//    byte as a crawler fetches them (gzip), with the server's peak resident memory.
// 6. --auth (issue 8): logins and token refreshes per second with the production password hash, and the
//    median time of a wrong password against an unknown address (use a fresh BENCH_DATA_DIR: an IP may
//    register 50 customers an hour, and each run registers 40).
// 7. --buy (issue 9): add-to-cart and order placement (with its payment) one at a time — p50/p95 against
//    DESIGN §7's 30 ms and 100 ms — and 90 placements from 16 connections at once (the address's limit
//    of 200 orders in 10 minutes bounds how many one run may place). Use a fresh BENCH_DATA_DIR each run.
// 8. --memory (issue 10): resident memory after start and after a warm-up (use --products 2000, the budget's size).
//    --spikes (issue 37): resident memory every 0.5 s from /api/ready through the first pages and a hostile burst.
// 9. --import (issue 23): the catalogue import at scale, scripts/bench-import.ts (--offers, --photos).
// 13. --against DIR (issue 59): uncached product and category pages per second beside another built checkout, alternating.
// 10. --cdn (issue 41): what a purge of every page costs the origin behind Varnish, scripts/bench-cdn.ts.
// 10. --photo-pages (issue 23): Lighthouse on category and product pages with real-sized photos, scripts/photo-pages.ts.
// 11. --ops-orders (issue 24): the console's order list at 100,000 orders (tests/bench/ops-orders.bench.ts).
// 12. --delivery (issue 38): the pickup step and the delivery options, warm, with both carriers' stand-ins (scripts/bench-delivery.ts).
// 14. --promotions (issue 56): the summary with 200 promotions and 10,000 codes, listing and search with and without them (scripts/bench-promotions.ts).
// 15. --reviews (issue 57): the listing with a million reviews' aggregates, product pages with 200 reviews each, against none (scripts/bench-reviews.ts).
// Results: bench-results/<database>.json and a Markdown summary on stdout for docs/performance.md.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { commandLine, wholeNumber } from './cli.ts';
import { serverProcess } from './server-flags.mjs';
import { freePort, waitFor } from './bench-http.mjs';

// --import (issue 23) is a benchmark of its own: scripts/bench-import.ts, given the other arguments.
// --photo-pages (issue 23): the category and product pages with real-sized photos, scripts/photo-pages.ts.
if (process.argv.includes('--photo-pages')) {
  const args = process.argv.slice(2).filter((a) => a !== '--photo-pages');
  process.exit(spawnSync(process.execPath, ['scripts/photo-pages.ts', ...args], { stdio: 'inherit' }).status ?? 1);
}
// --ops-orders (issue 24): the console's order list at 100,000 orders (tests/bench/ops-orders.bench.ts), in a
// database of its own: a new PGlite folder, and a new database on BENCH_DATABASE_URL's server when set.
if (process.argv.includes('--ops-orders')) {
  commandLine('npm run bench -- --ops-orders', { options: { 'ops-orders': { type: 'boolean' } } });
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  mkdirSync('bench-results', { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ops-'));
  const base = { ...process.env, SEED_PRODUCTS: '50', LOG_LEVEL: 'warn', DATA_DIR: dataDir };
  const bench = (env, out) =>
    spawnSync('npx', ['vitest', 'run', '--project', 'bench', 'tests/bench/ops-orders.bench.ts'], { stdio: 'inherit', env: { ...env, BENCH_OUT: out } }).status;
  let status = bench({ ...base, DATABASE_URL: '' }, 'bench-results/ops-orders-pglite.json');
  rmSync(dataDir, { recursive: true, force: true });
  if (status === 0 && process.env.BENCH_DATABASE_URL) {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
    await admin.connect();
    const name = `bench_ops_${Date.now().toString(36)}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.BENCH_DATABASE_URL);
    url.pathname = `/${name}`;
    status = bench({ ...base, DATABASE_URL: url.href }, 'bench-results/ops-orders-postgres.json');
    await admin.query(`DROP DATABASE ${name}`);
    await admin.end();
  }
  process.exit(status ?? 1);
}
// --delivery (issue 38): the pickup step and the delivery options, warm, scripts/bench-delivery.ts.
if (process.argv.includes('--delivery')) {
  const args = process.argv.slice(2);
  process.exit(spawnSync(process.execPath, ['scripts/bench-delivery.ts', ...args], { stdio: 'inherit' }).status ?? 1);
}
// --against DIR (issue 59): uncached pages per second beside another built checkout, scripts/bench-against.mjs.
// --promotions (issue 56): the summary with 200 promotions and 10,000 codes, scripts/bench-promotions.ts.
if (process.argv.includes('--reviews')) {
  process.exit(spawnSync(process.execPath, ['scripts/bench-reviews.ts', ...process.argv.slice(2)], { stdio: 'inherit' }).status ?? 1);
}
if (process.argv.includes('--promotions')) {
  process.exit(spawnSync(process.execPath, ['scripts/bench-promotions.ts', ...process.argv.slice(2)], { stdio: 'inherit' }).status ?? 1);
}
if (process.argv.includes('--against')) {
  process.exit(spawnSync(process.execPath, ['scripts/bench-against.mjs', ...process.argv.slice(2)], { stdio: 'inherit' }).status ?? 1);
}
if (process.argv.includes('--cdn')) {
  const args = process.argv.slice(2).filter((a) => a !== '--cdn');
  process.exit(spawnSync(process.execPath, ['scripts/bench-cdn.ts', ...args], { stdio: 'inherit' }).status ?? 1);
}
if (process.argv.includes('--import')) {
  const args = process.argv.slice(2).filter((a) => a !== '--import');
  process.exit(spawnSync(process.execPath, ['scripts/bench-import.ts', ...args], { stdio: 'inherit' }).status ?? 1);
}

const cli = commandLine(
  'npm run bench -- [--products N] [--duration S] [--connections N] [--skip-http] [--skip-services] [--flood] [--discovery] [--auth] [--buy] [--memory] [--spikes [--burst-connections N]] [--uncached-only] | --import … | --cdn … | --photo-pages … | --ops-orders',
  {
    options: {
      products: { type: 'string', default: '100000' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '16' },
      'skip-http': { type: 'boolean', default: false },
      'skip-services': { type: 'boolean', default: false },
      flood: { type: 'boolean', default: false },
      discovery: { type: 'boolean', default: false },
      'uncached-only': { type: 'boolean', default: false },
      auth: { type: 'boolean', default: false },
      buy: { type: 'boolean', default: false },
      memory: { type: 'boolean', default: false },
      spikes: { type: 'boolean', default: false },
      'burst-connections': { type: 'string', default: '32' },
    },
  },
);
const values = cli.values;
const products = wholeNumber(cli, '--products', values.products, { min: 1, max: 1_000_000 });
const duration = wholeNumber(cli, '--duration', values.duration, { min: 1 });
const connections = wholeNumber(cli, '--connections', values.connections, { min: 1 });
const burstConnections = wholeNumber(cli, '--burst-connections', values['burst-connections'], { min: 1 });
const outDir = 'bench-results';
mkdirSync(outDir, { recursive: true });
process.env.ASTRO_TELEMETRY_DISABLED = '1';

const targets = [{ kind: 'pglite', env: { DATA_DIR: process.env.BENCH_DATA_DIR ?? 'data-bench', DATABASE_URL: '' } }];
if (process.env.BENCH_DATABASE_URL) targets.push({ kind: 'postgres', env: { DATABASE_URL: process.env.BENCH_DATABASE_URL } });

function run(command, args, env) {
  const status = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status;
  if (status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${status})`);
}

async function productCount(target) {
  if (target.kind === 'postgres') {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: target.env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM products`).catch(() => ({ rows: [{ n: 0 }] }));
      return rows[0].n;
    } finally {
      await client.end();
    }
  }
  const marker = `${target.env.DATA_DIR}/bench-products`;
  return existsSync(marker) ? Number(readFileSync(marker, 'utf8')) : 0;
}

async function ensureSeeded(target) {
  if ((await productCount(target)) === products) return;
  console.log(`\n— seeding ${products} products into ${target.kind}`);
  run('node', ['scripts/seed.ts', '--products', String(products)], target.env);
  if (target.kind === 'pglite') writeFileSync(`${target.env.DATA_DIR}/bench-products`, String(products));
}

function load(url, paths, options = {}) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration,
        // As browsers ask: the shop keeps cached pages compressed (a client that takes neither gets them unpacked).
        headers: { 'accept-encoding': 'gzip, deflate, br' },
        requests: paths.map((path) => ({ method: 'GET', path })),
        ...options,
      },
      (error, result) =>
        error
          ? reject(error)
          : resolve({
              rps: Math.round(result.requests.average),
              p50: result.latency.p50,
              p99: result.latency.p99,
              errors: result.errors + result.non2xx,
              timeouts: result.timeouts,
            }),
    );
  });
}

/** The server process's resident memory in MB (Linux). */
function residentMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

async function healthMs(base) {
  const started = performance.now();
  await (await fetch(`${base}/api/health`)).arrayBuffer();
  return Math.round(performance.now() - started);
}

/** The process's peak resident memory while it runs: sampled every `everyMs` until `stop()`. */
function peakMemory(pid, everyMs) {
  let peak = residentMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, residentMb(pid))), everyMs);
  return {
    stop() {
      clearInterval(sampler);
      return peak;
    },
  };
}

/**
 * A flood of distinct addresses for one category page (`make(i)` gives the i-th query string) from 200
 * connections, while 4 connections browse pages already cached; memory sampled every 250 ms.
 */
async function flood(base, pid, categoryPath, cachedPaths, make) {
  let i = 0;
  const memory = peakMemory(pid, 250);
  const before = residentMb(pid);
  const [attack, shoppers] = await Promise.all([
    load(base, [categoryPath], {
      connections: 200,
      timeout: 10,
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${categoryPath}?${make(i++)}` }) }],
    }),
    load(base, cachedPaths, { connections: 4 }),
  ]);
  const peak = memory.stop();
  const health = await healthMs(base);
  global.gc?.();
  await new Promise((r) => setTimeout(r, 2000));
  return { attack, shoppers, distinct: i, memoryMb: { before, peak, after: residentMb(pid) }, healthMsAfter: health };
}

/**
 * --memory: the server's resident memory once its catalogue index is built, and after a warm-up of two
 * passes over the home page, 240 product pages, every category page, the brands page and a search, as a
 * browser asks them (compressed): 3 s after, and 12 s after, when the server has released what it can.
 */
async function memoryAfterWarmUp(base, pid, productPaths, categoryPaths) {
  const start = residentMb(pid);
  const paths = ['/', ...productPaths, ...categoryPaths, '/brands', `/product/search/${encodeURIComponent('платье')}`];
  const memory = peakMemory(pid, 100);
  for (let pass = 0; pass < 2; pass++)
    for (const path of paths) await (await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'br, gzip' } })).arrayBuffer();
  const peak = memory.stop();
  await new Promise((r) => setTimeout(r, 3000));
  const after = residentMb(pid);
  // The server gives memory back once quiet for 5 s (src/lib/memory-release.ts, checked every 5 s).
  await new Promise((r) => setTimeout(r, 9000));
  return { start, peak, after, quiet: residentMb(pid), pages: paths.length * 2 };
}

/** Resident memory sampled every `everyMs` into a timeline ({ s, mb }) until `stop()`. */
function memoryTimeline(pid, everyMs) {
  const started = performance.now();
  const samples = [];
  const sample = () => samples.push({ s: Math.round((performance.now() - started) / 100) / 10, mb: residentMb(pid) });
  sample();
  const sampler = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(sampler);
      sample();
      return samples;
    },
  };
}

/** A timeline's peak, and the first second after its peak from which it stays under `limitMb` (null: never). */
function spikeOf(samples, limitMb) {
  const peak = samples.reduce((top, x) => (x.mb > top.mb ? x : top), samples[0]);
  const after = samples.filter((x) => x.s >= peak.s);
  const under = after.findIndex((x, i) => after.slice(i).every((y) => y.mb < limitMb));
  return { peakMb: peak.mb, peakAtS: peak.s, underLimitAfterS: under < 0 ? null : Math.round((after[under].s - peak.s) * 10) / 10 };
}

/**
 * --spikes (issue 37): the server's resident memory sampled every 0.5 s from the moment it is ready. First
 * the first renders of home, a category, a product, /brands and /blog, all at once, as the first visitors
 * of a fresh process ask them (compressed), then 12 s of quiet; then a 5 s burst of hostile requests from
 * 32 connections (--burst-connections) — 1 MB bodies to the API, 8 KB query strings, a flood of distinct addresses — and 12 s of
 * quiet. Budget: the peak under 300 MB and back under it within 10 s, both times.
 */
async function memorySpikes(base, pid, productPath, categoryPath) {
  const browse = (path) => fetch(`${base}${path}`, { headers: { 'accept-encoding': 'br, gzip' } }).then((r) => r.arrayBuffer());
  const quiet = () => new Promise((r) => setTimeout(r, 12_000));
  const first = memoryTimeline(pid, 500);
  await Promise.all(['/', categoryPath, productPath, '/brands', '/blog'].map(browse));
  await quiet();
  const firstPages = first.stop();

  const megabyte = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
  const long = 'q'.repeat(8 * 1024);
  let i = 0;
  const hostile = [
    () => fetch(`${base}/api/v1/ecommerce-core/redemption-request`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: megabyte }),
    () => fetch(`${base}/api/v1/ecommerce-core/auth/customer-login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: megabyte }),
    () => fetch(`${base}${categoryPath}?utm_source=${long}&n=${i}`),
    () => fetch(`${base}/product/search/${encodeURIComponent(`платье ${i}`)}`),
    () => fetch(`${base}${categoryPath}?page=${(i % 40) + 1}&price_min=${1000 + i}`),
    () => fetch(`${base}/p/${100_000 + i}/nothing-${i}`),
  ];
  const burst = memoryTimeline(pid, 500);
  const until = performance.now() + 5000;
  let sent = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: burstConnections }, async () => {
      while (performance.now() < until) {
        const call = hostile[i++ % hostile.length];
        sent++;
        await call()
          .then((r) => r.arrayBuffer())
          .catch(() => failed++);
      }
    }),
  );
  await quiet();
  const afterBurst = burst.stop();
  return { firstPages, afterBurst, burst: { sent, failed }, spikes: { firstPages: spikeOf(firstPages, 300), burst: spikeOf(afterBurst, 300) } };
}

/** One GET read to the end as a crawler would (gzip): time to the last byte and the size unpacked. */
async function timedGet(url) {
  const started = performance.now();
  const res = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
  const bytes = (await res.arrayBuffer()).byteLength;
  return { status: res.status, ms: Math.round(performance.now() - started), kb: Math.round(bytes / 1024) };
}

/** Issue 12: every sitemap file and the product feed (written on the first request, then served), peak memory. */
async function discovery(base, pid) {
  const before = residentMb(pid);
  const memory = peakMemory(pid, 100);
  try {
    const index = await timedGet(`${base}/sitemap.xml`);
    const text = await (await fetch(`${base}/sitemap.xml`)).text();
    const files = [];
    for (const [, loc] of text.matchAll(/<loc>([^<]+)<\/loc>/g)) {
      const path = new URL(loc).pathname;
      files.push({ path, ...(await timedGet(base + path)) });
    }
    const feedFirst = await timedGet(`${base}/feeds/yandex.yml`);
    const feedServed = await timedGet(`${base}/feeds/yandex.yml`);
    return { index, files, feedFirst, feedServed, memoryMb: { before, peak: memory.stop() } };
  } finally {
    memory.stop();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Issue 8: logins and refreshes per second with the password hash at its production cost (argon2id,
 * 19 MiB, t=2), and the time a wrong password and an unknown address take, side by side.
 */
async function authBench(base) {
  const json = { 'content-type': 'application/json' };
  const password = 'скамейка у пруда в парке';
  const emails = [];
  // 40 customers: under the 50 registrations an IP may make in an hour.
  for (let i = 0; i < 40; i++) {
    const email = `bench.${Date.now().toString(36)}.${i}@example.ru`;
    const res = await fetch(`${base}/api/v1/ecommerce-core/auth/customer-registration`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, phone: '+7 (999) 000-00-00', password }),
    });
    if (res.status !== 201) throw new Error(`registration answered ${res.status}`);
    emails.push(email);
  }
  const timeLogin = async (email, pw) => {
    const started = performance.now();
    const res = await fetch(`${base}/api/v1/ecommerce-core/auth/customer-login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, password: pw }),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  };
  // One wrong try per address, so no address reaches its lock; 20 of each, interleaved.
  const wrong = [];
  const unknown = [];
  for (let i = 0; i < 20; i++) {
    wrong.push((await timeLogin(emails[i], 'не тот пароль')).ms);
    unknown.push((await timeLogin(`nobody.${i}.${Date.now()}@example.ru`, 'не тот пароль')).ms);
  }
  let k = 0;
  const login = await load(base, [], {
    requests: [
      {
        method: 'POST',
        path: '/api/v1/ecommerce-core/auth/customer-login',
        headers: json,
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ email: emails[k++ % emails.length], password }) }),
      },
    ],
  });
  // Each connection refreshes its own login again and again, always with the newest token, as a tab does.
  const tokens = [];
  for (let i = 0; i < connections; i++)
    tokens.push(
      (
        await (
          await fetch(`${base}/api/v1/ecommerce-core/auth/customer-login`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ email: emails[i % emails.length], password }),
          })
        ).json()
      ).data.access_token,
    );
  let t = 0;
  const refresh = await load(base, [], {
    requests: [
      {
        method: 'GET',
        path: '/api/v1/ecommerce-core/auth/customer-refresh-auth',
        setupRequest: (req, context) => {
          context.token ??= tokens[t++ % tokens.length];
          return { ...req, headers: { ...req.headers, authorization: `Bearer ${context.token}` } };
        },
        onResponse: (status, body, context) => {
          if (status === 200) context.token = JSON.parse(body).data.access_token || context.token;
        },
      },
    ],
  });
  return { login, refresh, wrongPasswordMs: Math.round(median(wrong)), unknownEmailMs: Math.round(median(unknown)) };
}

const percentile = (values, p) => Math.round([...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] * 10) / 10;

/**
 * Issue 9: what a shopper waits for when adding to the cart and placing an order (the payment at the test
 * provider included), measured one request at a time, and placements per second under 16 connections.
 */
async function buyBench(base) {
  const json = { 'content-type': 'application/json' };
  const items = [];
  for (let page = 1; items.length < 400; page++) {
    const list = await (await fetch(`${base}/api/v1/ecommerce-core/products?per_page=60&page=${page}`)).json();
    if (list.data.products.length === 0) break;
    for (const p of list.data.products) {
      const product = (await (await fetch(`${base}/api/v1/ecommerce-core/product/${p.id}`)).json()).data;
      const variant = product.variants.find((v) => v.available && v.max_item >= 1);
      if (variant) items.push({ id: p.id, variant_code: variant.code });
    }
  }
  const tokens = [];
  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${base}/api/v1/ecommerce-core/auth/customer-registration`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: `buy.${Date.now().toString(36)}.${i}@example.ru`, phone: '+7 (999) 000-00-00', password: 'корзина и заказ на скорость' }),
    });
    tokens.push((await res.json()).data.access_token);
  }
  const timed = async (request) => {
    const started = performance.now();
    const res = await request();
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  };
  const add = [];
  let addErrors = 0;
  for (let i = 0; i < 300; i++) {
    const token = tokens[i % tokens.length];
    const item = items[(i * 7) % items.length];
    const r = await timed(() =>
      fetch(`${base}/api/v1/ecommerce-core/customer/cart/store-cart-item`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${token}` },
        body: JSON.stringify({ item: { ...item, quantity: 1, uid: `b${i}` } }),
      }),
    );
    if (r.status === 200) add.push(r.ms);
    else addErrors++;
  }
  const contact = { name: 'Анна Иванова', email: 'bench@example.ru', phone: '+7 (999) 123-45-67' };
  const delivery = { method: 'courier', city: 'Москва', address: 'Тверская, 7' };
  const place = [];
  let placeErrors = 0;
  // An address may place 200 orders in 10 minutes (the endpoint's limit): 100 one at a time, 90 at once.
  for (let i = 0; i < 100; i++) {
    const r = await timed(() =>
      fetch(`${base}/api/v1/ecommerce-core/checkout/place-order`, {
        method: 'POST',
        headers: { ...json, 'idempotency-key': `bench-${Date.now()}-${i}` },
        body: JSON.stringify({ items: [{ ...items[i % items.length], quantity: 1 }], contact, delivery }),
      }),
    );
    if (r.status === 201) place.push(r.ms);
    else placeErrors++;
  }
  let k = 0;
  const concurrent = await load(base, [], {
    amount: 90,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/ecommerce-core/checkout/place-order',
        setupRequest: (req) => {
          const n = k++;
          return {
            ...req,
            headers: { ...req.headers, ...json, 'idempotency-key': `bench-c-${Date.now()}-${n}` },
            body: JSON.stringify({ items: [{ ...items[(n * 13) % items.length], quantity: 1 }], contact, delivery }),
          };
        },
      },
    ],
  });
  return {
    addToCart: { n: add.length, errors: addErrors, p50: percentile(add, 50), p95: percentile(add, 95) },
    placement: { n: place.length, errors: placeErrors, p50: percentile(place, 50), p95: percentile(place, 95) },
    concurrent,
  };
}

// The bare server lives in its own process, like the shop's, so neither shares a CPU with autocannon's loop.
const BARE = `
const http = require('node:http');
const pages = JSON.parse(require('node:fs').readFileSync(process.env.PAGES, 'utf8'));
const bodies = Object.fromEntries(Object.entries(pages).map(([k, v]) => [k, Buffer.from(v)]));
http.createServer((req, res) => {
  const body = req.url.startsWith('/c/') ? bodies.category : bodies.product;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));`;

/** At least `count` product addresses, newest first, from listing page `firstPage` on (60 a page). */
async function newestProductPaths(base, firstPage, count) {
  const paths = [];
  for (let page = firstPage; paths.length < count; page++) {
    const res = await (await fetch(`${base}/api/v1/ecommerce-core/products?per_page=60&sort=new&page=${page}`)).json();
    paths.push(...res.data.products.map((p) => p.url));
  }
  return paths;
}

/** One server on `target`, measured as `mode` says: 'pages' (default), 'flood', 'discovery', 'auth', 'buy' or 'memory'. */
async function httpBench(target, extraEnv = {}, mode = 'pages') {
  const port = await freePort();
  const { command, args, env } = serverProcess(
    { ...target.env, ...extraEnv, HOST: '127.0.0.1', PORT: String(port) },
    process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean),
  );
  const server = spawn(command, args, {
    env,
    stdio: process.env.BENCH_VERBOSE ? 'inherit' : 'ignore',
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/api/health`);
    // Ready: the catalogue index is built and the migrations applied; what a fresh process holds then.
    if (mode === 'spikes') await waitFor(`${base}/api/ready`);
    // The first listing builds the catalogue index; shoppers after it never wait for that.
    await waitFor(`${base}/api/v1/ecommerce-core/products?per_page=60`);
    if (mode === 'discovery') return await discovery(base, server.pid);
    if (mode === 'auth') return await authBench(base);
    if (mode === 'buy') return await buyBench(base);
    if (mode === 'spikes') {
      const [productPath] = await newestProductPaths(base, 1, 1);
      const tree = (await (await fetch(`${base}/api/v1/ecommerce-core/mega-categories`)).json()).data;
      return await memorySpikes(base, server.pid, productPath, tree[0].childs.data[0].url);
    }
    const productPaths = await newestProductPaths(base, 1, mode === 'memory' ? 240 : 200);
    const tree = (await (await fetch(`${base}/api/v1/ecommerce-core/mega-categories`)).json()).data;
    const categoryPaths = [];
    const walk = (nodes) => nodes.forEach((n) => (categoryPaths.push(n.url), walk(n.childs.data)));
    walk(tree);
    if (mode === 'memory') return await memoryAfterWarmUp(base, server.pid, productPaths, categoryPaths);
    const pages = {
      product: await (await fetch(`${base}${productPaths[0]}`)).text(),
      category: await (await fetch(`${base}${categoryPaths[0]}`)).text(),
    };
    const barePort = await freePort();
    writeFileSync(`${outDir}/pages.json`, JSON.stringify(pages));
    const bare = spawn('node', ['-e', BARE], {
      env: { ...process.env, PAGES: `${outDir}/pages.json`, PORT: String(barePort) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise((r) => bare.stdout.once('data', r));
    try {
      // Steady state, as under real traffic: every page of the rotation has been seen once, so each is
      // re-rendered once per PAGE_CACHE_SECONDS during the measurement (with the cache off, at every request).
      for (const path of [...productPaths, ...categoryPaths]) await (await fetch(`${base}${path}`)).arrayBuffer();
      if (mode === 'flood') {
        const cached = productPaths.slice(0, 20);
        const quiet = await load(base, cached, { connections: 4 });
        return {
          quiet,
          utm: await flood(base, server.pid, categoryPaths[0], cached, (i) => `utm_source=flood${i}`),
          filters: await flood(base, server.pid, categoryPaths[0], cached, (i) => `price_min=${1000 + i}`),
        };
      }
      const result = {
        productPage: await load(base, productPaths),
        categoryPage: await load(base, categoryPaths),
        bareProduct: await load(`http://127.0.0.1:${barePort}`, ['/p/1']),
        bareCategory: await load(`http://127.0.0.1:${barePort}`, ['/c/1']),
        htmlBytes: { product: Buffer.byteLength(pages.product), category: Buffer.byteLength(pages.category) },
      };
      result.ratio = {
        product: Math.round((result.productPage.rps / result.bareProduct.rps) * 100) / 100,
        category: Math.round((result.categoryPage.rps / result.bareCategory.rps) * 100) / 100,
      };
      if (extraEnv.PAGE_CACHE_SECONDS === '0') {
        // Pages whose data no cache holds: 6,000 products never asked (more than the 2,000 the server
        // keeps, so each is read from the database), and category listings under a price filter new at
        // every request (computed afresh; their cards are mostly kept).
        const coldPaths = await newestProductPaths(base, 5, 6_000);
        // One counter for all connections: autocannon's `requests` list is walked by each connection from
        // its start, so 16 connections would ask every product 16 times.
        let next = 0;
        result.coldProductPage = await load(base, [], {
          requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: coldPaths[next++ % coldPaths.length] }) }],
        });
        let n = 0;
        result.coldCategoryPage = await load(base, [], {
          requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${categoryPaths[n % categoryPaths.length]}?price_min=${1_000 + n++}` }) }],
        });
      }
      return result;
    } finally {
      bare.kill();
    }
  } finally {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

if (!values['skip-http'] && !existsSync('dist/server/entry.mjs')) run('npm', ['run', 'build'], {});
const summary = [];
for (const target of targets) {
  await ensureSeeded(target);
  const out = `${outDir}/${target.kind}.json`;
  const result = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
  if (!values['skip-services']) {
    console.log(`\n— service timings on ${target.kind}`);
    run('npx', ['vitest', 'run', '--project', 'bench', 'tests/bench/catalog.bench.ts'], { ...target.env, BENCH_OUT: `${outDir}/${target.kind}-services.json` });
    result.services = JSON.parse(readFileSync(`${outDir}/${target.kind}-services.json`, 'utf8'));
  }
  if (values.flood) {
    console.log(`\n— flood on ${target.kind} (${duration} s each)`);
    result.flood = await httpBench(target, {}, 'flood');
    const f = result.flood;
    const row = (name, run) =>
      `| ${target.kind} | ${name} | ${run.attack.rps} (${run.attack.errors} refused) | ${run.attack.p99} ms | ${run.attack.timeouts} | ${run.shoppers.rps} rps, p99 ${run.shoppers.p99} ms, ${run.shoppers.errors + run.shoppers.timeouts} failed | ${run.memoryMb.before} → ${run.memoryMb.peak} → ${run.memoryMb.after} MB | ${run.healthMsAfter} ms |`;
    console.log(`\nCached pages alone (4 connections): p50 ${f.quiet.p50} ms, p99 ${f.quiet.p99} ms`);
    console.log(
      '| database | flood | answers/s (of them 503) | p99 | timeouts | shoppers on cached pages meanwhile | memory before → peak → after | /api/health after |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    console.log(row('new ?utm= each time', f.utm));
    console.log(row('new price filter each time', f.filters));
  }
  if (values.discovery) {
    console.log(`\n— sitemaps and the product feed on ${target.kind}`);
    const d = (result.discovery = await httpBench(target, {}, 'discovery'));
    const slowest = d.files.reduce((a, b) => (b.ms > a.ms ? b : a), d.files[0]);
    console.log(
      `| ${target.kind} | ${d.index.ms} ms | ${d.files.length} files, slowest ${slowest.path} ${slowest.ms} ms (${slowest.kb} KB), all ${d.files.reduce((s, f) => s + f.ms, 0)} ms | written and sent ${d.feedFirst.ms} ms, then ${d.feedServed.ms} ms (${d.feedServed.kb} KB) | ${d.memoryMb.before} → ${d.memoryMb.peak} MB |`,
    );
  }
  if (values.memory) {
    console.log(`\n— resident memory on ${target.kind} (${products} products)`);
    const m = (result.memory = await httpBench(target, {}, 'memory'));
    console.log('| database | products | after start | peak during warm-up | 3 s after | 12 s after (quiet) |');
    console.log(`| ${target.kind} | ${products} | ${m.start} MB | ${m.peak} MB | ${m.after} MB | ${m.quiet} MB |`);
  }
  if (values.spikes) {
    console.log(`\n— memory spikes on ${target.kind} (${products} products), sampled every 0.5 s`);
    const m = (result.spikes = await httpBench(target, {}, 'spikes'));
    const line = (samples) => samples.map((x) => `${x.s}s ${x.mb}`).join(', ');
    console.log(`first pages: ${line(m.firstPages)}`);
    console.log(`hostile burst (${m.burst.sent} requests, ${m.burst.failed} failed): ${line(m.afterBurst)}`);
    console.log('| database | products | moment | peak | back under 300 MB |');
    console.log('|---|---|---|---|---|');
    for (const [moment, x] of Object.entries(m.spikes))
      console.log(
        `| ${target.kind} | ${products} | ${moment} | ${x.peakMb} MB at ${x.peakAtS} s | ${x.underLimitAfterS === null ? 'not within the run' : `${x.underLimitAfterS} s after the peak`} |`,
      );
  }
  if (values.auth) {
    console.log(`\n— login and refresh on ${target.kind} (${duration} s each, ${connections} connections)`);
    const a = (result.auth = await httpBench(target, {}, 'auth'));
    console.log('| database | logins/s | login p50 / p99 | refreshes/s | refresh p50 / p99 | wrong password / unknown e-mail (median) |');
    console.log(
      `| ${target.kind} | ${a.login.rps} (${a.login.errors} not 2xx) | ${a.login.p50} / ${a.login.p99} ms | ${a.refresh.rps} (${a.refresh.errors} not 2xx) | ${a.refresh.p50} / ${a.refresh.p99} ms | ${a.wrongPasswordMs} / ${a.unknownEmailMs} ms |`,
    );
  }
  if (values.buy) {
    console.log(`\n— add to cart and place an order on ${target.kind} (one at a time; then 90 orders from ${connections} connections)`);
    const b = (result.buy = await httpBench(target, {}, 'buy'));
    console.log(`| database | add to cart p50 / p95 | placement p50 / p95 | placements/s (${connections} connections) | p50 / p99 |`);
    console.log('|---|---|---|---|---|');
    console.log(
      `| ${target.kind} | ${b.addToCart.p50} / ${b.addToCart.p95} ms (${b.addToCart.errors} refused) | ${b.placement.p50} / ${b.placement.p95} ms (${b.placement.errors} refused) | ${b.concurrent.rps} (${b.concurrent.errors} not 2xx) | ${b.concurrent.p50} / ${b.concurrent.p99} ms |`,
    );
  }
  if (!values['skip-http'] && !values.flood && !values.discovery && !values.auth && !values.buy && !values.memory && !values.spikes) {
    console.log(`\n— HTTP on ${target.kind} (${duration} s each, ${connections} connections)`);
    if (!values['uncached-only']) result.http = await httpBench(target);
    // The same run with the page cache off: what every render costs when nothing is reused.
    const uncached = await httpBench(target, { PAGE_CACHE_SECONDS: '0' });
    result.httpUncached = {
      productPage: uncached.productPage,
      categoryPage: uncached.categoryPage,
      coldProductPage: uncached.coldProductPage,
      coldCategoryPage: uncached.coldCategoryPage,
    };
  }
  result.machine = { cpus: (await import('node:os')).cpus().length, node: process.version, at: new Date().toISOString() };
  writeFileSync(out, JSON.stringify(result, null, 2));
  summary.push([target.kind, result]);
}

console.log(
  '\nWith PAGE_CACHE_SECONDS=0: ' +
    summary
      .map(([k, r]) => {
        const u = r.httpUncached;
        return u
          ? `${k} product ${u.productPage.rps} rps, category ${u.categoryPage.rps} rps; first asked: product ${u.coldProductPage.rps} rps (p99 ${u.coldProductPage.p99} ms), new price filter ${u.coldCategoryPage.rps} rps (p99 ${u.coldCategoryPage.p99} ms)`
          : k;
      })
      .join('; '),
);
console.log(
  '\n| database | suggestions p50 / p95 | search p50 / p95 | listing p50 / p95 | product p50 / p95 | SSR product rps (bare) | SSR category rps (bare) | ratio product / category |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const [kind, r] of summary) {
  const s = r.services;
  const h = r.http;
  const ms = (x) => (x ? `${x.p50} / ${x.p95} ms` : '—');
  console.log(
    `| ${kind} | ${ms(s?.suggestions)} | ${ms(s?.search)} | ${ms(s?.listing)} | ${ms(s?.product)} | ${h ? `${h.productPage.rps} (${h.bareProduct.rps})` : '—'} | ${h ? `${h.categoryPage.rps} (${h.bareCategory.rps})` : '—'} | ${h ? `${h.ratio.product} / ${h.ratio.category}` : '—'} |`,
  );
}
