// What reaches a phone: every text answer compressed as the client accepts (brotli, else gzip, else
// none), the same page whatever the encoding; built assets precompressed and immutable, revalidated by
// ETag; the cache key ignoring parameters the page does not read.
import { describe, expect, it } from 'vitest';
import { rawRequest, unpacked } from '../support/http.ts';

const get = (path: string, headers: Record<string, string> = {}) => rawRequest('GET', path, { headers });

describe('compression', () => {
  it.each(['/', '/brands', '/i/12/razmery', '/blog'])('%s: brotli, gzip or none as accepted, the same page each time', async (path) => {
    await get(path); // rendered and cached
    const plain = await get(path);
    const br = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await get(path, { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers['vary']).toContain('accept-encoding');
    expect(br.body.byteLength).toBeLessThan(plain.body.byteLength / 4);
    expect(Number(br.headers['content-length'])).toBe(br.body.byteLength);
    expect(unpacked(br).equals(plain.body)).toBe(true);
    expect(unpacked(gzip).equals(plain.body)).toBe(true);
  });

  it('an API answer is compressed too', async () => {
    const answer = await get('/api/v1/ecommerce-core/mega-categories', { 'accept-encoding': 'br' });
    expect(answer.headers['content-encoding']).toBe('br');
    expect(JSON.parse(unpacked(answer).toString('utf8'))).toMatchObject({ success: true });
  });

  it('built scripts and styles are precompressed, immutable and revalidated by ETag', async () => {
    const html = (await get('/')).body.toString('utf8');
    const assets = [...html.matchAll(/(\/_astro\/[^"' ]+\.(?:css|js))/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of new Set(assets)) {
      const answer = await get(asset, { 'accept-encoding': 'br' });
      expect(answer.status, asset).toBe(200);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      if (answer.body.byteLength >= 1024 || answer.headers['content-encoding']) {
        expect(answer.headers['content-encoding'], asset).toBe('br');
      }
      const again = await get(asset, { 'if-none-match': String(answer.headers['etag']) });
      expect(again.status).toBe(304);
    }
  });

  it('images keep a week and are never recompressed', async () => {
    const answer = await get('/img/p/dress-black-1-w360.webp', { 'accept-encoding': 'br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('image/webp');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['cache-control']).toContain('max-age=604800');
  });
});

describe('the page cache under made-up query strings', () => {
  it('answers a parameter the page does not read from the cached page', async () => {
    await get('/brands');
    const flooded = await get(`/brands?utm_source=${Date.now()}`);
    expect(flooded.headers['server-timing']).toBe('cache-page;desc="hit 1 miss 0"');
  });
});
