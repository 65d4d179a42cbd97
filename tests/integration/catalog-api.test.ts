// The catalogue listing, product and suggestions calls over real HTTP against the built server and the
// seeded database: every filter alone and combined, sorting, pagination, facet counts, bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import { shared } from '../support/shared-shop.ts';
import type { ProductCard } from '~/features/catalog/catalog.ts';
import type { FacetValue, Listing } from '~/features/catalog/listing.ts';
import type { ProductDetail } from '~/features/catalog/catalog.product.ts';
import type { Suggestions } from '~/features/search/search.ts';
import { api, baseUrl } from '../support/api.ts';

// The answers' shapes are the ones the server builds them with: a field renamed on one side fails to compile here.
type Card = ProductCard;
type Product = ProductDetail & { related: ProductCard[] };

const listing = async (query: string) => {
  const res = await api<Listing>(`/api/v1/ecommerce-core/products?${query}`);
  expect(res.status, `products?${query}: ${res.body.message}`).toBe(200);
  return res.body.data as Listing;
};
const suggest = async (key: string, limit?: number) => {
  const params = new URLSearchParams({ search_key: key, ...(limit ? { limit: String(limit) } : {}) });
  const res = await api<Suggestions>(`/api/v1/ecommerce-core/search-suggestions?${params}`, { method: 'POST' });
  expect(res.status, `suggestions ${key}: ${res.body.message}`).toBe(200);
  return res.body.data as Suggestions;
};

// The tests' own catalogue (tests/support/factories.ts): 'Тест-отдел' holds 13 active dresses (12 in a
// pattern plus a scarce one) and 6 pairs of shoes, of two brands and two colours; one dress is inactive.
const fx = shared().catalog;
const ROOT = fx.root.id;
const DRESSES = fx.dresses.id;
const dressCount = fx.dressProducts.length + 1;
const rootCount = dressCount + fx.shoeProducts.length;
const ids = (data: Listing) => data.products.map((p) => p.id).sort((a, b) => a - b);
const idsOf = (made: { id: number }[]) => made.map((p) => p.id).sort((a, b) => a - b);
const counts = (values: FacetValue[]) => Object.fromEntries(values.map((v) => [String(v.id), v.count]));

