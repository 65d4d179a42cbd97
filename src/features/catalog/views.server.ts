// One view model per catalogue route, built once and shared by the page and its API twin, so the
// category page and GET …/products?category= can never disagree on a title, a trail or a count.
import { cacheTag, tagAnswer } from '~/lib/http/cache-tags.ts';
import type { Crumb, MetaData } from '~/lib/http/envelope.ts';
import { t, type Locale } from '~/lib/i18n/index.ts';
import { catalogCards, catalogProduct } from './catalog.server.ts';
import { brandUrl, searchUrl, type ProductCard } from './catalog.ts';
import {
  getBrandCategory,
  getBrandContext,
  getCategoryContext,
  getListing,
  getSearchListing,
  type BrandContext,
  type CategoryContext,
  type NavLink,
} from './listing.server.ts';
import { listingSearch, type Listing, type ListingQuery } from './listing.ts';
import type { ProductDetail } from './catalog.product.ts';
import { getCatalogIndex, topPositions, type CatalogIndex } from './read-model.server.ts';
import { Cache } from '~/lib/cache.ts';
import { brandCategoryTitle, brandCrumbs, brandMeta, categoryCrumbs, categoryMeta, productCrumbs, productMeta, searchCrumbs, searchMeta } from './seo.ts';

interface RouteView {
  meta_data: MetaData;
  breadcrumbs: Crumb[];
  /** The page's own address (no query): where a wrong slug is sent and what canonical links name. */
  url: string;
  /** The slug the address carries, checked by the page. */
  slug: string;
}

export interface ListingView extends RouteView {
  listing: Listing;
  query: ListingQuery;
  /** The canonical link: the address, with the page number past the first page. */
  canonical: string;
  /** A page number past the last page: the page answers 404. */
  outOfRange: boolean;
  title: string;
  subtitle: string | undefined;
  nav: NavLink[];
  navLabel: string | undefined;
  hide: ('brands' | 'categories')[];
}

function listingView(
  base: Omit<ListingView, 'canonical' | 'outOfRange' | 'nav' | 'navLabel' | 'hide'> & Partial<Pick<ListingView, 'nav' | 'navLabel' | 'hide'>>,
): ListingView {
  const { listing, query, url } = base;
  return {
    nav: [],
    navLabel: undefined,
    hide: [],
    ...base,
    canonical: query.page > 1 ? `${url}${listingSearch({ page: query.page })}` : url,
    outOfRange: query.page > listing.pages,
  };
}

/** /c/{id}/{slug?} and GET …/products?category={id}: the category with its whole subtree. */
export async function categoryView(locale: Locale, id: number, query: ListingQuery): Promise<(ListingView & { category: CategoryContext }) | null> {
  const category = await getCategoryContext(id);
  if (!category) return null;
  tagAnswer(cacheTag.category(category.id));
  const listing = await getListing({ categoryId: category.id }, query);
  return {
    ...listingView({
      listing,
      query,
      url: category.url,
      slug: category.slug,
      meta_data: categoryMeta(locale, category, listing.total),
      breadcrumbs: categoryCrumbs(locale, category),
      title: category.name,
      subtitle:
        category.path.length > 1
          ? category.path
              .slice(0, -1)
              .map((p) => p.name)
              .join(' / ')
          : undefined,
      nav: category.nav,
    }),
    category,
  };
}

/**
 * /m/{id}/{slug?}/{categoryId?} and GET …/products?brand={id}[&category={id}]: a brand's catalogue,
 * optionally within one of its categories (null when the brand has no products there).
 */
export async function brandView(
  locale: Locale,
  id: number,
  categoryId: number | undefined,
  query: ListingQuery,
): Promise<(ListingView & { brand: BrandContext }) | null> {
  const brand = await getBrandContext(id);
  if (!brand) return null;
  tagAnswer(cacheTag.brand(brand.id));
  const inCategory = categoryId === undefined ? undefined : await getBrandCategory(brand, categoryId);
  if (inCategory === null) return null;
  const listing = await getListing({ brandId: brand.id, categoryId: inCategory?.id }, query);
  const nav = [
    { id: 0, name: t(locale, 'catalog.allProducts'), url: brand.url, count: brand.categories.reduce((s, c) => s + c.count, 0), current: !inCategory },
    ...brand.categories.map((c) => ({ ...c, current: c.id === inCategory?.id })),
  ];
  return {
    ...listingView({
      listing,
      query,
      url: inCategory ? inCategory.url : brand.url,
      slug: brand.slug,
      meta_data: brandMeta(locale, brand, inCategory?.categoryName),
      breadcrumbs: brandCrumbs(locale, brand, inCategory?.name),
      title: brandCategoryTitle(brand, inCategory?.categoryName),
      subtitle: [brand.nameRu, brand.country].filter(Boolean).join(' · '),
      nav,
      navLabel: t(locale, 'catalog.brandCategories'),
      hide: ['brands'],
    }),
    brand,
  };
}

