import { describe, expect, it } from 'vitest';
import { brotliDecompressSync } from 'node:zlib';
import { cachedPage, cachedPageBytes, isShareable, pageAnswer, pageCacheKey, pagesRefined } from './page-cache.ts';

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
    const page = await cachedPage(200, headers, html, { now: 1_000 });
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

  it('compresses a stored page again, smaller, once the server is quiet', async () => {
    const brands = ['Gucci', 'Prada', 'Balmain', 'Chloé', 'Loewe', 'Fendi'];
    const cards = Array.from(
      { length: 24 },
      (_, k) =>
        `<li><article class="group relative flex flex-col"><a href="/p/${1000 + k * 37}/plate-${k}"><img src="/img/p/dress-${k % 7}-w720.webp" width="720" height="960" alt="Платье ${k}, ${brands[k % 6]}"></a><p class="text-xs font-700 uppercase">${brands[k % 6]}</p><h3>Платье номер ${k * 13} из шёлка</h3><span class="font-700 text-accent">${(k * 7919) % 90_000} ₽</span></article></li>`,
    );
    const html = new TextEncoder().encode(`<!doctype html><html lang="ru"><body><ul class="grid">${cards.join('')}</ul></body></html>`);
    const page = await cachedPage(200, new Headers({ 'content-type': 'text/html; charset=utf-8' }), html);
    const first = page.forms.br!.byteLength;
    await pagesRefined();
    const refined = page.forms.br!;
    expect(refined.byteLength).toBeLessThan(first);
    expect(refined.buffer.byteLength).toBe(refined.byteLength);
    expect(Buffer.from(brotliDecompressSync(pageAnswer(page, 'br').body)).equals(Buffer.from(html))).toBe(true);

    // Rendered again to the same bytes: the refined form is kept, not made again at quality 6.
    const again = await cachedPage(200, new Headers({ 'content-type': 'text/html; charset=utf-8' }), html, { previous: page });
    expect(again.forms.br).toBe(refined);
    // Anything changed: compressed afresh.
    const changed = new TextEncoder().encode(new TextDecoder().decode(html).replace('Gucci', 'Celine'));
    const fresh = await cachedPage(200, new Headers({ 'content-type': 'text/html; charset=utf-8' }), changed, { previous: page });
    expect(fresh.forms.br).not.toBe(refined);
    expect(Buffer.from(brotliDecompressSync(fresh.forms.br!)).equals(Buffer.from(changed))).toBe(true);
    await pagesRefined();
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
