// Catalogue listings for the category, brand and search routes: ids, totals and facet counts from the
// catalogue read model, cards from the database (both kept per catalogue version), and the category and
// brand each listing is scoped to.
import { getBrand, catalogCards } from './catalog.server.ts';
import { brandUrl, categoryUrl } from './catalog.ts';
import { DEFAULT_SORT, type Listing, type ListingQuery } from './listing.ts';
import { Cache } from '~/lib/cache.ts';
import {
  ancestry,
  getCatalogIndex,
  matchText,
  qualifiedCategoryName,
  rankedHits,
  queryIndex,
  type CatalogIndex,
  type IndexListing,
  type ListingScope,
} from './read-model.server.ts';
import type { PathItem } from './seo.ts';

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

export interface CategoryContext {
  id: number;
  name: string;
  slug: string;
  url: string;
  /** Root … this category, for breadcrumbs and the page title. */
  path: PathItem[];
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

// A category's or a brand's listing is one pass over every product (0.7 ms at 100,000), the same for
// everyone until the catalogue moves: kept per version like the cards (docs/performance.md, "Renders
// without the page cache"). Shared between requests, so never changed by them. Search listings depend
// on the text's hits and are computed each time.
const keptListings = new Cache<string, IndexListing>({ name: 'listings', ttlMs: 0, maxEntries: 500 });

function indexListing(index: CatalogIndex, scope: ListingScope, q: ListingQuery): IndexListing {
  if (scope.matches) return queryIndex(index, scope, q);
  // The query as parsed by its schema: its keys come in one order, so equal queries make equal keys.
  const key = `${index.version}|${scope.categoryId ?? ''}|${scope.brandId ?? ''}|${JSON.stringify(q)}`;
  let result = keptListings.get(key);
  if (!result) keptListings.set(key, (result = queryIndex(index, scope, q)));
  return result;
}

async function listingFrom(index: CatalogIndex, scope: ListingScope, q: ListingQuery): Promise<Listing> {
  const result = indexListing(index, scope, q);
  const products = await catalogCards(result.positions.map((i) => index.ids[i] as number));
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
  // The default order of a search is what the shopper typed first (the popular order breaks ties); a
  // sort chosen by the shopper is kept.
  const order = q.sort === DEFAULT_SORT ? rankedHits(match, q.page * q.per_page) : undefined;
  return { ...(await listingFrom(match.index, { matches: hits, order }, q)), corrected: match.corrected };
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
  const brand = await getBrand(id);
  if (!brand) return null;
  const perCategory = new Map<number, number>();
  for (let i = 0; i < index.n; i++)
    if (index.brand[i] === id) perCategory.set(index.category[i] as number, (perCategory.get(index.category[i] as number) ?? 0) + 1);
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

/**
 * The brand within one category: a category it stocks, or a wider one whose subtree holds its products
 * (Gucci in Women); null when the brand has nothing there.
 */
export async function getBrandCategory(brand: BrandContext, categoryId: number): Promise<BrandCategoryLink | null> {
  const direct = brand.categories.find((c) => c.id === categoryId);
  if (direct) return direct;
  const index = await getCatalogIndex();
  const category = index.categories.get(categoryId);
  if (!category) return null;
  const within = new Set(index.subtree.get(categoryId) ?? []);
  const count = brand.categories.reduce((sum, c) => sum + (within.has(c.id) ? c.count : 0), 0);
  return count > 0
    ? { id: categoryId, name: qualifiedCategoryName(index, categoryId), categoryName: category.name, url: `${brand.url}/${categoryId}`, count }
    : null;
}