/** /product/search/{text} and GET …/products?search={text}: the products the text finds, with a correction when it made one. */
export async function searchView(locale: Locale, text: string, query: ListingQuery): Promise<ListingView & { corrected: string | null }> {
  tagAnswer(cacheTag.search);
  const { corrected, ...listing } = await getSearchListing(text, query);
  const url = searchUrl(text);
  return {
    ...listingView({
      listing,
      query,
      url,
      slug: text,
      meta_data: searchMeta(locale, text),
      breadcrumbs: searchCrumbs(locale, text),
      title: t(locale, 'search.resultsTitle', { q: text }),
      subtitle: corrected ? t(locale, 'search.corrected', { q: corrected }) : undefined,
    }),
    // Every page of a search is its own canonical address only on its first page.
    canonical: url,
    corrected,
  };
}

export interface ProductView extends RouteView {
  product: ProductDetail;
  related: ProductCard[];
}

const RELATED = 8;

/** Other products of the same brand in the same category, most popular first; the category fills in when the brand has few. */
function relatedIds(index: CatalogIndex, productId: number): number[] {
  const at = index.positionOf(productId);
  if (at < 0) return [];
  const { brand, category, ids, orders } = index;
  const [b, c] = [brand[at], category[at]];
  const sameBrand = topPositions(orders.popular, RELATED, (i) => brand[i] === b && category[i] === c && i !== at);
  const fill = sameBrand.length >= RELATED / 2 ? [] : topPositions(orders.popular, RELATED - sameBrand.length, (i) => category[i] === c && brand[i] !== b);
  return [...sameBrand, ...fill].map((i) => ids[i] as number);
}

// Walking the popularity order for a brand's few products in a category scanned up to the whole catalogue per
// product page (issue 59: 3 % of an uncached product page at 100,000 products). Kept per index version: a new
// catalogue version, or a size sold out, is a new version and starts afresh.
const keptRelated = new Cache<string, number[]>({ name: 'related', ttlMs: 0, maxEntries: 4096 });

function relatedOf(index: CatalogIndex, productId: number): number[] {
  const key = `${index.version}|${productId}`;
  let ids = keptRelated.get(key);
  if (!ids) keptRelated.set(key, (ids = relatedIds(index, productId)));
  return ids;
}

/** /p/{id}/{slug?} and GET …/product/{id}: the product, related products, its trail and meta. */
export async function productView(locale: Locale, id: number): Promise<ProductView | null> {
  const index = await getCatalogIndex();
  const product = await catalogProduct(id);
  if (!product) return null;
  const related = await catalogCards(relatedOf(index, id));
  const category = await getCategoryContext(product.category.id);
  return {
    product,
    related,
    url: product.url,
    slug: product.slug,
    meta_data: productMeta(locale, product),
    breadcrumbs: productCrumbs(locale, category?.path ?? [], product),
  };
}

/** The home page's product sections and popular brands. */
export async function homeSections() {
  tagAnswer(cacheTag.home, cacheTag.brands);
  // Orders come from the catalogue index: sorting 30k discounted rows per home page view in SQL took
  // 0.5 s on PGlite at 100k products.
  const index = await getCatalogIndex();
  const top = (order: Int32Array, keep: (i: number) => boolean) => catalogCards(topPositions(order, 8, keep).map((i) => index.ids[i] as number));
  const [newArrivals, discounts] = await Promise.all([top(index.orders.new, () => true), top(index.orders.discount, (i) => (index.discount[i] as number) > 0)]);
  const popularBrands = [...index.brands.values()]
    .filter((b) => b.isPopular)
    .sort((a, b) => a.name.localeCompare(b.name, 'en'))
    .map((b) => ({ id: b.id, name: b.name, url: brandUrl(b.id, b.slug) }));
  return { newArrivals, discounts, popularBrands };
}