describe('GET /api/v1/ecommerce-core/products', () => {
  let root: Listing;
  beforeAll(async () => {
    root = await listing(`category=${ROOT}&per_page=60`);
  });

  it('lists a category subtree with cards, totals and breadcrumbs', async () => {
    const res = await api<Listing>(`/api/v1/ecommerce-core/products?category=${DRESSES}`);
    expect(res.body.breadcrumbs?.map((b) => b.name)).toEqual(['Главная', 'Тест-отдел', 'Тест-одежда', 'Тест-платья']);
    expect(res.body.meta_data?.title).toBe('Тест-платья тест-отдел — купить в интернет-магазине Brandshop');
    const data = res.body.data as Listing;
    expect(data.total).toBe(dressCount);
    expect(data.products).toHaveLength(dressCount);
    const card = data.products[0] as Card;
    expect(card.url).toMatch(/^\/p\/\d+\/[a-z0-9-]+$/);
    expect(card.image).toMatchObject({ width: 720, height: 960 });
    expect(card.image?.srcset).toContain('360w');
    expect(res.headers.get('cache-control')).toContain('s-maxage');
    expect(root.total).toBe(rootCount);
  });

  it('never lists an inactive product', () => {
    expect(root.products.some((p) => p.id === fx.inactive.id)).toBe(false);
  });

  it('counts every product once in each group, and each flag exactly', () => {
    const { facets } = root;
    expect(counts(facets.categories)).toEqual({ [DRESSES]: dressCount, [fx.shoes.id]: fx.shoeProducts.length });
    expect(counts(facets.brands)).toEqual({ [fx.brands.alpha.id]: 11, [fx.brands.beta.id]: 8 });
    expect(counts(facets.color)).toEqual({ [fx.colors.ruby.id]: 7, [fx.colors.azure.id]: 12 });
    expect(counts(facets.attr)).toEqual({ XS: 1, S: 12, M: 6, L: 12, '16,5': 3, '17': 3, '40': 3, '41': 3 });
    expect(facets).toMatchObject({ free_delivery: 4, with_discount: 4, top_rating: 3, price: { min: 1_000, max: 15_000 } });
  });

  it('brands filter: only that brand, and the brand group still counts the others', async () => {
    const data = await listing(`category=${ROOT}&brands=${fx.brands.beta.id}&per_page=60`);
    expect(data.total).toBe(8);
    expect(data.products.every((p) => p.brand_id === fx.brands.beta.id)).toBe(true);
    expect(counts(data.facets.brands)).toEqual(counts(root.facets.brands));
    // The other groups are narrowed to the brand: Betatest's 4 patterned dresses + the scarce one, 3 pairs.
    expect(counts(data.facets.categories)).toEqual({ [DRESSES]: 5, [fx.shoes.id]: 3 });
  });

  it('several brands, comma separated or repeated, add up', async () => {
    const { alpha, beta } = fx.brands;
    const comma = await listing(`category=${ROOT}&brands=${alpha.id},${beta.id}`);
    const repeated = await listing(`category=${ROOT}&brands=${alpha.id}&brands=${beta.id}`);
    expect(comma.total).toBe(rootCount);
    expect(repeated.total).toBe(comma.total);
  });

  it('categories filter narrows to the chosen sub-categories', async () => {
    const data = await listing(`category=${ROOT}&categories=${fx.shoes.id}`);
    expect(ids(data)).toEqual(idsOf(fx.shoeProducts));
  });

  it('color filter keeps that colour, as the product page says', async () => {
    const data = await listing(`category=${DRESSES}&color=${fx.colors.ruby.id}&per_page=60`);
    expect(ids(data)).toEqual(idsOf([...fx.dressProducts.filter((_, k) => k % 2 === 0), fx.scarce]));
    const product = (await api<Product>(`/api/v1/ecommerce-core/product/${data.products[0]?.id}`)).body.data as Product;
    expect(product.color?.id).toBe(fx.colors.ruby.id);
  });

  it('size filter (attr) keeps products with that size in stock', async () => {
    const data = await listing(`category=${DRESSES}&attr=M&per_page=60`);
    expect(ids(data)).toEqual(idsOf(fx.dressProducts.filter((_, k) => k % 2 === 0)));
    const sold = await listing(`category=${DRESSES}&attr=XL`);
    expect(sold.total).toBe(0);
  });

  it('a size with a comma in it ("16,5") is one size, not two', async () => {
    const data = await listing(`category=${fx.shoes.id}&attr=${encodeURIComponent('16,5')}`);
    expect(ids(data)).toEqual(idsOf(fx.shoeProducts.slice(0, 3)));
  });

  it.each([
    ['free_delivery', (k: number) => k < 4],
    ['with_discount', (k: number) => k % 3 === 0],
    ['top_rating', (k: number) => k % 4 === 0],
  ] as const)('%s flag keeps exactly the products that have it', async (flag, has) => {
    const data = await listing(`category=${ROOT}&${flag}=1&per_page=60`);
    expect(ids(data)).toEqual(idsOf(fx.dressProducts.filter((_, k) => has(k))));
    expect(data.total).toBe(root.facets[flag]);
  });

  it('price range in roubles keeps prices inside it', async () => {
    const data = await listing(`category=${ROOT}&price_min=5500&price_max=7000&per_page=60`);
    expect(data.products.map((p) => p.price / 100).sort((a, b) => a - b)).toEqual([5500, 6000, 6000, 6500, 7000, 7000]);
  });

  it('combined filters: each facet applies every other group, and the total matches', async () => {
    const { alpha } = fx.brands;
    const both = await listing(`category=${ROOT}&brands=${alpha.id}&with_discount=1&per_page=60`);
    const brandOnly = await listing(`category=${ROOT}&brands=${alpha.id}`);
    const discountOnly = await listing(`category=${ROOT}&with_discount=1`);
    // Alphatest dresses 0…7 with a discount: 0, 3, 6.
    expect(ids(both)).toEqual(idsOf([0, 3, 6].map((k) => fx.dressProducts[k] as { id: number })));
    expect(both.total).toBe(brandOnly.facets.with_discount);
    expect(both.total).toBe(discountOnly.facets.brands.find((b) => b.id === alpha.id)?.count);
    const all = await listing(`category=${ROOT}&brands=${alpha.id}&with_discount=1&free_delivery=1&attr=M&attr=L&price_max=500000`);
    expect(ids(all)).toEqual(idsOf([0, 3].map((k) => fx.dressProducts[k] as { id: number })));
  });

  it.each([
    ['price_asc', (a: Card, b: Card) => a.price <= b.price],
    ['price_desc', (a: Card, b: Card) => a.price >= b.price],
    ['discount', (a: Card, b: Card) => a.discount_percent >= b.discount_percent],
  ] as const)('sorts by %s', async (sort, inOrder) => {
    const data = await listing(`category=${ROOT}&sort=${sort}&per_page=60`);
    expect(data.products).toHaveLength(rootCount);
    expect(data.products.slice(1).every((p, k) => inOrder(data.products[k] as Card, p))).toBe(true);
  });

  it('new and popular sorts order the same products by date and by popularity', async () => {
    const fresh = await listing(`category=${DRESSES}&sort=new&per_page=3`);
    const popular = await listing(`category=${DRESSES}&sort=popular&per_page=3`);
    const [d0, d1, d2, , , , , , , d9, d10, d11] = fx.dressProducts.map((p) => p.id);
    expect(fresh.products.map((p) => p.id)).toEqual([d11, d10, d9]);
    expect(popular.products.map((p) => p.id)).toEqual([d0, d1, d2]);
  });

  it('pages do not overlap and together hold every product', async () => {
    const first = await listing(`category=${ROOT}&per_page=4`);
    const seen = new Set<number>();
    for (let page = 1; page <= first.pages; page++) {
      const data = await listing(`category=${ROOT}&per_page=4&page=${page}`);
      data.products.forEach((p) => seen.add(p.id));
    }
    expect(first.pages).toBe(Math.ceil(rootCount / 4));
    expect(seen.size).toBe(rootCount);
    const past = await listing(`category=${ROOT}&per_page=4&page=${first.pages + 1}`);
    expect(past.products).toEqual([]);
  });

  it('a brand listing within one of its categories, or within a wider category that holds its products', async () => {
    const { beta } = fx.brands;
    const leaf = await api<Listing>(`/api/v1/ecommerce-core/products?brand=${beta.id}&category=${fx.shoes.id}`);
    expect(leaf.status).toBe(200);
    expect(leaf.body.breadcrumbs?.map((b) => b.name)).toEqual(['Главная', 'Бренды', 'Betatest', 'Тест-обувь · Тест-отдел']);
    expect(leaf.body.data?.total).toBe(3);
    const wide = await api<Listing>(`/api/v1/ecommerce-core/products?brand=${beta.id}&category=${ROOT}`);
    expect(wide.body.data?.total).toBe(8);
    expect(wide.body.data?.products.every((p) => p.brand_id === beta.id)).toBe(true);
  });

  it('search with filters', async () => {
    const data = await listing(`search=${encodeURIComponent('платье тестовое')}&with_discount=1`);
    expect(ids(data)).toEqual(idsOf(fx.dressProducts.filter((_, k) => k % 3 === 0)));
  });

  it.each([
    ['price_min=abc', 'price_min'],
    ['page=100000', 'page'],
    ['page=0', 'page'],
    ['per_page=500', 'per_page'],
    ['sort=cheapest', 'sort'],
    ['brands=abc', 'brands'],
    ['free_delivery=maybe', 'free_delivery'],
    ['category=-1', 'category'],
    [`search=${'я'.repeat(101)}`, 'search'],
  ])('%s is a 422 with a field message, never a 500', async (query, field) => {
    const { status, body } = await api(`/api/v1/ecommerce-core/products?${query}`);
    expect(status).toBe(422);
    expect(body.success).toBe(false);
    expect(Object.keys(body.errors ?? {}).some((k) => k === field || k.startsWith(`${field}.`))).toBe(true);
  });

  it.each(['brands=999999', 'color=999', 'attr=XXXXXL', 'categories=999999'])('unknown filter value %s gives an empty result', async (query) => {
    const data = await listing(`category=${ROOT}&${query}`);
    expect(data.total).toBe(0);
    expect(data.products).toEqual([]);
  });

  it.each(['category=999999', 'brand=999999'])('unknown scope %s is a 404', async (query) => {
    const { status, body } = await api(`/api/v1/ecommerce-core/products?${query}`);
    expect(status).toBe(404);
    expect(body.success).toBe(false);
  });
});

