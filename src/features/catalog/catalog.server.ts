// Catalogue reads shared by SSR pages and the API.
import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { getDb } from '~/lib/db/index.ts';
import { brands, categories, productImages, products } from '~/lib/db/schema.ts';
import { CURRENCY_SYMBOL } from '~/lib/format.ts';
import { getCatalogIndex } from './catalog-index.server.ts';
import { topPositions } from './catalog-query.server.ts';
import { buildCategoryTree, brandUrl, imageFromTemplate, productUrl, type MegaCategory, type ProductCard } from './catalog.ts';

// The tree changes only when the catalogue is edited; a short cache keeps the header call off the
// database without letting instances disagree for long.
const TREE_TTL_MS = 60_000;
let treeCache: { at: number; tree: MegaCategory[]; json: string } | undefined;

export async function getMegaCategories(): Promise<MegaCategory[]> {
  if (treeCache && Date.now() - treeCache.at < TREE_TTL_MS) return treeCache.tree;
  const db = await getDb();
  const rows = await db.select().from(categories).orderBy(asc(categories.level), asc(categories.sort));
  const tree = buildCategoryTree(rows);
  treeCache = { at: Date.now(), tree, json: JSON.stringify(tree) };
  return tree;
}

/**
 * The tree as JSON text, for the header island: Astro's island-prop encoding of the nested tree cost
 * about an eighth of every page's render (profiled); a string prop is copied as it is.
 */
export async function getMegaCategoriesJson(): Promise<string> {
  await getMegaCategories();
  return treeCache?.json ?? '[]';
}

type CardOrder = 'new' | 'discount' | 'popular';

const ORDER: Record<CardOrder, SQL[]> = {
  new: [desc(products.createdAt), desc(products.id)],
  discount: [desc(products.discountPercent), desc(products.popularity), desc(products.id)],
  popular: [desc(products.popularity), desc(products.id)],
};

const cardColumns = {
  id: products.id,
  name: products.name,
  slug: products.slug,
  price: products.price,
  priceOld: products.priceOld,
  discountPercent: products.discountPercent,
  freeDelivery: products.freeDelivery,
  rating: products.rating,
  brandId: brands.id,
  brand: brands.name,
  image: {
    urlTemplate: productImages.urlTemplate,
    widths: productImages.widths,
    width: productImages.width,
    height: productImages.height,
    alt: productImages.alt,
  },
};

async function selectCards(where: SQL | undefined, order: SQL[], limit: number): Promise<ProductCard[]> {
  const db = await getDb();
  const rows = await db
    .select(cardColumns)
    .from(products)
    .innerJoin(brands, eq(brands.id, products.brandId))
    .leftJoin(productImages, and(eq(productImages.productId, products.id), eq(productImages.position, 0)))
    .where(and(eq(products.isActive, true), where))
    .orderBy(...order)
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    brand: r.brand,
    brand_id: r.brandId,
    price: r.price,
    price_old: r.priceOld,
    discount_percent: r.discountPercent ?? 0,
    currency_symbol: CURRENCY_SYMBOL,
    url: productUrl(r.id, r.slug),
    image: r.image ? imageFromTemplate(r.image.urlTemplate, r.image.widths, r.image.width, r.image.height, r.image.alt) : null,
    free_delivery: r.freeDelivery,
    rating: r.rating,
  }));
}

/** A short list of product cards for home-page sections. */
export function listCards(order: CardOrder, limit: number, where?: SQL): Promise<ProductCard[]> {
  return selectCards(where, ORDER[order], limit);
}

/** Cards for these product ids, in the order given (listings pick ids from the catalogue index). */
export async function cardsByIds(ids: readonly number[]): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  const cards = await selectCards(inArray(products.id, [...ids]), [], ids.length);
  const byId = new Map(cards.map((c) => [c.id, c]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function getHomeSections() {
  const db = await getDb();
  // Orders come from the catalogue index: sorting 30k discounted rows per home page view in SQL took
  // 0.5 s on PGlite at 100k products.
  const index = await getCatalogIndex();
  const top = (order: Int32Array, keep: (i: number) => boolean) => cardsByIds(topPositions(order, 8, keep).map((i) => index.ids[i] as number));
  const [newArrivals, discounts, popularBrands] = await Promise.all([
    top(index.orders.new, () => true),
    top(index.orders.discount, (i) => (index.discount[i] as number) > 0),
    db.select({ id: brands.id, name: brands.name, slug: brands.slug }).from(brands).where(eq(brands.isPopular, true)).orderBy(asc(brands.name)),
  ]);
  return {
    newArrivals,
    discounts,
    popularBrands: popularBrands.map((b) => ({ ...b, url: brandUrl(b.id, b.slug) })),
  };
}


export interface BrandListItem {
  id: number;
  name: string;
  slug: string;
  url: string;
  productsCount: number;
}

let brandsCache: { at: number; brands: BrandListItem[] } | undefined;

/** Every brand A–Z with its number of active products (cached like the category tree). */
export async function listBrands(): Promise<BrandListItem[]> {
  if (brandsCache && Date.now() - brandsCache.at < TREE_TTL_MS) return brandsCache.brands;
  const db = await getDb();
  const rows = await db
    .select({ id: brands.id, name: brands.name, slug: brands.slug, productsCount: count(products.id) })
    .from(brands)
    .leftJoin(products, and(eq(products.brandId, brands.id), eq(products.isActive, true)))
    .groupBy(brands.id)
    .orderBy(asc(brands.name));
  const list = rows.map((b) => ({ ...b, url: brandUrl(b.id, b.slug) })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
  brandsCache = { at: Date.now(), brands: list };
  return list;
}
