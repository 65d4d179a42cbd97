// Which answers a shared cache may keep (docs/operations.md "A CDN in front"): every route of the shop —
// each page file and each GET of the API's route table — asked as a guest and as a signed-in customer.
// Public answers say so with their CDN headers and cache tags and are the same for both; personal ones
// (the cart, checkout, the dashboard, order results, /ops, the API's personal calls) are `private,
// no-store`, carry no tags, and never contain the customer's address. A new page or endpoint fails here
// until it is given its kind.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl } from '../support/api.ts';
import { shared } from '../support/shared-shop.ts';

type Kind =
  | 'public' // the same for everyone: CDN headers and tags
  | 'static' // a file built once (info pages, the blog, crawler files): public, short-lived, no tags
  | 'private' // made for one visitor: private, no-store
  | 'redirect' // answers with where to go (a sign-in first, a canonical address): not shared
  | 'error'; // the not-found page: not shared

// Every page file under src/pages (but the API), with an address that exercises it and its kind.
const PAGES: Record<string, [url: string, kind: Kind][]> = {
  'index.astro': [['/', 'public']],
  'catalog.astro': [['/catalog', 'public']],
  'brands.astro': [['/brands', 'public']],
  'c/[id]/[...slug].astro': [
    ['/c/{category}/{categorySlug}', 'public'],
    ['/c/{category}/{categorySlug}?sort=price_asc&utm_source=x', 'public'],
  ],
  'm/[id]/[...rest].astro': [['/m/{brand}/{brandSlug}', 'public']],
  'p/[id]/[...slug].astro': [
    ['/p/{product}/{productSlug}', 'public'],
    ['/p/{product}', 'redirect'],
  ],
  'p/[id]/reviews.astro': [
    ['/p/{product}/reviews', 'public'],
    ['/p/{product}/reviews?rating=5&utm_source=x', 'public'],
  ],
  'product/search/[q].astro': [['/product/search/платье', 'public']],
  'product/search/index.astro': [['/product/search', 'redirect']],
  'i/[id]/[...slug].astro': [['/i/12/razmery', 'static']],
  'info/[name].astro': [['/info/razmery', 'redirect']],
  'about-us.astro': [['/about-us', 'static']],
  'blog/[...page].astro': [['/blog', 'static']],
  'b/[id]/[...permalink].astro': [['/b/1', 'redirect']],
  '[...path].astro': [['/no-such-page', 'redirect']],
  '404.astro': [['/404', 'error']],
  '500.astro': [['/500', 'private']],
  'cart.astro': [['/cart', 'private']],
  'checkout.astro': [['/checkout', 'private']],
  'gift-certificate.astro': [['/gift-certificate', 'private']],
  'checkout/pickup.astro': [['/checkout/pickup', 'private']],
  'auth-redirect.astro': [['/auth-redirect', 'private']],
  'password/reset.astro': [['/password/reset?token=x&email=a%40b.ru', 'private']],
  'order-success/[code]/[...hash].astro': [['/order-success/BS-1/abc', 'private']],
  'order-failed/[code]/[...hash].astro': [['/order-failed/BS-1/abc', 'private']],
  'review/[code]/[...hash].astro': [
    ['/review/BS-12345678/abc', 'private'],
    ['/review/BS-12345678', 'private'],
  ],
  'test-payment/[id].astro': [['/test-payment/1', 'private']],
  'dashboard/index.astro': [['/dashboard', 'private']],
  'dashboard/address.astro': [['/dashboard/address', 'private']],
  'dashboard/balance.astro': [['/dashboard/balance', 'private']],
  'dashboard/orders.astro': [['/dashboard/orders', 'private']],
  'dashboard/order/[code].astro': [['/dashboard/order/BS-1', 'private']],
  'dashboard/partners.astro': [['/dashboard/partners', 'private']],
  'dashboard/profile.astro': [['/dashboard/profile', 'private']],
  'dashboard/wishlist.astro': [['/dashboard/wishlist', 'private']],
  'dashboard/personal-data.ts': [['/dashboard/personal-data', 'private']],
  'unsubscribe.astro': [['/unsubscribe?email=a%40b.ru&s=xxxxxxxxxxxxxxxx', 'private']],
  'ops/index.astro': [['/ops', 'private']],
  'ops/login.astro': [['/ops/login', 'private']],
  'ops/setup.astro': [['/ops/setup?token=x', 'private']],
  'ops/audit.astro': [['/ops/audit', 'private']],
  'ops/search.astro': [['/ops/search', 'private']],
  'ops/delivery.astro': [['/ops/delivery', 'private']],
  'ops/cod.astro': [['/ops/cod', 'private']],
  'ops/privacy/index.astro': [['/ops/privacy', 'private']],
  'ops/privacy/export.ts': [['/ops/privacy/export', 'private']],
  'ops/buyout/index.astro': [['/ops/buyout', 'private']],
  'ops/buyout/[id].astro': [['/ops/buyout/1', 'private']],
  'ops/customers/index.astro': [['/ops/customers', 'private']],
  'ops/customers/[id].astro': [['/ops/customers/1', 'private']],
  'ops/imports/index.astro': [['/ops/imports', 'private']],
  'ops/imports/[id].astro': [['/ops/imports/1', 'private']],
  'ops/imports/[id]/report.ts': [['/ops/imports/1/report', 'private']],
  'ops/orders/index.astro': [['/ops/orders', 'private']],
  'ops/orders/newer.ts': [['/ops/orders/newer', 'private']],
  'ops/orders/[code].astro': [['/ops/orders/BS-1', 'private']],
  'ops/orders/[code]/pack.astro': [['/ops/orders/BS-1/pack', 'private']],
  'ops/orders/[code]/return.astro': [['/ops/orders/BS-1/return', 'private']],
  'ops/orders/[code]/slip.astro': [['/ops/orders/BS-1/slip', 'private']],
  'ops/orders/[code]/waybill.pdf.ts': [['/ops/orders/BS-1/waybill.pdf', 'private']],
  'ops/products/index.astro': [['/ops/products', 'private']],
  'ops/products/[id].astro': [['/ops/products/1', 'private']],
  'ops/promotions/index.astro': [['/ops/promotions', 'private']],
  'ops/gift-certificates/index.astro': [['/ops/gift-certificates', 'private']],
  'ops/reviews/index.astro': [['/ops/reviews', 'private']],
  'ops/promotions/[id].astro': [
    ['/ops/promotions/new', 'private'],
    ['/ops/promotions/1', 'private'],
  ],
  'ops/promotions/[id]/codes.csv.ts': [['/ops/promotions/1/codes.csv', 'private']],
  'ops/logout.ts': [['/ops/logout', 'private']],
  'exchange/1c.ts': [['/exchange/1c?type=catalog&mode=checkauth', 'private']],
  'robots.txt.ts': [['/robots.txt', 'static']],
  'sitemap.xml.ts': [['/sitemap.xml', 'static']],
  'sitemaps/[name].ts': [
    ['/sitemaps/pages.xml', 'static'],
    ['/sitemaps/products-1.xml', 'static'],
  ],
  'feeds/yandex.yml.ts': [['/feeds/yandex.yml', 'static']],
};

