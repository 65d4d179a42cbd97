// The one in-process cache every server cache is made of (DESIGN §9): a lifetime, a bound in entries or
// bytes with least-recently-used eviction, one load at a time per key (single-flight), and hit/miss
// counters. Each request's hits, misses and load times travel back in its `Server-Timing` header
// (src/middleware.ts), so a slow page says which cache it missed.
// Relative imports only: scripts/server.mjs loads this file through Node's type stripping.
import { AsyncLocalStorage } from 'node:async_hooks';
import { loggableError, logger } from './log.ts';
import { readAtScrape } from './metrics.ts';

export interface CacheOptions<V> {
  /** Short and unique: it names the cache in Server-Timing and in the stats. */
  name: string;
  /** How long an entry is fresh; 0 keeps it until evicted. */
  ttlMs: number;
  maxEntries?: number;
  /** A bound on the sum of `sizeOf` over the entries. */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
  /** An expired entry is still answered while one reload runs in the background (nobody waits). */
  staleWhileRevalidate?: boolean;
  /**
   * For this long past its lifetime an expired entry may still be answered by `get(key, { whileLoading:
   * true })`, but only while its reload runs: the renewal of a popular page then sends one visitor to the
   * renderer instead of all of them, and nobody gets a value older than this.
   */
  graceMs?: number;
}

export interface CacheStats {
  name: string;
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  loads: number;
  evictions: number;
}

interface Entry<V> {
  value: V;
  at: number;
  bytes: number;
}

/** What one request did with the caches, for its Server-Timing header. */
interface RequestTimings {
  caches: Map<string, { hits: number; misses: number; loadMs: number }>;
}

// On a global, like the page cache: scripts/server.mjs loads this file from src/ while the server's
// bundle carries its own copy, and both must count into the same request and the same registry.
const shared = globalThis as { [key: symbol]: unknown };
const TIMINGS = Symbol.for('brandshop.cacheTimings');
const REGISTRY = Symbol.for('brandshop.caches');
const requestTimings = (shared[TIMINGS] ??= new AsyncLocalStorage<RequestTimings>()) as AsyncLocalStorage<RequestTimings>;
const registry = (shared[REGISTRY] ??= new Map<string, Cache<unknown, unknown>>()) as Map<string, Cache<unknown, unknown>>;

export class Cache<K, V> {
  readonly name: string;
  private readonly options: CacheOptions<V>;
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  private readonly entries = new Map<K, Entry<V>>();
  private readonly loading = new Map<K, Promise<V | undefined>>();
  private bytes = 0;
  private readonly counters = { hits: 0, misses: 0, loads: 0, evictions: 0 };

  constructor(options: CacheOptions<V>) {
    this.name = options.name;
    this.options = options;
    registry.set(options.name, this as Cache<unknown, unknown>);
  }

  /**
   * A fresh value, or undefined, counted as a miss unless `countMiss` is false (a first look whose miss
   * the caller passes on to a getOrLoad that counts it).
   */
  get(key: K, { now = Date.now(), countMiss = true, whileLoading = false }: { now?: number; countMiss?: boolean; whileLoading?: boolean } = {}): V | undefined {
    const entry = this.entries.get(key);
    if (entry && !this.expired(entry, now)) {
      this.touch(key, entry);
      this.count('hits');
      return entry.value;
    }
    const inGrace = entry !== undefined && this.withinGrace(entry, now);
    if (entry && inGrace && whileLoading && this.loading.has(key)) {
      this.count('hits');
      return entry.value;
    }
    if (entry && !this.options.staleWhileRevalidate && !inGrace) this.delete(key);
    if (countMiss) this.count('misses');
    return undefined;
  }

  /** The value if it is fresh or within its grace (for answers under load, when rendering is refused). */
  peekWithinGrace(key: K, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    return entry && this.withinGrace(entry, now) ? entry.value : undefined;
  }