describe('GET /api/v1/ecommerce-core/product/{id}', () => {
  it('returns the product with images, sizes, attributes, related products and the category trail', async () => {
    const made = fx.dressProducts[1] as { id: number; name: string; url: string };
    const res = await api<Product>(`/api/v1/ecommerce-core/product/${made.id}`);
    expect(res.status).toBe(200);
    const p = res.body.data as Product;
    expect(p).toMatchObject({ id: made.id, name: made.name, brand: 'Alphatest', price: 2000_00, url: made.url, in_stock: true });
    expect(p.images).toHaveLength(1);
    // Dress 1 has its M sold out: shown, not available, nothing to add.
    expect(p.variants.map((v) => [v.label, v.available, v.max_item])).toEqual([
      ['S', true, 3],
      ['M', false, 0],
      ['L', true, 5],
    ]);
    expect(p.attributes).toEqual([{ name: 'Материал', value: 'Хлопок' }]);
    expect(p.category.id).toBe(DRESSES);
    // Related: the same brand in the same category, most popular first, never the product itself.
    expect(p.related.map((r) => r.id)).toEqual(fx.dressProducts.slice(0, 8).flatMap((d) => (d.id === made.id ? [] : [d.id])));
    expect(res.body.breadcrumbs?.map((b) => b.name)).toEqual(['Главная', 'Тест-отдел', 'Тест-одежда', 'Тест-платья', p.name]);
    expect(res.body.meta_data?.title).toBe(`Alphatest ${p.name} — купить в интернет-магазине Brandshop`);
  });

  it('caps a line at what is left in stock and says how few are left', async () => {
    const p = (await api<Product>(`/api/v1/ecommerce-core/product/${fx.scarce.id}`)).body.data as Product;
    expect(p.variants.map((v) => ({ label: v.label, available: v.available, left: v.left, max: v.max_item }))).toEqual([
      { label: 'XS', available: true, left: 2, max: 2 },
      { label: 'XL', available: false, left: null, max: 0 },
    ]);
  });

  it('an inactive product is not found', async () => {
    expect((await api(`/api/v1/ecommerce-core/product/${fx.inactive.id}`)).status).toBe(404);
  });

  it.each(['0', 'abc', '-5', '1.5', '99999999', '2147483648'])('answers 404 for id %s', async (id) => {
    const { status, body } = await api(`/api/v1/ecommerce-core/product/${id}`);
    expect(status).toBe(404);
    expect(body.success).toBe(false);
  });
});