// The API's GETs every visitor gets alike; every other GET is personal or an error.
const PUBLIC_API = new Set([
  '/api/openapi.json',
  '/api/v1/ecommerce-core/products',
  '/api/v1/ecommerce-core/product/{id}',
  '/api/v1/ecommerce-core/mega-categories',
  '/api/v1/ecommerce-core/meta-data',
  '/api/v1/ecommerce-core/blogs',
  '/api/v1/ecommerce-core/blog/{id}',
  '/api/v1/ecommerce-core/search-suggestions',
  '/api/theme/tlcommerce/v1/page/{id}',
  '/api/theme/tlcommerce/v1/get-all-menus-for-ecommerce-home',
  '/api/widgets/v1/footer',
  '/api/widgets/v1/header-sections',
]);

function pageFiles(dir = 'src/pages'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === 'src/pages/api' ? [] : pageFiles(path);
    return /\.(astro|ts)$/.test(entry.name) && !entry.name.startsWith('_') ? [relative('src/pages', path)] : [];
  });
}

interface Seen {
  status: number;
  cacheControl: string;
  cdn: string | null;
  tags: string | null;
  setCookie: boolean;
  body: string;
}
async function ask(url: string, headers: Record<string, string> = {}): Promise<Seen> {
  const res = await fetch(new URL(url, baseUrl()), { redirect: 'manual', headers: { 'accept-language': 'ru', ...headers } });
  return {
    status: res.status,
    cacheControl: res.headers.get('cache-control') ?? '',
    cdn: res.headers.get('cdn-cache-control'),
    tags: res.headers.get('surrogate-key'),
    setCookie: res.headers.has('set-cookie'),
    body: await res.text(),
  };
}

const email = `cache.${Date.now()}@example.ru`;
let customer: Record<string, string>;
let fill: (url: string) => string;

beforeAll(async () => {
  const res = await fetch(new URL('/api/v1/ecommerce-core/auth/customer-registration', baseUrl()), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'ru', 'x-forwarded-for': '10.77.1.2' },
    body: JSON.stringify({ email, phone: '+7 (999) 555-44-33', password: 'кэш не для личного' }),
  });
  expect(res.status).toBe(201);
  const token = ((await res.json()) as { data: { access_token: string } }).data.access_token;
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  customer = { cookie, authorization: `Bearer ${token}` };
  const { catalog } = shared();
  const product = await (await fetch(new URL(`/api/v1/ecommerce-core/product/${catalog.dressProducts[0]?.id ?? 1}`, baseUrl()))).json();
  const p = (product as { data: { id: number; slug: string; brand_id?: number; category?: { id: number } } }).data;
  const first = await fetch(new URL(`/p/${p.id}`, baseUrl()));
  const categoryLink = /href="\/c\/(\d+)\/([^"/?]+)/.exec(await first.text());
  const brandPage = await (await fetch(new URL('/brands', baseUrl()))).text();
  const brandLink = /href="\/m\/(\d+)\/([^"/?]+)/.exec(brandPage);
  const values: Record<string, string> = {
    product: String(p.id),
    productSlug: p.slug,
    category: categoryLink?.[1] ?? '1',
    categorySlug: categoryLink?.[2] ?? 'x',
    brand: brandLink?.[1] ?? '1',
    brandSlug: brandLink?.[2] ?? 'x',
  };
  fill = (url) => url.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? name);
});

