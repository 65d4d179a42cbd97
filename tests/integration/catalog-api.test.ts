// The catalogue listing, product and suggestions calls over real HTTP against the built server and the
// seeded database: every filter alone and combined, sorting, pagination, facet counts, bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api.ts';

interface Card {
  id: number;
  name: string;
  brand: string;
  brand_id: number;
  price: number;
  price_old: number | null;
  discount_percent: number;
  url: string;
  free_delivery: boolean;
  rating: number;
  image: { src: string; srcset: string; width: number; height: number } | null;
}
interface FacetValue {
  id: number | string;
  name: string;
  count: number;
}
interface Listing {
  products: Card[];
  total: number;
  page: number;
  pages: number;
  per_page: number;
  facets: {
    brands: FacetValue[];
    categories: FacetValue[];
    color: FacetValue[];
    attr: FacetValue[];
    free_delivery: number;
    with_discount: number;
    top_rating: number;
    price: { min: number; max: number } | null;
  };
}
interface Variant {
  code: string;
  label: string;
  available: boolean;
  max_item: number;
  min_item: number;
}
interface Product extends Omit<Card, 'image'> {
  images: { src: string }[];
  variants: Variant[];
  attributes: { name: string; value: string }[];
  category: { id: number; name: string; url: string };
  color: { id: number; name: string } | null;
  related: Card[];
  in_stock: boolean;
}
interface Suggestions {
  products: { data: (Card & { image: string })[] };
  brands: { data: { id: number; name: string; url: string }[] };
  categories: { data: { id: number; name: string; url: string }[] };
}

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
const sum = (values: FacetValue[]) => values.reduce((s, v) => s + v.count, 0);

// Women (1) holds dresses (3), shoes (12), bags (19)… in the seeded tree.
const WOMEN = 1;

