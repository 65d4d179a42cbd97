// What search engines and marketplaces read (issue 12): robots.txt, the sitemap index and its files
// (valid against the protocol's schema, every active product once, no inactive one), the Yandex product
// feed (offers as the database has them), the icons and the manifest — served by the built shop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shared } from '../support/shared-shop.ts';
import { validateXML } from 'xmllint-wasm';
import { api, baseUrl } from '../support/api.ts';
import { rawRequest, unpacked } from '../support/http.ts';
import { SITEMAP_INDEX_XSD, URLSET_XSD } from '../support/sitemap-schema.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const fx = shared().catalog;
let SITE = '';
beforeAll(() => {
  // The shared test server runs with SITE_URL = its own address.
  SITE = baseUrl().replace(/\/$/, '');
});

async function xml(path: string, encoding = 'gzip, br') {
  const answer = await rawRequest('GET', path, { headers: { 'accept-encoding': encoding } });
  return { ...answer, xml: unpacked(answer).toString('utf8') };
}

async function expectValid(text: string, schema: string) {
  const result = await validateXML({ xml: [{ fileName: 'answer.xml', contents: text }], schema: [schema] });
  expect(result.errors.map((e) => e.message)).toEqual([]);
  expect(result.valid).toBe(true);
}

const locs = (text: string) => [...text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => (m[1] as string).replaceAll('&amp;', '&'));

/** Every active product's address, as the listing API walks them. */
async function activeProductUrls(): Promise<string[]> {
  const urls: string[] = [];
  for (let page = 1; ; page++) {
    const { body } = await api<{ products: { url: string }[]; pages: number }>(`/api/v1/ecommerce-core/products?per_page=60&page=${page}`);
    urls.push(...(body.data?.products ?? []).map((p) => SITE + p.url));
    if (page >= (body.data?.pages ?? 1)) return urls;
  }
}

describe('robots.txt', () => {
  it('is plain text that closes private paths and filters, folds tracking parameters and names the sitemap', async () => {
    const answer = await rawRequest('GET', '/robots.txt');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.headers['cache-control']).toMatch(/^public/);
    const lines = answer.text.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining(['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /cart', 'Disallow: /checkout', 'Disallow: /dashboard']),
    );
    expect(lines).toContain('Disallow: /*?sort=');
    expect(lines.find((l) => l.startsWith('Clean-param: '))).toContain('utm_source&');
    expect(lines).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });
});

