import { describe, expect, it } from 'vitest';
import { isShareable, PageCache } from './page-cache.ts';

const page = (bytes: number, at = 0) => ({ at, status: 200, headers: [] as [string, string][], body: new Uint8Array(bytes) });

describe('page cache', () => {
  it('serves a page until its time is up', () => {
    const cache = new PageCache(10_000, 1_000_000);
    cache.set('/c/1', page(10, 1_000));
    expect(cache.get('/c/1', 5_000)?.body.byteLength).toBe(10);
    expect(cache.get('/c/1', 11_001)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops the oldest pages when over its byte budget', () => {
    const cache = new PageCache(10_000, 800);
    for (let k = 0; k < 10; k++) cache.set(`/p/${k}`, page(100));
    expect(cache.size).toBe(8);
    expect(cache.get('/p/0', 0)).toBeUndefined();
    expect(cache.get('/p/9', 0)).toBeDefined();
  });

  it('keeps only public HTML without cookies', () => {
    const html = { 'content-type': 'text/html; charset=utf-8' };
    expect(isShareable(new Response('x', { headers: { ...html, 'cache-control': 'public, s-maxage=300' } }))).toBe(true);
    expect(isShareable(new Response('x', { headers: { ...html, 'cache-control': 'private, no-store' } }))).toBe(false);
    expect(isShareable(new Response('x', { headers: { ...html } }))).toBe(false);
    expect(isShareable(new Response('x', { headers: { ...html, 'cache-control': 'public', 'set-cookie': 'a=b' } }))).toBe(false);
    expect(isShareable(new Response('x', { status: 404, headers: { ...html, 'cache-control': 'public' } }))).toBe(false);
  });
});
