// What search engines and marketplaces read (issue 12): robots.txt, the sitemap protocol's XML and the
// Yandex Market Language (YML) product feed, as text built from plain rows. The rows come from
// discovery.server.ts; nothing here touches the database, so the formats are tested on their own.
import { escapeHtml } from '~/lib/html.ts';
import { t } from '~/lib/i18n/index.ts';

/** The protocol allows 50,000; smaller files answer in a fraction of a second and stay small compressed. */
export const SITEMAP_FILE_URLS = 10_000;
export const SITEMAP_PATH = '/sitemap.xml';
export const FEED_PATH = '/feeds/yandex.yml';

/** Parameters that never change a page: Yandex's Clean-param folds them into the address without them. */
export const TRACKING_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term', 'ref', 'yclid', 'gclid', 'fbclid'];
/** Paths that are personal, transactional or answers of a program: never in a search index. */
export const PRIVATE_PATHS = [
  '/api/',
  '/cart',
  '/checkout',
  '/dashboard',
  '/ops',
  '/order-success/',
  '/order-failed/',
  '/password/',
  '/auth-redirect',
  '/product/search',
];

/** `filters`: the listing parameters that only filter or re-order a category's products (not `page`). */
export function robotsTxt(siteUrl: string, filters: readonly string[]): string {
  const origin = new URL(siteUrl).origin;
  return [
    'User-agent: *',
    'Allow: /',
    ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
    // A filtered or sorted listing repeats its category's products; the category itself stays open,
    // and so do its pages (?page=2), which lead to products the first page does not show.
    ...filters.flatMap((name) => [`Disallow: /*?${name}=`, `Disallow: /*&${name}=`]),
    `Clean-param: ${TRACKING_PARAMS.join('&')}`,
    '',
    `Sitemap: ${origin}${SITEMAP_PATH}`,
    '',
  ].join('\n');
}

/**
 * Text for XML content and attributes: the HTML escapes (all five are XML's too), after dropping the
 * characters XML 1.0 cannot carry at all (C0 controls other than tab and line breaks, lone surrogates,
 * U+FFFE/U+FFFF) rather than breaking the whole file.
 */
export function xmlText(value: string): string {
  return escapeHtml(value.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, ''));
}

/** W3C datetime with the offset, as both the sitemap protocol and YML accept. */
export function isoDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

export const SITEMAP_INDEX_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
export const SITEMAP_INDEX_CLOSE = '</sitemapindex>\n';
export const URLSET_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
export const URLSET_CLOSE = '</urlset>\n';

export function sitemapEntry(loc: string, lastmod: Date): string {
  return `<sitemap><loc>${xmlText(loc)}</loc><lastmod>${isoDate(lastmod)}</lastmod></sitemap>\n`;
}

export function urlEntry(loc: string, lastmod: Date): string {
  return `<url><loc>${xmlText(loc)}</loc><lastmod>${isoDate(lastmod)}</lastmod></url>\n`;
}

/** The sitemap files: one of pages (home, categories, brands, brand × category, info, blog), then products. */
export function sitemapFiles(activeProducts: number): string[] {
  const productFiles = Math.max(1, Math.ceil(activeProducts / SITEMAP_FILE_URLS));
  return ['pages', ...Array.from({ length: productFiles }, (_, i) => `products-${i + 1}`)];
}

/** `pages` or `products-{n}` from a requested file name; undefined for anything else. */
export function parseSitemapFile(name: string | undefined): { kind: 'pages' } | { kind: 'products'; part: number } | undefined {
  if (name === 'pages.xml') return { kind: 'pages' };
  const match = /^products-([1-9]\d{0,4})\.xml$/.exec(name ?? '');
  return match ? { kind: 'products', part: Number(match[1]) } : undefined;
}

// ---------------------------------------------------------------- the product feed (YML)

export interface FeedCategory {
  id: number;
  parentId: number | null;
  name: string;
}

export interface FeedProduct {
  id: number;
  url: string;
  name: string;
  description: string;
  brand: string;
  categoryId: number;
  /** Prices in kopecks, as the shop keeps them; the feed states roubles. */
  price: number;
  priceOld: number | null;
  color: string | null;
  /** The top-level category's slug (zhenshchinam, muzhchinam, detyam): who the clothes are for. */
  department: string;
  pictures: string[];
  variants: { id: number; code: string; label: string; stock: number }[];
}

export interface FeedShop {
  name: string;
  company: string;
  url: string;
  date: Date;
}