describe('sitemaps', () => {
  it('the index is valid, compressed as accepted, and lists the pages file and the products files', async () => {
    const index = await xml('/sitemap.xml');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(index.headers['content-encoding']).toBe('br');
    expect(index.headers['cache-control']).toMatch(/^public/);
    await expectValid(index.xml, SITEMAP_INDEX_XSD);
    expect(locs(index.xml)).toEqual([`${SITE}/sitemaps/pages.xml`, `${SITE}/sitemaps/products-1.xml`]);
    expect(index.xml).toMatch(/<lastmod>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00<\/lastmod>/);
    const plain = await xml('/sitemap.xml', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.xml).toBe(index.xml);
  });

  it('the products file lists every active product exactly once and no inactive one', async () => {
    const file = await xml('/sitemaps/products-1.xml', 'gzip');
    expect(file.headers['content-encoding']).toBe('gzip');
    await expectValid(file.xml, URLSET_XSD);
    const listed = locs(file.xml);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.length).toBeLessThanOrEqual(50_000);
    expect([...listed].sort()).toEqual((await activeProductUrls()).sort());
    expect(listed).toContain(SITE + fx.dressProducts[0]?.url);
    expect(listed).not.toContain(SITE + fx.inactive.url);
    expect(file.xml.match(/<lastmod>/g)?.length).toBe(listed.length);
  });

  it('the pages file has home, brands, the catalogue page, categories, brand pages and brand × category pages, info pages and the blog', async () => {
    const file = await xml('/sitemaps/pages.xml');
    await expectValid(file.xml, URLSET_XSD);
    const listed = locs(file.xml);
    expect(new Set(listed).size).toBe(listed.length);
    const brand = fx.brands.alpha;
    expect(listed).toEqual(
      expect.arrayContaining([
        `${SITE}/`,
        `${SITE}/brands`,
        `${SITE}/catalog`,
        `${SITE}/c/${fx.root.id}/${fx.root.slug}`,
        `${SITE}/c/${fx.dresses.id}/${fx.dresses.slug}`,
        `${SITE}/m/${brand.id}/${brand.slug}`,
        `${SITE}/m/${brand.id}/${brand.slug}/${fx.dresses.id}`,
        `${SITE}/i/12/razmery`,
        `${SITE}/blog`,
      ]),
    );
    expect(listed.some((l) => /\/b\/\d+\/[a-z0-9-]+$/.test(l))).toBe(true);
    // Beta has dresses and shoes but nothing in the test department's clothes as such: only the pairs it stocks.
    expect(listed).not.toContain(`${SITE}/m/${fx.brands.beta.id}/${fx.brands.beta.slug}/${fx.clothes.id}`);
    expect(file.xml.match(/<lastmod>/g)?.length).toBe(listed.length);
  });

  it.each(['/sitemaps/products-2.xml', '/sitemaps/products-0.xml', '/sitemaps/other.xml', '/sitemaps/pages.xml.gz'])('%s is the shop’s 404', async (path) => {
    const answer = await rawRequest('GET', path);
    expect([302, 404]).toContain(answer.status);
    if (answer.status === 302) expect(answer.headers['location']).toBe('/404');
  });

  it('HEAD answers the headers without a body', async () => {
    const answer = await rawRequest('HEAD', '/sitemaps/pages.xml', { headers: { 'accept-encoding': 'gzip' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(answer.body.byteLength).toBe(0);
  });
});

describe('Yandex product feed', () => {
  const offersOf = (text: string, productId: number) =>
    [...text.matchAll(/<offer id="([^"]+)" group_id="(\d+)" available="(true|false)">([\s\S]*?)<\/offer>/g)]
      .filter((m) => Number(m[2]) === productId)
      .map((m) => ({ id: m[1], available: m[3] === 'true', body: m[4] as string }));

  it('carries the shop, roubles, the category tree and one offer per size, as the database has them', async () => {
    const answer = await xml('/feeds/yandex.yml', 'gzip');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['last-modified']).toBeDefined();
    const text = answer.xml;
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="')).toBe(true);
    expect(text).toContain(`<shop>\n<name>Brandshop</name>\n<company>Brandshop</company>\n<url>${SITE}/</url>`);
    expect(text).toContain('<currencies><currency id="RUB" rate="1"/></currencies>');
    expect(text).toContain(`<category id="${fx.dresses.id}" parentId="${fx.clothes.id}">Тест-платья</category>`);
    expect(text.trimEnd().endsWith('</offers>\n</shop>\n</yml_catalog>')).toBe(true);

    for (const [k, dress] of fx.dressProducts.entries()) {
      const offers = offersOf(text, dress.id);
      expect(offers.map((o) => o.available)).toEqual([true, k % 2 === 0, true]);
      // The fixture's prices in roubles (stored as kopecks): 1 000 × (k + 1), the old one a quarter more.
      const price = 1000 * (k + 1);
      for (const offer of offers) {
        expect(offer.body).toContain(`<url>${SITE}${dress.url}</url><price>${price}</price>`);
        if (k % 3 === 0) expect(offer.body).toContain(`<oldprice>${price * 1.25}</oldprice>`);
        else expect(offer.body).not.toContain('<oldprice>');
        expect(offer.body).toContain(`<currencyId>RUB</currencyId><categoryId>${fx.dresses.id}</categoryId>`);
        expect(offer.body).toContain(`<picture>${SITE}/img/`);
        expect(offer.body).toContain(`<vendor>${k < 8 ? 'Alphatest' : 'Betatest'}</vendor><name>${dress.name}</name><description>`);
        expect(offer.body).toContain(`<param name="Цвет">${k % 2 === 0 ? 'Рубиновый' : 'Лазурный'}</param>`);
      }
      expect(offers.map((o) => /<param name="Размер" unit="INT">([^<]+)<\/param>/.exec(o.body)?.[1])).toEqual(['S', 'M', 'L']);
    }
    const shoe = offersOf(text, fx.shoeProducts[0]?.id ?? 0);
    expect(shoe.map((o) => /<param name="Размер" unit="RU">([^<]+)<\/param>/.exec(o.body)?.[1])).toEqual(['16,5', '17']);
    expect(offersOf(text, fx.scarce.id).map((o) => o.available)).toEqual([true, false]);
    expect(offersOf(text, fx.inactive.id)).toEqual([]);
  });

  it('every offer has the fields Yandex requires, and every active product has offers', async () => {
    const text = (await xml('/feeds/yandex.yml', 'br')).xml;
    const offers = [...text.matchAll(/<offer [^>]*>([\s\S]*?)<\/offer>/g)].map((m) => m[1] as string);
    expect(offers.length).toBeGreaterThan(400);
    for (const offer of offers) {
      for (const field of ['url', 'price', 'currencyId', 'categoryId', 'picture', 'vendor', 'name', 'description'])
        expect(offer, field).toMatch(new RegExp(`<${field}>[^<]+</${field}>`));
      expect(offer).toMatch(/<price>[1-9]\d*<\/price>/);
    }
    const products = new Set([...text.matchAll(/group_id="(\d+)"/g)].map((m) => `${SITE}/p/${m[1]}/`));
    const active = await activeProductUrls();
    expect(products.size).toBe(active.length);
    for (const url of active) expect(products.has(url.replace(/[^/]+$/, ''))).toBe(true);
  });
});

describe('icons and manifest', () => {
  it.each([
    ['/favicon.ico', 'image/x-icon'],
    ['/apple-touch-icon.png', 'image/png'],
    ['/icons/icon-192.png', 'image/png'],
    ['/icons/icon-512.png', 'image/png'],
  ])('%s is served as %s', async (path, type) => {
    const answer = await rawRequest('GET', path);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(type);
    expect(answer.body.byteLength).toBeGreaterThan(500);
  });

  it('the manifest names the shop and its icons, and every page links it', async () => {
    const answer = await rawRequest('GET', '/manifest.webmanifest');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = JSON.parse(unpacked(answer).toString('utf8')) as {
      name: string;
      short_name: string;
      theme_color: string;
      icons: { src: string; sizes: string }[];
    };
    expect(manifest.short_name).toBe('Brandshop');
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons) expect((await rawRequest('GET', icon.src)).status).toBe(200);
    const home = (await rawRequest('GET', '/')).text;
    expect(home).toContain('<link rel="manifest" href="/manifest.webmanifest">');
    expect(home).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png">');
  });
});

describe('at another address', () => {
  let other: TestServer;
  beforeAll(async () => {
    other = await startTestServer({ label: 'discovery-site', seedProducts: 30, env: { SITE_URL: 'https://brandshop.example' } });
  }, 120_000);
  afterAll(() => other?.stop());

  it('robots.txt, the sitemaps and the feed name SITE_URL of the running server, not of the build', async () => {
    const get = async (path: string) => (await fetch(new URL(path, other.baseUrl))).text();
    expect(await get('/robots.txt')).toContain('Sitemap: https://brandshop.example/sitemap.xml');
    expect(locs(await get('/sitemap.xml'))[0]).toBe('https://brandshop.example/sitemaps/pages.xml');
    expect(locs(await get('/sitemaps/products-1.xml'))).toHaveLength(30);
    expect(await get('/feeds/yandex.yml')).toContain('<url>https://brandshop.example/p/');
    expect(baseUrl()).not.toBe(other.baseUrl);
  });
});
