import { describe, expect, it } from 'vitest';
import { brotliDecompressSync } from 'node:zlib';
import { cachedPage, cachedPageBytes, isShareable, pageAnswer, pageCacheKey } from './page-cache.ts';

describe('page cache rules', () => {
  it('keys GET requests for pages by path and the parameters the page reads', () => {
    expect(pageCacheKey('GET', '/c/3/platya?sort=new', null)).toBe('/c/3/platya?sort=new');
    expect(pageCacheKey('GET', '/c/3/platya', 'cookie-accepted=1; lang=ru')).toBe('/c/3/platya');
    expect(pageCacheKey('GET', '/c/3/platya?page=2&utm_source=x', null)).toBe('/c/3/platya?page=2');
  });

  it('ignores parameters a page does not read and the order they come in', () => {
    const key = pageCacheKey('GET', '/c/3/platya?utm_source=vk&sort=new&brands=1,2&ref=abc&attr=M&attr=L', null);
    expect(key).toBe('/c/3/platya?attr=M&attr=L&brands=1%2C2&sort=new');
    expect(pageCacheKey('GET', '/c/3/platya?brands=1,2&attr=M&sort=new&attr=L&_=123', null)).toBe(key);
    expect(pageCacheKey('GET', '/p/5/x?utm_campaign=a', null)).toBe('/p/5/x');
    expect(pageCacheKey('GET', '/?gclid=zzz', null)).toBe('/');
  });

  it('never answers the API, assets, other methods or English pages from the cache', () => {
    expect(pageCacheKey('GET', '/api/v1/ecommerce-core/products', null)).toBeUndefined();
    expect(pageCacheKey('GET', '/_astro/client.js', null)).toBeUndefined();
    expect(pageCacheKey('POST', '/c/3/platya', null)).toBeUndefined();
    expect(pageCacheKey('HEAD', '/c/3/platya', null)).toBeUndefined();
    expect(pageCacheKey('GET', '/c/3/platya', 'a=1; lang=en')).toBeUndefined();
    expect(pageCacheKey('GET', '/c/3/platya', 'lang=en')).toBeUndefined();
  });

  it('keeps only public HTML without cookies', () => {
    const html = { 'content-type': 'text/html; charset=utf-8' };
    expect(isShareable(new Response('x', { headers: { ...html, 'cache-control': 'public, s-maxage=300' } }))).toBe(true);
    expect(isShareable(new Response('x', { headers: { ...html, 'cache-control': 'private, no-store' } }))).toBe(false);
    expect(isShareable(new Response('x', { headers: { ...html } }))).toBe(false);
    expect(isShareable(new Response('x', { headers: { ...html, 'cache-control': 'public', 'set-cookie': 'a=b' } }))).toBe(false);
    expect(isShareable(new Response('x', { status: 404, headers: { ...html, 'cache-control': 'public' } }))).toBe(false);
    expect(isShareable(new Response('{}', { headers: { 'content-type': 'application/json', 'cache-control': 'public' } }))).toBe(false);
  });

  it('keeps a text page only compressed, and gives each client the form it takes', async () => {
    const html = new TextEncoder().encode(`<!doctype html><p>${'Платье из шёлка '.repeat(400)}</p>`);
    const headers = new Headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, s-maxage=300',
      'content-length': String(html.byteLength),
    });
    const page = await cachedPage(200, headers, html, 1_000);
    expect(page.forms.identity).toBeUndefined();
    expect(cachedPageBytes(page)).toBeLessThan(html.byteLength / 5);
    // Each form holds its own bytes, not a view into zlib's 64 KB output chunk.
    for (const form of [page.forms.br!, page.forms.gzip!]) expect(form.buffer.byteLength).toBe(form.byteLength);

    const br = pageAnswer(page, 'gzip, deflate, br', 5_500);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['age']).toBe('4');
    expect(br.headers['vary']).toBe('accept-encoding');
    expect(Buffer.from(brotliDecompressSync(br.body)).equals(Buffer.from(html))).toBe(true);

    const plain = pageAnswer(page, undefined, 1_000);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-length']).toBe(String(html.byteLength));
    expect(Buffer.from(plain.body).equals(Buffer.from(html))).toBe(true);
  });
});

describe('private pages (DESIGN §4)', () => {
  it.each(['/dashboard', '/dashboard/orders', '/cart', '/checkout?step=2', '/password/reset?token=x', '/auth-redirect', '/order-success/BS-1/h'])(
    '%s is never kept or shared',
    (url) => expect(pageCacheKey('GET', url, null)).toBeUndefined(),
  );

  it('a public page whose name starts like a private one is still kept', () => {
    expect(pageCacheKey('GET', '/cartier', null)).toBe('/cartier');
  });
});