/** Yandex limits a description to 3,000 characters. */
const DESCRIPTION_MAX = 3000;
const PICTURES_MAX = 10;

export function feedHead(shop: FeedShop, categories: readonly FeedCategory[]): string {
  const tree = categories
    .map((c) => `<category id="${c.id}"${c.parentId === null ? '' : ` parentId="${c.parentId}"`}>${xmlText(c.name)}</category>`)
    .join('\n');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="${isoDate(shop.date)}">\n<shop>\n` +
    `<name>${xmlText(shop.name)}</name>\n<company>${xmlText(shop.company)}</company>\n<url>${xmlText(shop.url)}</url>\n` +
    `<currencies><currency id="RUB" rate="1"/></currencies>\n<categories>\n${tree}\n</categories>\n<offers>\n`
  );
}

export const FEED_TAIL = '</offers>\n</shop>\n</yml_catalog>\n';

/**
 * A description as YML wants it: plain text escaped, and a description kept as safe HTML (an imported one,
 * docs/import.md) in CDATA, as Yandex asks, within its 3,000 characters.
 */
export function feedDescription(description: string): string {
  if (!description.includes('<')) return xmlText(description.slice(0, DESCRIPTION_MAX));
  let html = description;
  if (html.length > DESCRIPTION_MAX) html = html.slice(0, DESCRIPTION_MAX).replace(/<[^>]*$/, '');
  return `<![CDATA[${html.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/** Kopecks as YML's roubles: whole roubles bare, otherwise with two decimals after a point. */
export function roubles(kopecks: number): string {
  return kopecks % 100 === 0 ? String(kopecks / 100) : (kopecks / 100).toFixed(2);
}

/** Letter sizes are international; numbers are Russian sizes (clothing and shoes alike in this shop). */
function sizeUnit(label: string): string | undefined {
  if (/^\d+([.,]5)?$/.test(label)) return 'RU';
  if (/^(X{0,3}S|M|X{0,4}L|\dXL)$/i.test(label)) return 'INT';
  return undefined;
}

function gender(department: string): string | undefined {
  if (department.startsWith('zhensh')) return t('ru', 'feed.female');
  if (department.startsWith('muzh')) return t('ru', 'feed.male');
  if (department.startsWith('det')) return t('ru', 'feed.unisex');
  return undefined;
}

function param(name: 'feed.color' | 'feed.size' | 'feed.gender' | 'feed.age', value: string, unit?: string): string {
  return `<param name="${t('ru', name)}"${unit ? ` unit="${unit}"` : ''}>${xmlText(value)}</param>`;
}

/**
 * One offer per size, grouped by the product in `group_id`, as Yandex asks of clothing and shoes: each
 * size has its own availability, and Market shows the sizes together on one card. A product with no
 * sizes is one offer.
 */
export function feedOffers(product: FeedProduct, origin: string): string {
  const variants = product.variants.length > 0 ? product.variants : [undefined];
  const common =
    `<price>${roubles(product.price)}</price>` +
    (product.priceOld !== null && product.priceOld > product.price ? `<oldprice>${roubles(product.priceOld)}</oldprice>` : '') +
    `<currencyId>RUB</currencyId><categoryId>${product.categoryId}</categoryId>` +
    product.pictures
      .slice(0, PICTURES_MAX)
      .map((p) => `<picture>${xmlText(new URL(p, origin).href)}</picture>`)
      .join('') +
    `<vendor>${xmlText(product.brand)}</vendor><name>${xmlText(product.name)}</name>` +
    `<description>${feedDescription(product.description)}</description>` +
    (product.color ? param('feed.color', product.color) : '') +
    (gender(product.department) ? param('feed.gender', gender(product.department) as string) : '') +
    param('feed.age', t('ru', product.department.startsWith('det') ? 'feed.child' : 'feed.adult'));
  const url = new URL(product.url, origin).href;
  return variants
    .map((v) => {
      const id = v ? v.id : `p${product.id}`;
      const available = v ? v.stock > 0 : false;
      const unit = v ? sizeUnit(v.label) : undefined;
      const size = v ? param('feed.size', v.label, unit) : '';
      // The stock itself, which Yandex reads and an import of this feed (docs/import.md) restores.
      const count = v ? `<count>${Math.max(0, v.stock)}</count>` : '';
      return `<offer id="${id}" group_id="${product.id}" available="${available}"><url>${xmlText(url)}</url>${common}${count}${size}</offer>\n`;
    })
    .join('');
}