  /** The value whatever its age (for stale-while-revalidate callers and reloads). */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: K, value: V, now = Date.now()): void {
    const bytes = this.options.sizeOf?.(value) ?? 0;
    // One entry may not push out most of the others.
    if (this.options.maxBytes !== undefined && bytes > this.options.maxBytes / 8) return;
    this.delete(key);
    this.entries.set(key, { value, at: now, bytes });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      const overEntries = this.options.maxEntries !== undefined && this.entries.size > this.options.maxEntries;
      const overBytes = this.options.maxBytes !== undefined && this.bytes > this.options.maxBytes;
      if (!overEntries && !overBytes) break;
      this.delete(oldest);
      this.counters.evictions++;
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Resolves when the load of `key` under way (if any) has ended, however it ended. */
  async settled(key: K): Promise<void> {
    await this.loading.get(key)?.catch(() => undefined);
  }

  /** Makes the value old at once: a stale-while-revalidate cache answers it once more and reloads. */
  expire(key: K): void {
    const entry = this.entries.get(key);
    if (entry) entry.at = Number.NEGATIVE_INFINITY;
  }

  /**
   * The cached value, or the result of `load` stored for next time. Callers asking for a key that is
   * being loaded wait for that load instead of starting their own. `load` may answer undefined: the
   * callers get undefined and nothing is stored (a page that turned out to be personal). With
   * stale-while-revalidate, an expired value is answered at once and `load` runs in the background;
   * it receives the value it replaces.
   */
  async getOrLoad(key: K, load: (previous: V | undefined) => Promise<V | undefined>): Promise<V | undefined> {
    const fresh = this.get(key);
    if (fresh !== undefined) return fresh;
    const stale = this.options.staleWhileRevalidate ? this.entries.get(key) : undefined;
    const pending = this.loading.get(key) ?? this.startLoad(key, load, stale?.value);
    if (stale) {
      pending.catch((error: unknown) => logger.error({ cache: this.name, err: loggableError(error) }, 'background reload failed'));
      return stale.value;
    }
    return pending;
  }

  stats(): CacheStats {
    return { name: this.name, entries: this.entries.size, bytes: this.bytes, ...this.counters };
  }

  private startLoad(key: K, load: (previous: V | undefined) => Promise<V | undefined>, previous: V | undefined): Promise<V | undefined> {
    const started = performance.now();
    this.counters.loads++;
    const pending = load(previous)
      .then((value) => {
        if (value !== undefined) this.set(key, value);
        return value;
      })
      .finally(() => {
        this.loading.delete(key);
        const timing = this.requestEntry();
        if (timing) timing.loadMs += performance.now() - started;
      });
    this.loading.set(key, pending);
    return pending;
  }

  private withinGrace(entry: Entry<V>, now: number): boolean {
    return now - entry.at <= this.options.ttlMs + (this.options.graceMs ?? 0);
  }

  private expired(entry: Entry<V>, now: number): boolean {
    return this.options.ttlMs > 0 && now - entry.at > this.options.ttlMs;
  }

  private touch(key: K, entry: Entry<V>): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  private count(what: 'hits' | 'misses'): void {
    this.counters[what]++;
    const timing = this.requestEntry();
    if (timing) timing[what]++;
  }

  private requestEntry() {
    const store = requestTimings.getStore();
    if (!store) return undefined;
    let entry = store.caches.get(this.name);
    if (!entry) store.caches.set(this.name, (entry = { hits: 0, misses: 0, loadMs: 0 }));
    return entry;
  }
}

/** Every cache's counters since the process started (for /api/health and the benchmark). */
export function cacheStats(): CacheStats[] {
  return [...registry.values()].map((c) => c.stats());
}

/** Runs one request with its own cache counters and answers them as a Server-Timing header value. */
export async function withCacheTimings<T>(run: () => Promise<T>): Promise<{ result: T; serverTiming: string }> {
  const store: RequestTimings = { caches: new Map() };
  const result = await requestTimings.run(store, run);
  return { result, serverTiming: serverTimingOf(store) };
}

/**
 * The page cache's line always (whether the page was kept), the others' only when they missed: a page
 * rendered from warm caches names nine caches that all hit, 0.3 KB of headers in the bytes that decide
 * whether a phone gets the page in its first round trip (issue 59, docs/performance.md).
 */
function serverTimingOf(store: RequestTimings): string {
  return [...store.caches]
    .filter(([name, c]) => name === 'page' || c.misses > 0)
    .map(([name, c]) => `cache-${name};desc="hit ${c.hits} miss ${c.misses}"${c.loadMs > 0 ? `;dur=${c.loadMs.toFixed(1)}` : ''}`)
    .join(', ');
}

// Every cache in the metrics (the page cache among them): hits, misses, what it holds.
readAtScrape('counter', 'shop_cache_hits_total', 'Cache hits since the process started, by cache (page: whole pages)', ['cache'], () =>
  cacheStats().map((c) => ({ labels: { cache: c.name }, value: c.hits })),
);
readAtScrape('counter', 'shop_cache_misses_total', 'Cache misses since the process started, by cache', ['cache'], () =>
  cacheStats().map((c) => ({ labels: { cache: c.name }, value: c.misses })),
);
readAtScrape('gauge', 'shop_cache_bytes', 'Bytes a cache holds (caches bounded by size), by cache', ['cache'], () =>
  cacheStats().map((c) => ({ labels: { cache: c.name }, value: c.bytes })),
);
readAtScrape('gauge', 'shop_cache_entries', 'Entries a cache holds, by cache', ['cache'], () =>
  cacheStats().map((c) => ({ labels: { cache: c.name }, value: c.entries })),
);
