// What search engines and the breadcrumbs bar read for each catalogue route: titles, descriptions and
// trails, in the request's language, built once per route by views.server.ts for the page and its API
// twin alike.
import { formatPrice } from '~/lib/format.ts';
import { trail, type Crumb, type MetaData } from '~/lib/http/envelope.ts';
import { t, type Locale } from '~/lib/i18n/index.ts';
import { AVERAGE_DELIVERY_DAYS } from '~/lib/shop.ts';
import type { ProductDetail } from './catalog.product.ts';

export interface PathItem {
  id: number;
  name: string;
  url: string;
}

export interface CategoryNames {
  name: string;
  /** Root … this category. */
  path: readonly PathItem[];
}

export interface BrandNames {
  name: string;
  nameRu: string;
  url: string;
}

/** '<category> <brand>', as a brand page within one category is titled ('Платья Gucci'). */
export function brandCategoryTitle(brand: BrandNames, categoryName?: string): string {
  return categoryName ? `${categoryName} ${brand.name}` : brand.name;
}

export function categoryMeta(locale: Locale, category: CategoryNames, total: number): MetaData {
  // 'Платья женщинам': the same name sits under Women, Men and Kids.
  const place = category.path.length > 1 ? ` ${category.path[0]?.name.toLowerCase()}` : '';
  const name = `${category.name}${place}`;
  return {
    title: t(locale, 'meta.category.title', { name }),
    description: t(locale, 'meta.category.description', { name, count: total.toLocaleString(locale === 'en' ? 'en-GB' : 'ru-RU') }),
  };
}

export function categoryCrumbs(locale: Locale, category: CategoryNames): Crumb[] {
  return trail(locale, ...category.path.map((p, k) => (k === category.path.length - 1 ? { name: p.name } : { name: p.name, url: p.url })));
}

export function brandMeta(locale: Locale, brand: BrandNames, categoryName?: string): MetaData {
  const what = brandCategoryTitle(brand, categoryName);
  return {
    title: t(locale, 'meta.brand.title', { what }),
    description: t(locale, 'meta.brand.description', { what: brand.nameRu ? `${what} (${brand.nameRu})` : what, days: AVERAGE_DELIVERY_DAYS }),
  };
}

export function brandCrumbs(locale: Locale, brand: BrandNames, categoryName?: string): Crumb[] {
  const brands = { name: t(locale, 'nav.brands'), url: '/brands' };
  return categoryName ? trail(locale, brands, { name: brand.name, url: brand.url }, { name: categoryName }) : trail(locale, brands, { name: brand.name });
}

export function searchMeta(locale: Locale, text: string): MetaData {
  return { title: t(locale, 'meta.search.title', { q: text }), description: t(locale, 'meta.search.description', { q: text }) };
}

export function searchCrumbs(locale: Locale, text: string): Crumb[] {
  return trail(locale, { name: t(locale, 'search.crumb', { q: text }) });
}

export function productMeta(locale: Locale, product: ProductDetail): MetaData {
  const discount = product.discount_percent > 0 ? t(locale, 'meta.product.discount', { n: product.discount_percent }) : '';
  return {
    title: t(locale, 'meta.product.title', { brand: product.brand, name: product.name }),
    description: t(locale, 'meta.product.description', {
      brand: product.brand,
      name: product.name,
      price: formatPrice(product.price),
      discount,
      days: AVERAGE_DELIVERY_DAYS,
    }),
  };
}

export function productCrumbs(locale: Locale, path: readonly PathItem[], product: ProductDetail): Crumb[] {
  return trail(locale, ...path.map((p) => ({ name: p.name, url: p.url })), { name: product.name });
}