/** What is wrong with an answer for its kind (nothing: []). */
function wrongFor(kind: Kind, seen: Seen): string[] {
  const wrong: string[] = [];
  const check = (ok: boolean, what: string) => ok || wrong.push(what);
  const shared = /\bpublic\b/.test(seen.cacheControl) || seen.tags !== null;
  if (kind === 'public') {
    check(seen.status === 200, `status ${seen.status}`);
    check(/^public, max-age=0, s-maxage=\d+, stale-if-error=\d+$/.test(seen.cacheControl), `cache-control "${seen.cacheControl}"`);
    check(/^public, max-age=\d+, stale-while-revalidate=\d+, stale-if-error=\d+$/.test(seen.cdn ?? ''), `cdn-cache-control "${seen.cdn}"`);
    check((seen.tags ?? '').split(' ').includes('shop'), `tags "${seen.tags}"`);
    check(!seen.setCookie, 'sets a cookie');
  } else if (kind === 'static') {
    check(seen.status === 200, `status ${seen.status}`);
    check(/^public\b/.test(seen.cacheControl), `cache-control "${seen.cacheControl}"`);
    check(!seen.setCookie, 'sets a cookie');
  } else if (kind === 'private') {
    check(/\bno-store\b/.test(seen.cacheControl), `cache-control "${seen.cacheControl}"`);
    check(seen.tags === null, `tags "${seen.tags}"`);
  } else if (kind === 'redirect') {
    check([301, 302, 303, 307, 308].includes(seen.status), `status ${seen.status}`);
    check(!shared, `shared: "${seen.cacheControl}", tags "${seen.tags}"`);
  } else {
    check(seen.status === 404, `status ${seen.status}`);
    check(!shared, `shared: "${seen.cacheControl}", tags "${seen.tags}"`);
  }
  return wrong;
}

describe('which answers a shared cache may keep', () => {
  it('names every page file of the shop', () => {
    expect(pageFiles().sort()).toEqual(Object.keys(PAGES).sort());
  });

  it('pages: public ones alike for a guest and a customer, personal ones never shareable', async () => {
    const problems: string[] = [];
    for (const [file, cases] of Object.entries(PAGES)) {
      for (const [template, kind] of cases) {
        const url = fill(template);
        const guest = await ask(url);
        const signedIn = await ask(url, { cookie: customer['cookie'] ?? '' });
        for (const [who, seen] of [
          ['guest', guest],
          ['customer', signedIn],
        ] as const)
          for (const wrong of wrongFor(kind, seen)) problems.push(`${file} ${url} (${who}, ${kind}): ${wrong}`);
        // The pages made for the customer (checkout, the profile) show them; a shareable one never may.
        if (kind !== 'private' && signedIn.body.includes(email)) problems.push(`${url} shows the customer's address`);
        if (kind === 'public' && signedIn.tags !== guest.tags) problems.push(`${url}: a customer's tags differ from a guest's`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the API: only the catalogue and content calls are shareable; every other GET is private, signed in or not', async () => {
    const document = (await (await fetch(new URL('/api/openapi.json', baseUrl()))).json()) as { paths: Record<string, Record<string, unknown>> };
    const gets = Object.entries(document.paths).filter(([, methods]) => 'get' in methods);
    expect(gets.length).toBeGreaterThan(20);
    const values: Record<string, string> = { id: String(shared().catalog.dressProducts[0]?.id ?? 1), code: 'BS-1', name: 'razmery', slug: 'x' };
    const problems: string[] = [];
    for (const [path] of gets) {
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '1');
      for (const [who, headers] of [
        ['guest', {}],
        ['customer', customer],
      ] as const) {
        const seen = await ask(url, headers);
        const kind: Kind = seen.status >= 400 ? 'private' : PUBLIC_API.has(path) ? 'static' : 'private';
        // An error is never shared; what is shareable says public; what is personal is private, no-store.
        for (const wrong of wrongFor(kind, seen)) problems.push(`GET ${url} (${who}, ${seen.status}, ${kind}): ${wrong}`);
        if (/\bpublic\b/.test(seen.cacheControl) && seen.body.includes(email)) problems.push(`GET ${url} is public and shows the customer`);
      }
    }
    expect(problems).toEqual([]);
  });
});
