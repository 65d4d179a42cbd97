// The metrics every part of the shop reports to (DESIGN §2 lib/metrics), in Prometheus's text format at
// /metrics through prom-client (docs/operations.md "Metrics"). The front (scripts/server.mjs, loaded from
// src/) counts requests; the server's bundle (dist/) counts orders, payments, mail, imports and jobs. Both
// copies of this module must report into one registry: it lives on a global. Labels are only ever from
// fixed sets — a route's pattern, never its path; no visitor's words, addresses or ids.
// Relative imports only.
import { AsyncLocalStorage } from 'node:async_hooks';
import client from 'prom-client';

const KEY = Symbol.for('brandshop.metrics');
const ROUTE = Symbol.for('brandshop.requestRoute');

function create() {
  const registry = new client.Registry();
  const registers = [registry];
  // Event-loop delay, resident memory, heap, handles, GC: prom-client's own process metrics.
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const counter = <const L extends string>(name: string, help: string, labelNames: readonly L[]) => new client.Counter({ name, help, labelNames, registers });
  return {
    registry,
    httpRequests: counter('shop_http_requests_total', 'HTTP requests answered, by route pattern, method and status', ['route', 'method', 'status']),
    httpDuration: new client.Histogram({
      name: 'shop_http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by route pattern and method',
      labelNames: ['route', 'method'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    orders: counter(
      'shop_orders_total',
      'Orders by event: placed, paid, failed (payment declined), cancelled (by the shopper, a manager or the payment timeout)',
      ['event'],
    ),
    paymentErrors: counter('shop_payment_provider_errors_total', 'Calls to the payment provider that failed (after their retries), by provider and operation', [
      'provider',
      'operation',
    ]),
    paymentRetries: counter('shop_payment_provider_retries_total', 'Calls to the payment provider made again after a failure, by provider and operation', [
      'provider',
      'operation',
    ]),
    carrierCalls: counter(
      'shop_carrier_calls_total',
      'Questions to a delivery carrier by carrier, operation (cities, points, quotes) and outcome (ok, cached, refused, unavailable: checkout fell back to the fixed methods)',
      ['carrier', 'operation', 'outcome'],
    ),
    mail: counter('shop_mail_total', 'Mail deliveries by outcome: sent, failed (kept in the outbox for a retry)', ['outcome']),
    importRuns: counter(
      'shop_import_runs_total',
      'Catalogue import runs the shop made, by kind (yml, commerceml, exchange: a 1C exchange) and outcome (done, failed)',
      ['kind', 'outcome'],
    ),
    cdnPurgeRequests: counter('shop_cdn_purge_requests_total', 'Purge requests to the CDN by adapter (xkey, cloudflare) and outcome (ok, failed)', [
      'adapter',
      'outcome',
    ]),
    cdnPurgedTags: counter('shop_cdn_purged_tags_total', 'Cache tags the CDN was told to purge, by adapter', ['adapter']),
    jobRuns: counter('shop_job_runs_total', 'Housekeeping job runs by job and outcome (ok, failed)', ['job', 'outcome']),
    jobDuration: new client.Histogram({
      name: 'shop_job_duration_seconds',
      help: 'Housekeeping job run time',
      labelNames: ['job'] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers,
    }),
    jobItems: counter('shop_job_items_total', 'What housekeeping jobs did: orders released, rows deleted, mails retried, payments polled or refunded', ['job']),
    jobLastSuccess: new client.Gauge({
      name: 'shop_job_last_success_timestamp_seconds',
      help: 'When each housekeeping job last ran without error (Unix time)',
      labelNames: ['job'] as const,
      registers,
    }),
  };
}

type Metrics = ReturnType<typeof create>;
const holder = globalThis as { [KEY]?: Metrics };

/** This process's metrics (made on first use, shared by the front and the bundle). */
export function metrics(): Metrics {
  return (holder[KEY] ??= create());
}

type Reading<L extends string> = { labels?: Partial<Record<L, string>>; value: number };

/**
 * A metric whose values are read when Prometheus scrapes: the caches' counters, the catalogue index, the
 * database pool, the outbox. A counter's reading is its running total (a cache's hits since the process
 * started). An error leaves the metric empty for that scrape (the database is closing, say).
 */
export function readAtScrape<L extends string>(
  kind: 'counter' | 'gauge',
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Promise<Reading<L>[]> | Reading<L>[],
): void {
  const { registry } = metrics();
  // The bundle may be loaded again (tests): the newest reader wins.
  if (registry.getSingleMetric(name)) registry.removeSingleMetric(name);
  // Both kinds are emptied and filled the same way: after reset(), inc() of a reading sets it.
  async function collect(this: { reset(): void; inc(labels: Partial<Record<L, string>>, value: number): void; inc(value: number): void }) {
    this.reset();
    try {
      for (const { labels, value } of await read()) {
        if (labels) this.inc(labels, value);
        else this.inc(value);
      }
    } catch {
      // Not known this time; the next scrape asks again.
    }
  }
  const options = { name, help, labelNames, registers: [registry], collect };
  if (kind === 'gauge') new client.Gauge(options);
  else new client.Counter(options);
}

/** The text Prometheus reads, and its content type. */
export async function exposition(): Promise<{ body: string; contentType: string }> {
  const { registry } = metrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}

/** What the front learns of a request from Astro: the pattern of the route that answered it. */
export interface RouteSlot {
  route?: string;
}

const shared = globalThis as { [ROUTE]?: AsyncLocalStorage<RouteSlot> };
const routeSlots = (shared[ROUTE] ??= new AsyncLocalStorage<RouteSlot>());

/** Runs Astro's handler with a slot the middleware writes the route's pattern into. */
export function withRouteSlot<T>(slot: RouteSlot, run: () => T): T {
  return routeSlots.run(slot, run);
}

/** The middleware's part: the route's pattern ('/product/[slug]'), never the path a visitor asked for. */
export function noteRoute(pattern: string): void {
  const slot = routeSlots.getStore();
  if (slot) slot.route = pattern;
}
