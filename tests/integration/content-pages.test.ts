// Content routes (issue 3): info pages, named info routes, blog, brands — HTML over real HTTP.
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../support/api.ts';

async function get(path: string) {
  const res = await fetch(new URL(path, baseUrl()), { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), html: await res.text(), headers: res.headers };
}
const pathOf = (location: string | null) => new URL(location ?? '', baseUrl()).pathname + new URL(location ?? '', baseUrl()).search;

describe('info pages /i/{id}/{slug?}', () => {
  it('renders the page with its title, meta description, canonical link and breadcrumbs', async () => {
    const { status, html, headers } = await get('/i/9/o-dostavke');
    expect(status).toBe(200);
    expect(html).toContain('<title>Доставка и пошлины — Brandshop</title>');
    expect(html).toMatch(/<meta name="description" content="Сроки и стоимость доставки/);
    expect(html).toMatch(/<link rel="canonical" href="[^"]*\/i\/9\/o-dostavke"/);
    expect(html).toContain('aria-label="Хлебные крошки"');
    expect(html).toContain('14 дней');
    expect(headers.get('cache-control')).toContain('s-maxage');
  });

  it.each([
    ['/i/12', '/i/12/razmery'],
    ['/i/12/wrong-slug', '/i/12/razmery'],
    ['/i/4/', '/i/4/contacts'],
  ])('%s redirects to the canonical %s', async (from, to) => {
    const { status, location } = await get(from);
    expect(status).toBe(301);
    expect(pathOf(location)).toBe(to);
  });

  it.each(['/i/abc', '/i/0', '/i/99/none', '/i/1e3'])('%s goes to /404', async (path) => {
    const { status, location } = await get(path);
    expect(status).toBe(302);
    expect(pathOf(location)).toBe('/404');
  });

  it('the sizes page has the children’s shoe chart', async () => {
    const { html } = await get('/i/12/razmery');
    expect(html).toContain('Детская обувь');
  });
});

describe('named info routes', () => {
  it.each([
    ['/about-us', 'О компании', '/i/14/o-nashej-kompanii'],
    ['/info/cookies', 'Использование файлов cookie', '/i/30/cookies'],
    ['/info/payment', 'Оплата', '/i/31/payment'],
    ['/info/privacy-policy', 'Политика конфиденциальности', '/i/19/privacy-policy'],
    ['/info/personal-data-policy', 'Политика обработки персональных данных', '/i/5/personal-data'],
    ['/info/guarantees-and-refunds', 'Гарантии, возврат и обмен', '/i/10/refund-exchange'],
  ])('%s shows «%s» with a canonical link to %s', async (path, title, canonical) => {
    const { status, html } = await get(path);
    expect(status).toBe(200);
    expect(html).toContain(`<h1 class="heading-display text-4xl md:text-5xl">${title}</h1>`);
    expect(html).toContain(`${canonical}"`);
  });

  it('an unknown named route goes to /404', async () => {
    expect(pathOf((await get('/info/nothing')).location)).toBe('/404');
  });
});

describe('blog', () => {
  it('lists the newest posts first with links to page 2', async () => {
    const { status, html } = await get('/blog');
    expect(status).toBe(200);
    const titles = [...html.matchAll(/<h2 class="mt-2 font-display[^>]*><a href="(\/b\/\d+\/[a-z0-9-]+)"/g)].map((m) => m[1]);
    expect(titles).toHaveLength(4);
    expect(titles[0]).toBe('/b/6/kak-rabotaet-vykup');
    expect(html).toContain('href="/blog/2"');
    expect(html).toContain('rel="next"');
  });

  it('page 2 has the rest and a canonical of its own', async () => {
    const { html } = await get('/blog/2');
    expect(html).toMatch(/<link rel="canonical" href="[^"]*\/blog\/2"/);
    expect([...html.matchAll(/href="\/b\/\d+\//g)].length).toBeGreaterThanOrEqual(2);
  });

  it.each(['/blog/abc', '/blog/0', '/blog/999', `/blog/${'9'.repeat(400)}`, '/blog/02'])('%s redirects to /blog', async (path) => {
    const { status, location } = await get(path);
    expect(status).toBe(302);
    expect(pathOf(location)).toBe('/blog');
  });

  it('/blog/1 is /blog', async () => {
    const { status, location } = await get('/blog/1');
    expect(status).toBe(301);
    expect(pathOf(location)).toBe('/blog');
  });

  it('a post renders with breadcrumbs Главная / Блог / title', async () => {
    const { status, html } = await get('/b/5/uhod-za-kashemirom');
    expect(status).toBe(200);
    expect(html).toContain('Как ухаживать за кашемиром');
    expect(html).toMatch(
      /<a href="\/" class="link-quiet">Главная<\/a>.*<a href="\/blog" class="link-quiet">Блог<\/a>.*aria-current="page"[^>]*>Как ухаживать/s,
    );
  });

  it('a post with a wrong permalink redirects, an unknown post goes to /404', async () => {
    expect(pathOf((await get('/b/5')).location)).toBe('/b/5/uhod-za-kashemirom');
    expect(pathOf((await get('/b/77/x')).location)).toBe('/404');
  });

  it('has API calls in the envelope', async () => {
    const list = await (await fetch(new URL('/api/v1/ecommerce-core/blogs?page=2', baseUrl()))).json();
    expect(list).toMatchObject({ success: true, data: { page: 2, pages: 2, total: 6 } });
    const bad = await fetch(new URL('/api/v1/ecommerce-core/blogs?page=-3', baseUrl()));
    expect(bad.status).toBe(422);
    const post = await (await fetch(new URL('/api/v1/ecommerce-core/blog/2', baseUrl()))).json();
    expect(post.data.title).toContain('оригинальную сумку');
    expect((await fetch(new URL('/api/v1/ecommerce-core/blog/abc', baseUrl()))).status).toBe(404);
  });
});

describe('brands', () => {
  it('lists every brand A–Z linking to its catalogue', async () => {
    const { status, html } = await get('/brands');
    expect(status).toBe(200);
    const names = [...html.matchAll(/<a href="\/m\/\d+\/[a-z0-9-]+" class="font-600[^"]*">([^<]+)<\/a>/g)].map((m) => m[1]);
    expect(names.length).toBeGreaterThanOrEqual(30);
    expect(names).toEqual([...names].sort((a, b) => (a ?? '').localeCompare(b ?? '', 'en')));
    expect(names).toContain('Gucci');
  });
});

describe("editors' pages are files built at `npm run build` (issue 10)", () => {
  it.each(['/i/9/o-dostavke', '/about-us', '/info/cookies', '/blog', '/blog/2', '/b/5/uhod-za-kashemirom'])(
    '%s is served from disk: compressed, revalidated by ETag, with its own CSP, the same for every visitor',
    async (path) => {
      const first = await fetch(new URL(path, baseUrl()), { headers: { 'accept-encoding': 'br' } });
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(first.headers.get('content-encoding')).toBe('br');
      expect(first.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=300, stale-while-revalidate=86400');
      const policy = first.headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(/script-src 'self'[^;]* 'sha256-/);
      expect(policy).toContain("frame-ancestors 'none'");
      const etag = first.headers.get('etag');
      expect(etag).toBeTruthy();
      const again = await fetch(new URL(path, baseUrl()), { headers: { 'if-none-match': etag ?? '' } });
      expect(again.status).toBe(304);
      // No render happened: the page cache and the render timings never saw it.
      expect(first.headers.get('server-timing')).toBeNull();
      // The catalogue menu is not baked in: the header island asks the mega-categories call for it.
      const html = await (await fetch(new URL(path, baseUrl()))).text();
      expect(html).not.toContain('Тест-одежда');
    },
  );

  it('a tracking query string still finds the file', async () => {
    const res = await fetch(new URL('/i/9/o-dostavke?utm_source=vk&ref=abc', baseUrl()));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Доставка и пошлины');
  });
});