describe('POST /api/v1/ecommerce-core/search-suggestions', () => {
  it.each(['gucci', 'Гуччи', 'гучи', 'GUCCI'])('%s finds the brand Gucci and its products', async (key) => {
    const s = await suggest(key);
    expect(s.brands.data).toContainEqual({ id: expect.any(Number), name: 'Gucci', url: expect.stringMatching(/^\/m\/\d+\/gucci$/) });
    expect(s.products.data.length).toBeGreaterThan(0);
    expect(s.products.data.every((p) => p.brand === 'Gucci')).toBe(true);
  });

  it.each(['Alphatest', 'альфатест', 'альфатес'])('%s finds the tests’ own brand in either alphabet, and only its products', async (key) => {
    const s = await suggest(key, 20);
    expect(s.brands.data).toEqual([{ id: fx.brands.alpha.id, name: 'Alphatest', url: `/m/${fx.brands.alpha.id}/alphatest` }]);
    expect(s.products.data.map((p) => p.id).sort((a, b) => a - b)).toEqual(
      idsOf([...fx.dressProducts.slice(0, 8), ...fx.shoeProducts.filter((_, k) => k % 2 === 0)]),
    );
  });

  it('corrects a typo: "кросовки" finds sneakers and their categories', async () => {
    const s = await suggest('кросовки');
    expect(s.products.data.length).toBeGreaterThan(0);
    expect(s.products.data.every((p) => /кроссовк/i.test(p.name))).toBe(true);
    expect(s.categories.data.some((c) => c.name.startsWith('Кроссовки'))).toBe(true);
  });

  it('understands Russian morphology: "платья" and "платье" find dresses, not scarves', async () => {
    for (const key of ['платья', 'платье']) {
      const s = await suggest(key);
      expect(s.products.data.length).toBeGreaterThan(0);
      expect(
        s.products.data.every((p) => /плать/i.test(p.name)),
        key,
      ).toBe(true);
      expect(s.categories.data[0]?.name).toMatch(/^Платья/);
    }
  });

  it('matches the word being typed as a prefix', async () => {
    const s = await suggest('крос');
    expect(s.products.data.length).toBeGreaterThan(0);
  });

  it('several words narrow the result (AND), colours included', async () => {
    const s = await suggest('черное платье', 20);
    // A dress by its name, or by its category (a category's word finds all of it: issue 40); black all.
    for (const p of s.products.data) {
      const detail = (await api<ProductDetail>(`/api/v1/ecommerce-core/product/${p.id}`)).body.data as ProductDetail;
      expect(`${detail.name} ${detail.category.name}`).toMatch(/плать/i);
      expect(detail.color?.name ?? '').toMatch(/^чёрн/i);
    }
    const all = await suggest('платье', 20);
    expect(s.products.data.length).toBeLessThanOrEqual(all.products.data.length);
  });

  it('respects the limit (1 to 20, 10 by default)', async () => {
    expect((await suggest('gucci', 1)).products.data).toHaveLength(1);
    expect((await suggest('gucci', 4)).products.data).toHaveLength(4);
    expect((await suggest('gucci')).products.data).toHaveLength(10);
    expect((await suggest('gucci', 20)).products.data).toHaveLength(20);
  });

  it('product previews carry image, brand, name, url and prices', async () => {
    const [p] = (await suggest('сумка', 1)).products.data;
    expect(p).toMatchObject({
      id: expect.any(Number),
      url: expect.stringMatching(/^\/p\//),
      image: expect.stringMatching(/^\/img\/p\/.+\.webp$/),
      brand: expect.any(String),
      price: expect.any(Number),
      currency_symbol: '₽',
    });
  });

  it.each(['xyzzyq', "'; DROP TABLE products; --", '&&&', 'платье & | !'])('returns empty lists, not an error, for %j', async (key) => {
    const s = await suggest(key);
    if (key.startsWith('платье')) expect(s.products.data.length).toBeGreaterThan(0);
    else expect(s).toEqual({ products: { data: [] }, brands: { data: [] }, categories: { data: [] } });
  });

  it.each([
    ['', 'search_key'],
    ['limit=0&search_key=abc', 'limit'],
    ['limit=21&search_key=abc', 'limit'],
    ['limit=x&search_key=abc', 'limit'],
    [`search_key=${'a'.repeat(101)}`, 'search_key'],
  ])('%j is a 422', async (query, field) => {
    const { status, body } = await api(`/api/v1/ecommerce-core/search-suggestions?${query}`, { method: 'POST' });
    expect(status).toBe(422);
    expect(body.errors?.[field]).toBeTruthy();
  });

  it('GET is refused in the envelope', async () => {
    const { status, body } = await api('/api/v1/ecommerce-core/search-suggestions?search_key=abc');
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(body.success).toBe(false);
  });
});

describe('catalogue pages', () => {
  const page = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(new URL(path, baseUrl()), { redirect: 'manual', ...init });
    return { status: res.status, location: res.headers.get('location'), html: await res.text(), headers: res.headers };
  };

  it('a category page has its count, canonical link, crawlable pagination and public caching', async () => {
    const { status, html, headers } = await page(`/c/${ROOT}/test-otdel?per_page=4&page=2`);
    expect(status).toBe(200);
    expect(html).toMatch(new RegExp(`<link rel="canonical" href="${baseUrl()}/c/${ROOT}/test-otdel\\?page=2"`));
    expect(html).toContain('rel="prev"');
    expect(html).toMatch(/\d[\d\s]* товар/);
    expect(headers.get('cache-control')).toContain('public');
  });

  it('a product page carries schema.org Product/Offer data', async () => {
    const { html } = await page(fx.scarce.url);
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] as string;
    expect(JSON.parse(json)).toMatchObject({
      '@type': 'Product',
      offers: { '@type': 'Offer', priceCurrency: 'RUB', price: '15000.00', availability: 'https://schema.org/InStock' },
    });
  });

  it.each([
    [`/c/${DRESSES}/wrong?attr=M`, 301, new RegExp(`/c/${DRESSES}/test-platya\\?attr=M$`)],
    [`/c/${DRESSES}`, 301, new RegExp(`/c/${DRESSES}/test-platya$`)],
    ['/c/0/x', 302, /\/404$/],
    ['/p/abc', 302, /\/404$/],
    [`/p/${fx.inactive.id}/${fx.inactive.slug}`, 302, /\/404$/],
    [`/m/${fx.brands.alpha.id}/wrong`, 301, new RegExp(`/m/${fx.brands.alpha.id}/alphatest$`)],
    [`/m/${fx.brands.alpha.id}/alphatest/999999`, 302, /\/404$/],
    [`/m/${fx.brands.alpha.id}/alphatest/${fx.shoes.id}/extra`, 302, /\/404$/],
  ])('%s → %i %s', async (path, status, location) => {
    const res = await page(path);
    expect(res.status).toBe(status);
    expect(res.location).toMatch(location);
  });

  it('hand-edited filters do not break the page', async () => {
    for (const q of ['price_min=abc', 'page=100000', 'brands=abc', 'attr=%00', 'sort=x&sort=y'])
      expect((await page(`/c/${DRESSES}/test-platya?${q}`)).status, q).toBe(200);
  });

  it('the English interface translates the catalogue chrome', async () => {
    const { html, headers } = await page(`/c/${DRESSES}/test-platya`, { headers: { cookie: 'lang=en' } });
    expect(html).toContain('Most popular');
    expect(html).toContain('Filters');
    expect(headers.get('cache-control')).toBe('private, no-store');
  });
});
