import { describe, expect, it } from 'vitest';
import { Cache, cacheStats, withCacheTimings } from './cache.ts';

let names = 0;
const cache = <V>(options: Partial<ConstructorParameters<typeof Cache<string, V>>[0]> = {}) =>
  new Cache<string, V>({ name: `test-${++names}`, ttlMs: 0, ...options });

describe('Cache', () => {
  it('answers a value until its lifetime is up', () => {
    const c = cache<number>({ ttlMs: 10_000 });
    c.set('a', 1, 1_000);
    expect(c.get('a', { now: 5_000 })).toBe(1);
    expect(c.get('a', { now: 11_001 })).toBeUndefined();
    expect(c.stats()).toMatchObject({ entries: 0, hits: 1, misses: 1 });
  });

  it('evicts the least recently used entry when over its entry bound', () => {
    const c = cache<number>({ maxEntries: 2 });
    c.set('a', 1);
    c.set('b', 2);
    c.get('a');
    c.set('c', 3);
    expect(c.peek('a')).toBe(1);
    expect(c.peek('b')).toBeUndefined();
    expect(c.stats()).toMatchObject({ entries: 2, evictions: 1 });
  });

  it('keeps its bytes within the bound and refuses one entry larger than an eighth of it', () => {
    const c = cache<Uint8Array>({ maxBytes: 800, sizeOf: (v) => v.byteLength });
    for (let k = 0; k < 10; k++) c.set(`p${k}`, new Uint8Array(100));
    expect(c.stats()).toMatchObject({ entries: 8, bytes: 800 });
    expect(c.peek('p0')).toBeUndefined();
    c.set('huge', new Uint8Array(101));
    expect(c.peek('huge')).toBeUndefined();
  });

  it('loads a missing key once however many callers ask at the same time', async () => {
    const c = cache<number>();
    let loads = 0;
    let release: (v: number) => void = () => {};
    const load = () => {
      loads++;
      return new Promise<number>((r) => (release = r));
    };
    const callers = Array.from({ length: 5 }, () => c.getOrLoad('k', load));
    release(42);
    expect(await Promise.all(callers)).toEqual([42, 42, 42, 42, 42]);
    expect(loads).toBe(1);
    expect(await c.getOrLoad('k', load)).toBe(42);
    expect(loads).toBe(1);
  });

  it('stores nothing when the load answers undefined, and tries again next time', async () => {
    const c = cache<number>();
    expect(await c.getOrLoad('k', async () => undefined)).toBeUndefined();
    expect(await c.getOrLoad('k', async () => 7)).toBe(7);
  });

  it('lets a failed load fail its callers without keeping anything', async () => {
    const c = cache<number>();
    await expect(c.getOrLoad('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await c.getOrLoad('k', async () => 1)).toBe(1);
  });

  it('with stale-while-revalidate answers the old value at once and reloads it in the background from the old one', async () => {
    const c = cache<number>({ ttlMs: 1, staleWhileRevalidate: true });
    c.set('k', 1, Date.now() - 1_000);
    let seen: number | undefined;
    let release: (v: number) => void = () => {};
    const first = await c.getOrLoad('k', (previous) => {
      seen = previous;
      return new Promise<number>((r) => (release = r));
    });
    expect(first).toBe(1);
    expect(seen).toBe(1);
    release(2);
    await new Promise((r) => setTimeout(r, 0));
    expect(c.peek('k')).toBe(2);
  });

  it('within its grace answers an expired value only while that value is being reloaded', async () => {
    const c = cache<number>({ ttlMs: 10_000, graceMs: 30_000 });
    const now = Date.now();
    c.set('page', 1, now - 15_000);
    // Expired, nobody reloading: a miss, so this caller goes to render it.
    expect(c.get('page', { whileLoading: true })).toBeUndefined();
    let release: (v: number) => void = () => {};
    const reload = c.getOrLoad('page', () => new Promise<number>((r) => (release = r)));
    // While the one render runs, everyone else gets the previous copy at once.
    expect(c.get('page', { whileLoading: true })).toBe(1);
    // Callers that did not ask for it (the renderer's own) do not.
    expect(c.get('page')).toBeUndefined();
    release(2);
    await expect(reload).resolves.toBe(2);
    expect(c.get('page', { whileLoading: true })).toBe(2);
    // Past the grace, an old copy is never answered, reload or not.
    c.set('old', 1, now - 41_000);
    const slow = c.getOrLoad('old', () => new Promise<number>(() => {}));
    expect(c.get('old', { whileLoading: true })).toBeUndefined();
    void slow;
  });

  it('reports each request’s hits, misses and load time as a Server-Timing value', async () => {
    const c = cache<number>();
    const { serverTiming } = await withCacheTimings(async () => {
      await c.getOrLoad('k', async () => 1);
      await c.getOrLoad('k', async () => 1);
    });
    expect(serverTiming).toMatch(new RegExp(`^cache-${c.name};desc="hit 1 miss 1"(;dur=\\d+\\.\\d)?$`));
    expect(cacheStats().find((s) => s.name === c.name)).toMatchObject({ hits: 1, misses: 1, loads: 1 });
  });

  it('names in Server-Timing only the caches a request missed', async () => {
    const warm = cache<number>();
    const cold = cache<number>();
    await warm.getOrLoad('k', async () => 1);
    const { serverTiming } = await withCacheTimings(async () => {
      await warm.getOrLoad('k', async () => 1);
      await cold.getOrLoad('k', async () => 2);
    });
    expect(serverTiming).toMatch(new RegExp(`^cache-${cold.name};desc="hit 0 miss 1"(;dur=\\d+\\.\\d)?$`));
    const { serverTiming: none } = await withCacheTimings(async () => warm.getOrLoad('k', async () => 1));
    expect(none).toBe('');
  });
});
