// /metrics (docs/operations.md "Metrics"): Prometheus's text format behind METRICS_TOKEN, off (404)
// without one; requests counted by route pattern, never by the path a visitor typed; the caches, the
// catalogue index, the database, the event loop and memory, orders, mail and the housekeeping jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shared } from '../support/shared-shop.ts';
import { inStock, placeGuestOrder } from '../support/in-stock.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ label: 'metrics', seedProducts: 40, env: { METRICS_TOKEN: TOKEN, JOBS_EVERY_SECONDS: '1' } });
});
afterAll(async () => {
  await server?.stop();
});

const scrape = async () => {
  const res = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
};

/** Every label value of every sample line. */
const labelValues = (text: string) =>
  text
    .split('\n')
    .filter((line) => !line.startsWith('#') && line.includes('{'))
    .flatMap((line) => [...line.slice(line.indexOf('{') + 1, line.lastIndexOf('}')).matchAll(/\w+="((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? ''));

describe('/metrics', () => {
  it('is off (404) when METRICS_TOKEN is unset', async () => {
    const res = await fetch(`${shared().baseUrl}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('shop_http_requests_total');
  });

  it.each([
    ['no token', {}],
    ['another token', { authorization: 'Bearer metrics-token-for-the-tests-0123456788' }],
    ['the token as Basic', { authorization: `Basic ${TOKEN}` }],
    ['the token without its scheme', { authorization: TOKEN }],
  ])('answers 401 with %s', async (_, headers: Record<string, string>) => {
    const res = await fetch(`${server.baseUrl}/metrics`, { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await res.text()).not.toContain('shop_');
  });

  it('counts requests by route pattern, method and status — no raw paths, words or addresses in any label', async () => {
    const [item] = await inStock(server.baseUrl, 1);
    // A product page twice (a render, then the page cache), a search with personal text, a query string, a 404.
    const product = new URL(item!.url, server.baseUrl).pathname;
    for (const path of [product, product, '/product/search/ivan.petrov@example.ru +79991234567', '/c/women?utm_source=x&sort=price', '/no/such/page-123']) {
      await (await fetch(new URL(path, server.baseUrl))).arrayBuffer();
    }
    await fetch(`${server.baseUrl}/api/v1/ecommerce-core/product/${item!.id}`);
    const text = await scrape();
    expect(text).toMatch(/shop_http_requests_total\{route="\/p\/\[id\]\/\[\.\.\.slug\]",method="GET",status="200"\} [2-9]/);
    expect(text).toMatch(/shop_http_requests_total\{route="\/product\/search\/\[q\]",method="GET",status="200"\} 1/);
    expect(text).toMatch(/shop_http_request_duration_seconds_bucket\{le="0.1",route="\/p\/\[id\]\/\[\.\.\.slug\]",method="GET"\} \d/);
    expect(text).toMatch(/shop_http_requests_total\{route="\/api\/v1\/ecommerce-core\/product\/\[id\]",method="GET",status="200"\} [1-9]/);
    const values = labelValues(text);
    for (const value of values) {
      expect(value).not.toMatch(/@|\?|ivan|7999|127\.0\.0\.1|page-123|women/);
      expect(value).not.toBe(product);
    }
  });

  it('reports the caches, the catalogue index, the database, the process and the jobs', async () => {
    // The jobs' first runs come a few seconds after the start.
    let text = await scrape();
    for (let k = 0; k < 60 && !text.includes('shop_job_last_success_timestamp_seconds{job="delete-spent-rows"}'); k++) {
      await new Promise((r) => setTimeout(r, 500));
      text = await scrape();
    }
    for (const name of [
      'shop_cache_hits_total{cache="page"}',
      'shop_cache_misses_total{cache="page"}',
      'shop_cache_bytes{cache="page"}',
      'shop_catalogue_version',
      'shop_catalogue_index_age_seconds',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'shop_mail_outbox_depth{state="waiting"}',
      'shop_job_runs_total{job="release-unpaid-orders",outcome="ok"}',
      'shop_job_last_success_timestamp_seconds{job="delete-spent-rows"}',
    ]) {
      expect(text, name).toContain(name);
    }
    expect(text).toMatch(server.database.databaseUrl ? /shop_db_connections\{state="idle"\} \d/ : /shop_db_queue \d/);
    expect(Number(/^shop_catalogue_version (\d+)/m.exec(text)?.[1])).toBeGreaterThan(0);
  });

  it('counts orders placed', async () => {
    const before = Number(/^shop_orders_total\{event="placed"\} (\d+)/m.exec(await scrape())?.[1] ?? 0);
    const [item] = await inStock(server.baseUrl, 1, 4);
    expect((await placeGuestOrder(server.baseUrl, item!)).status).toBe(201);
    expect(Number(/^shop_orders_total\{event="placed"\} (\d+)/m.exec(await scrape())?.[1])).toBe(before + 1);
  });
});