describe('GET /api/v1/ecommerce-core/products', () => {
  let women: Listing;
  beforeAll(async () => {
    women = await listing(`category=${WOMEN}&per_page=60`);
  });

  it('lists a category subtree with cards, totals and breadcrumbs', async () => {
    const res = await api<Listing>(`/api/v1/ecommerce-core/products?category=3`);
    expect(res.body.breadcrumbs?.map((b) => b.name)).toEqual(['Главная', 'Женщинам', 'Одежда', 'Платья']);
    expect(res.body.meta_data?.title).toContain('Платья');
    const data = res.body.data as Listing;
    expect(data.total).toBeGreaterThan(0);
    expect(data.products).toHaveLength(Math.min(24, data.total));
    const card = data.products[0] as Card;
    expect(card.url).toMatch(/^\/p\/\d+\/[a-z0-9-]+$/);
    expect(card.image).toMatchObject({ width: 720, height: 960 });
    expect(card.image?.srcset).toContain('360w');
    expect(res.headers.get('cache-control')).toContain('s-maxage');
    expect(women.total).toBeGreaterThan(data.total);
  });

  it('counts every product once in the category, brand and flag facets', () => {
    expect(sum(women.facets.categories)).toBe(women.total);
    expect(sum(women.facets.brands)).toBe(women.total);
    expect(women.facets.with_discount).toBeGreaterThan(0);
    expect(women.facets.with_discount).toBeLessThan(women.total);
    expect(women.facets.price?.min).toBeLessThanOrEqual(women.facets.price?.max ?? 0);
  });

  it('brands filter: total equals the brand facet count and every card is of that brand', async () => {
    const brand = women.facets.brands[0] as FacetValue;
    const data = await listing(`category=${WOMEN}&brands=${brand.id}&per_page=60`);
    expect(data.total).toBe(brand.count);
    expect(data.products.every((p) => p.brand_id === brand.id)).toBe(true);
    // The brand group ignores its own selection: other brands still show what they would add.
    expect(data.facets.brands.length).toBe(women.facets.brands.length);
  });

  it('several brands, comma separated or repeated, add up', async () => {
    const [a, b] = women.facets.brands as [FacetValue, FacetValue];
    const comma = await listing(`category=${WOMEN}&brands=${a.id},${b.id}`);
    const repeated = await listing(`category=${WOMEN}&brands=${a.id}&brands=${b.id}`);
    expect(comma.total).toBe(a.count + b.count);
    expect(repeated.total).toBe(comma.total);
  });

  it('categories filter narrows to the chosen sub-categories', async () => {
    const c = women.facets.categories[0] as FacetValue;
    const data = await listing(`category=${WOMEN}&categories=${c.id}`);
    expect(data.total).toBe(c.count);
  });

  it('color filter matches the colour facet', async () => {
    const color = women.facets.color[0] as FacetValue;
    const data = await listing(`category=${WOMEN}&color=${color.id}&per_page=5`);
    expect(data.total).toBe(color.count);
    const product = (await api<Product>(`/api/v1/ecommerce-core/product/${data.products[0]?.id}`)).body.data as Product;
    expect(product.color?.id).toBe(color.id);
  });

  it('size filter (attr) keeps products with that size in stock', async () => {
    const size = women.facets.attr.find((a) => a.name === 'M') as FacetValue;
    const data = await listing(`category=${WOMEN}&attr=M&per_page=5`);
    expect(data.total).toBe(size.count);
    for (const card of data.products) {
      const product = (await api<Product>(`/api/v1/ecommerce-core/product/${card.id}`)).body.data as Product;
      expect(product.variants.some((v) => v.label === 'M' && v.available)).toBe(true);
    }
  });

  it('a size with a comma in it ("16,5") is one size, not two', async () => {
    const kids = await listing('category=70&per_page=1');
    const half = kids.facets.attr.find((a) => String(a.id).includes(','));
    if (!half) return;
    const data = await listing(`category=70&attr=${encodeURIComponent(String(half.id))}`);
    expect(data.total).toBe(half.count);
  });

  it.each([
    ['free_delivery', (p: Card) => p.free_delivery, 'free_delivery'],
    ['with_discount', (p: Card) => p.discount_percent > 0 && (p.price_old ?? 0) > p.price, 'with_discount'],
    ['top_rating', (p: Card) => p.rating >= 4.5, 'top_rating'],
  ] as const)('%s flag: total equals its facet count and every card qualifies', async (flag, check, facet) => {
    const data = await listing(`category=${WOMEN}&${flag}=1&per_page=60`);
    expect(data.total).toBe(women.facets[facet]);
    expect(data.total).toBeGreaterThan(0);
    expect(data.products.every(check)).toBe(true);
  });

  it('price range in roubles keeps prices inside it', async () => {
    const data = await listing(`category=${WOMEN}&price_min=50000&price_max=150000&per_page=60`);
    expect(data.total).toBeGreaterThan(0);
    expect(data.products.every((p) => p.price >= 50000_00 && p.price <= 150000_00)).toBe(true);
  });

  it('combined filters: each facet applies every other group, and the total matches', async () => {
    const brand = women.facets.brands[0] as FacetValue;
    const both = await listing(`category=${WOMEN}&brands=${brand.id}&with_discount=1&per_page=60`);
    const brandOnly = await listing(`category=${WOMEN}&brands=${brand.id}`);
    const discountOnly = await listing(`category=${WOMEN}&with_discount=1`);
    expect(both.total).toBe(brandOnly.facets.with_discount);
    expect(both.total).toBe(discountOnly.facets.brands.find((b) => b.id === brand.id)?.count);
    expect(both.products.every((p) => p.brand_id === brand.id && p.discount_percent > 0)).toBe(true);
    const all = await listing(`category=${WOMEN}&brands=${brand.id}&with_discount=1&free_delivery=1&attr=M&attr=L&price_max=500000`);
    expect(all.total).toBeLessThanOrEqual(both.total);
  });

  it.each([
    ['price_asc', (a: Card, b: Card) => a.price <= b.price],
    ['price_desc', (a: Card, b: Card) => a.price >= b.price],
    ['discount', (a: Card, b: Card) => a.discount_percent >= b.discount_percent],
  ] as const)('sorts by %s', async (sort, inOrder) => {
    const data = await listing(`category=${WOMEN}&sort=${sort}&per_page=60`);
    expect(data.products.slice(1).every((p, k) => inOrder(data.products[k] as Card, p))).toBe(true);
  });

  it('new and popular sorts give different first pages of the same products', async () => {
    const fresh = await listing(`category=${WOMEN}&sort=new`);
    const popular = await listing(`category=${WOMEN}&sort=popular`);
    expect(fresh.total).toBe(popular.total);
    expect(fresh.products.map((p) => p.id)).not.toEqual(popular.products.map((p) => p.id));
  });

  it('pages do not overlap and together hold every product', async () => {
    const first = await listing('category=3&per_page=10');
    const seen = new Set<number>();
    for (let page = 1; page <= first.pages; page++) {
      const data = await listing(`category=3&per_page=10&page=${page}`);
      data.products.forEach((p) => seen.add(p.id));
    }
    expect(first.pages).toBe(Math.ceil(first.total / 10));
    expect(seen.size).toBe(first.total);
    const past = await listing(`category=3&page=${first.pages + 1}`);
    expect(past.products).toEqual([]);
  });

  it('a brand listing within one of its categories', async () => {
    const res = await api<Listing>(`/api/v1/ecommerce-core/products?brand=1&category=${WOMEN}`);
    expect(res.status).toBe(200);
    expect(res.body.data?.products.every((p) => p.brand_id === 1)).toBe(true);
    expect(res.body.breadcrumbs?.[1]).toEqual({ name: 'Бренды', url: '/brands' });
  });

  it('search with filters', async () => {
    const data = await listing(`search=${encodeURIComponent('платье')}&with_discount=1`);
    expect(data.total).toBeGreaterThan(0);
    expect(data.products.every((p) => /плать/i.test(p.name) && p.discount_percent > 0)).toBe(true);
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
    const data = await listing(`category=${WOMEN}&${query}`);
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
    const first = (await listing('category=3&per_page=1')).products[0] as Card;
    const res = await api<Product>(`/api/v1/ecommerce-core/product/${first.id}`);
    expect(res.status).toBe(200);
    const p = res.body.data as Product;
    expect(p).toMatchObject({ id: first.id, name: first.name, brand: first.brand, price: first.price, url: first.url });
    expect(p.images.length).toBeGreaterThan(0);
    expect(p.variants.length).toBeGreaterThan(0);
    expect(p.variants.every((v) => v.max_item >= 0 && v.min_item >= 1 && (v.available || v.max_item === 0))).toBe(true);
    expect(p.attributes.length).toBeGreaterThan(0);
    expect(p.category.id).toBe(3);
    expect(p.related.length).toBeGreaterThan(0);
    expect(p.related.some((r) => r.id === p.id)).toBe(false);
    expect(res.body.breadcrumbs?.map((b) => b.name)).toEqual(['Главная', 'Женщинам', 'Одежда', 'Платья', p.name]);
    expect(res.body.meta_data?.title).toContain(p.name);
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
    expect(s.products.data.every((p) => /плать/i.test(p.name))).toBe(true);
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
    const { status, html, headers } = await page('/c/1/zhenshchinam?page=2');
    expect(status).toBe(200);
    expect(html).toMatch(/<link rel="canonical" href="[^"]*\/c\/1\/zhenshchinam\?page=2"/);
    expect(html).toContain('rel="prev"');
    expect(html).toMatch(/\d[\d\s]* товар/);
    expect(headers.get('cache-control')).toContain('public');
  });

  it('a product page carries schema.org Product/Offer data', async () => {
    const url = (await listing('category=3&per_page=1')).products[0]?.url as string;
    const { html } = await page(url);
    const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] as string;
    expect(JSON.parse(json)).toMatchObject({
      '@type': 'Product',
      offers: { '@type': 'Offer', priceCurrency: 'RUB', price: expect.stringMatching(/^\d+\.\d{2}$/) },
    });
  });

  it.each([
    ['/c/3/wrong?attr=M', 301, /\/c\/3\/platya\?attr=M$/],
    ['/c/0/x', 302, /\/404$/],
    ['/p/abc', 302, /\/404$/],
    ['/m/1/wrong', 301, /\/m\/1\/gucci$/],
    ['/m/1/gucci/999999', 302, /\/404$/],
  ])('%s → %i %s', async (path, status, location) => {
    const res = await page(path);
    expect(res.status).toBe(status);
    expect(res.location).toMatch(location);
  });

  it('hand-edited filters do not break the page', async () => {
    for (const q of ['price_min=abc', 'page=100000', 'brands=abc', 'attr=%00', 'sort=x&sort=y']) expect((await page(`/c/3/platya?${q}`)).status, q).toBe(200);
  });

  it('the English interface translates the catalogue chrome', async () => {
    const { html, headers } = await page('/c/3/platya', { headers: { cookie: 'lang=en' } });
    expect(html).toContain('Most popular');
    expect(html).toContain('Filters');
    expect(headers.get('cache-control')).toBe('private, no-store');
  });
});
