import { describe, expect, it } from 'vitest';
import {
  feedHead,
  roubles,
  feedOffers,
  parseSitemapFile,
  robotsTxt,
  sitemapFiles,
  SITEMAP_FILE_URLS,
  urlEntry,
  xmlText,
  type FeedProduct,
} from './discovery.ts';

describe('robots.txt', () => {
  const text = robotsTxt('https://brandshop.example/some/path', ['sort', 'per_page', 'brands', 'categories', 'color', 'attr', 'price_min', 'with_discount']);
  const lines = text.split('\n');

  it('opens the shop, closes personal and transactional paths and the API', () => {
    expect(lines).toContain('Allow: /');
    for (const path of ['/api/', '/cart', '/checkout', '/dashboard', '/order-success/', '/order-failed/', '/password/', '/product/search'])
      expect(lines).toContain(`Disallow: ${path}`);
  });

  it('closes filtered and sorted listings but not their pages', () => {
    for (const name of ['sort', 'brands', 'color', 'attr', 'price_min', 'with_discount']) {
      expect(lines).toContain(`Disallow: /*?${name}=`);
      expect(lines).toContain(`Disallow: /*&${name}=`);
    }
    expect(text).not.toMatch(/[?&]page=/);
  });

  it('folds tracking parameters for Yandex and names the sitemap at the site’s origin', () => {
    expect(lines).toContain('Clean-param: utm_source&utm_medium&utm_campaign&utm_content&utm_term&ref&yclid&gclid&fbclid');
    expect(lines).toContain('Sitemap: https://brandshop.example/sitemap.xml');
  });
});

describe('sitemap text', () => {
  it('escapes XML and drops characters XML cannot carry', () => {
    expect(xmlText(`a&b<c>"d"'e'\u0000\u0008ок`)).toBe('a&amp;b&lt;c&gt;&quot;d&quot;&#39;e&#39;ок');
    expect(urlEntry('https://s.example/p/1/a?x=1&y=2', new Date(Date.UTC(2026, 10, 23, 12, 0, 5)))).toBe(
      '<url><loc>https://s.example/p/1/a?x=1&amp;y=2</loc><lastmod>2026-11-23T12:00:05+00:00</lastmod></url>\n',
    );
  });

  it('splits products into files of at most the file size, one pages file first', () => {
    expect(sitemapFiles(0)).toEqual(['pages', 'products-1']);
    expect(sitemapFiles(SITEMAP_FILE_URLS)).toEqual(['pages', 'products-1']);
    expect(sitemapFiles(SITEMAP_FILE_URLS + 1)).toEqual(['pages', 'products-1', 'products-2']);
    expect(SITEMAP_FILE_URLS).toBeLessThanOrEqual(50_000);
  });

  it.each([
    ['pages.xml', { kind: 'pages' }],
    ['products-1.xml', { kind: 'products', part: 1 }],
    ['products-12.xml', { kind: 'products', part: 12 }],
    ['products-0.xml', undefined],
    ['products-01.xml', undefined],
    ['products-1.xml.gz', undefined],
    ['pages', undefined],
    [undefined, undefined],
  ])('file name %j → %j', (name, parsed) => {
    expect(parseSitemapFile(name)).toEqual(parsed);
  });
});

describe('product feed', () => {
  const product: FeedProduct = {
    id: 7,
    url: '/p/7/plate-gucci',
    name: 'Платье Gucci <мини>',
    description: 'Шёлк & кружево',
    brand: 'Gucci',
    categoryId: 3,
    price: 120_000,
    priceOld: 150_050,
    color: 'Чёрный',
    department: 'zhenshchinam',
    pictures: ['/img/p/dress-1-w720.webp'],
    variants: [
      { id: 70, code: 'V70', label: 'S', stock: 2 },
      { id: 71, code: 'V71', label: '42', stock: 0 },
    ],
  };

  it('writes one offer per size grouped by the product, with availability per size', () => {
    const offers = feedOffers(product, 'https://brandshop.example').trim().split('\n');
    expect(offers).toHaveLength(2);
    expect(offers[0]).toContain('<offer id="70" group_id="7" available="true">');
    expect(offers[0]).toContain('<param name="Размер" unit="INT">S</param>');
    expect(offers[1]).toContain('<offer id="71" group_id="7" available="false">');
    expect(offers[1]).toContain('<param name="Размер" unit="RU">42</param>');
    for (const offer of offers) {
      expect(offer).toContain('<url>https://brandshop.example/p/7/plate-gucci</url>');
      expect(offer).toContain('<price>1200</price><oldprice>1500.50</oldprice><currencyId>RUB</currencyId><categoryId>3</categoryId>');
      expect(offer).toContain('<picture>https://brandshop.example/img/p/dress-1-w720.webp</picture>');
      expect(offer).toContain('<vendor>Gucci</vendor><name>Платье Gucci &lt;мини&gt;</name><description>Шёлк &amp; кружево</description>');
      expect(offer).toContain('<param name="Цвет">Чёрный</param><param name="Пол">Женский</param><param name="Возраст">Взрослый</param>');
    }
  });

  it('states prices in roubles', () => {
    expect([roubles(100), roubles(1_234_500), roubles(1250), roubles(99)]).toEqual(['1', '12345', '12.50', '0.99']);
  });

  it('leaves out an old price that is not higher, and a product without sizes is one unavailable offer', () => {
    const offers = feedOffers({ ...product, priceOld: 100_000, variants: [] }, 'https://brandshop.example');
    expect(offers).not.toContain('<oldprice>');
    expect(offers.trim().split('\n')).toHaveLength(1);
    expect(offers).toContain('<offer id="p7" group_id="7" available="false">');
  });

  it('opens with the shop, roubles and the category tree', () => {
    const head = feedHead({ name: 'Brandshop', company: 'Brandshop', url: 'https://brandshop.example/', date: new Date(Date.UTC(2026, 10, 23, 9, 30)) }, [
      { id: 1, parentId: null, name: 'Женщинам' },
      { id: 3, parentId: 1, name: 'Платья' },
    ]);
    expect(head).toContain('<yml_catalog date="2026-11-23T09:30:00+00:00">');
    expect(head).toContain('<currencies><currency id="RUB" rate="1"/></currencies>');
    expect(head).toContain('<category id="1">Женщинам</category>\n<category id="3" parentId="1">Платья</category>');
  });
});
