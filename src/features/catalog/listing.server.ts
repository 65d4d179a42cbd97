// Catalogue listings for the category, brand and search pages and GET /api/v1/ecommerce-core/products:
// ids, totals and facet counts from the catalogue index, cards from the database.
import { eq } from 'drizzle-orm';
import { matchText } from '~/features/search/search.server.ts';
import { getDb } from '~/lib/db/index.ts';
import { brands } from '~/lib/db/schema.ts';
import type { Crumb, MetaData } from '~/lib/http/envelope.ts';
import { getCatalogIndex, type CatalogIndex } from './catalog-index.server.ts';
import { ancestry, qualifiedCategoryName, queryIndex, type ListingScope } from './catalog-query.server.ts';
import { cardsByIds } from './catalog.server.ts';
import { brandUrl, categoryUrl } from './catalog.ts';
import { AVERAGE_DELIVERY_DAYS } from './product.ts';
import { listingQuerySchema, type Listing, type ListingQuery } from './listing.ts';
import { searchParamsToObject } from '~/lib/http/endpoint.ts';

export interface NavLink {
  id: number;
  name: string;
  url: string;
  count: number;
  current?: boolean;
}

/** A brand's category: `name` tells Women's from Men's ('Платья · Женщинам'), `categoryName` is the category's own. */
export interface BrandCategoryLink extends NavLink {
  categoryName: string;
}

/** '<category> <brand>', as a brand page within one category is titled ('Платья Gucci'). */
export function brandCategoryTitle(brand: BrandContext, category?: BrandCategoryLink): string {
  return category ? `${category.categoryName} ${brand.name}` : brand.name;
}

export interface CategoryContext {
  id: number;
  name: string;
  slug: string;
  url: string;
  /** Root … this category, for breadcrumbs and the page title. */
  path: { id: number; name: string; url: string }[];
  /** Sub-category navigation: the children, or for a leaf its siblings with itself marked. */
  nav: NavLink[];
}

export interface BrandContext {
  id: number;
  name: string;
  nameRu: string;
  slug: string;
  url: string;
  description: string;
  country: string;
  /** The categories this brand has products in, most stocked first, each a brand-catalogue link. */
  categories: BrandCategoryLink[];
}

async function listingFrom(index: CatalogIndex, scope: ListingScope, q: ListingQuery): Promise<Listing> {
  const result = queryIndex(index, scope, q);
  const products = await cardsByIds(result.positions.map((i) => index.ids[i] as number));
  return {
    products,
    total: result.total,
    page: q.page,
    pages: Math.max(1, Math.ceil(result.total / q.per_page)),
    per_page: q.per_page,
    facets: result.facets,
  };
}

export async function getListing(scope: ListingScope, q: ListingQuery): Promise<Listing> {
  return listingFrom(await getCatalogIndex(), scope, q);
}

/** The search route's listing: the same filters and sorts over the products the text finds. */
export async function getSearchListing(text: string, q: ListingQuery): Promise<Listing & { corrected: string | null }> {
  const match = await matchText(text);
  const hits = match.hits ?? new Uint8Array(match.index.n);
  return { ...(await listingFrom(match.index, { matches: hits }, q)), corrected: match.corrected };
}

export async function getCategoryContext(id: number): Promise<CategoryContext | null> {
  const index = await getCatalogIndex();
  const category = index.categories.get(id);
  if (!category) return null;
  const path = ancestry(index, id).map((c) => ({ id: c.id, name: c.name, url: categoryUrl(c.id, c.slug) }));
  const childrenOf = (parentId: number | null) =>
    [...index.categories.values()].filter((c) => c.parentId === parentId).sort((a, b) => a.sort - b.sort || a.id - b.id);
  let navSource = childrenOf(category.id);
  if (navSource.length === 0 && category.parentId !== null) navSource = childrenOf(category.parentId);
  const nav = navSource
    .map((c) => ({ id: c.id, name: c.name, url: categoryUrl(c.id, c.slug), count: index.categoryCounts.get(c.id) ?? 0, current: c.id === id }))
    .filter((c) => c.count > 0 || c.current);
  return { id, name: category.name, slug: category.slug, url: categoryUrl(id, category.slug), path, nav };
}

export async function getBrandContext(id: number): Promise<BrandContext | null> {
  const index = await getCatalogIndex();
  if (!index.brands.has(id)) return null;
  const db = await getDb();
  const [brand] = await db.select().from(brands).where(eq(brands.id, id)).limit(1);
  if (!brand) return null;
  const perCategory = new Map<number, number>();
  for (let i = 0; i < index.n; i++) if (index.brand[i] === id) perCategory.set(index.category[i] as number, (perCategory.get(index.category[i] as number) ?? 0) + 1);
  const url = brandUrl(brand.id, brand.slug);
  const categories = [...perCategory]
    .map(([categoryId, count]) => ({
      id: categoryId,
      name: qualifiedCategoryName(index, categoryId),
      categoryName: index.categories.get(categoryId)?.name ?? '',
      url: `${url}/${categoryId}`,
      count,
    }))
    .filter((c) => c.name)
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'ru'));
  return { id: brand.id, name: brand.name, nameRu: brand.nameRu, slug: brand.slug, url, description: brand.description, country: brand.country, categories };
}

export function categoryCrumbs(ctx: CategoryContext): Crumb[] {
  return [{ name: 'Главная', url: '/' }, ...ctx.path.map((p, k) => (k === ctx.path.length - 1 ? { name: p.name } : { name: p.name, url: p.url }))];
}

export function brandCrumbs(brand: BrandContext, category?: NavLink): Crumb[] {
  const base: Crumb[] = [{ name: 'Главная', url: '/' }, { name: 'Бренды', url: '/brands' }];
  return category ? [...base, { name: brand.name, url: brand.url }, { name: category.name }] : [...base, { name: brand.name }];
}

/**
 * Pages are forgiving where the API is strict: each parameter that fails is dropped on its own, so a
 * hand-edited or outdated link still shows a listing instead of an error.
 */
export function parseListingQueryLenient(params: URLSearchParams): { query: ListingQuery; dropped: string[] } {
  const raw = searchParamsToObject(params);
  const dropped: string[] = [];
  const shape = listingQuerySchema.shape;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(shape) as (keyof typeof shape)[]) {
    const parsed = shape[key].safeParse(raw[key]);
    if (parsed.success) out[key] = parsed.data;
    else {
      dropped.push(key);
      out[key] = shape[key].parse(undefined);
    }
  }
  return { query: out as ListingQuery, dropped };
}


export function categoryMeta(ctx: CategoryContext, total: number): MetaData {
  const place = ctx.path.length > 1 ? ` ${ctx.path[0]?.name.toLowerCase()}` : '';
  return {
    title: `${ctx.name}${place} — купить в интернет-магазине Brandshop`,
    description: `${ctx.name}${place}: ${total.toLocaleString('ru-RU')} товаров от мировых брендов с доставкой по России. Оригинальные вещи, скидки и бонусы.`,
  };
}

export function brandMeta(brand: BrandContext, category?: BrandCategoryLink): MetaData {
  const what = brandCategoryTitle(brand, category);
  return {
    title: `${what} — купить оригинал в интернет-магазине Brandshop`,
    description: `${what}${brand.nameRu ? ` (${brand.nameRu})` : ''}: оригинальные вещи с доставкой по России за ${AVERAGE_DELIVERY_DAYS} дней в среднем.`,
  };
}

export function searchMeta(text: string): MetaData {
  return { title: `«${text}» — поиск по каталогу Brandshop`, description: `Результаты поиска «${text}» в каталоге Brandshop.` };
}
