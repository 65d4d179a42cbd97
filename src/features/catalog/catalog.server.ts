// Catalogue reads shared by SSR pages and the API.
import { and, asc, count, eq } from 'drizzle-orm';
import { getDatabase, getDb } from '~/lib/db/index.ts';
import { brands, categories, products } from '~/lib/db/schema.ts';
import { CURRENCY_SYMBOL } from '~/lib/format.ts';
import { getCatalogIndex } from './catalog-index.server.ts';
import { topPositions } from './catalog-query.server.ts';
import { buildCategoryTree, brandUrl, imageFromTemplate, productUrl, type MegaCategory, type ProductCard, type ProductImage } from './catalog.ts';

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

export const num = (v: unknown): number => Number(v);
export const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
/** A json_agg column: pg parses it, an empty aggregate is null. */
export const jsonRows = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? (v as Record<string, unknown>[]) : typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>[]) : [];

/** An image row as `json_build_object('t', url_template, 'ws', widths, 'w', width, 'h', height, 'alt', alt)`. */
export function imageFromJson(i: Record<string, unknown> | null | undefined, fallbackAlt = ''): ProductImage | null {
  return i ? imageFromTemplate(str(i['t']), (i['ws'] as number[]).map(Number), num(i['w']), num(i['h']), str(i['alt']) || fallbackAlt) : null;
}

/**
 * A json_agg of the cards of the active products whose ids are in the int[] parameter `param`, in that
 * order: one SQL fragment for listings and for the product page's related cards, so both read cards the
 * same way and the product page needs no second round trip.
 */
export function cardsJsonSql(param: string): string {
  return `(SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'slug', r.slug, 'price', r.price, 'price_old', r.price_old,
            'discount_percent', r.discount_percent, 'free_delivery', r.free_delivery, 'rating', r.rating, 'brand_id', rb.id, 'brand', rb.name,
            'image', (SELECT json_build_object('t', i.url_template, 'ws', i.widths, 'w', i.width, 'h', i.height, 'alt', i.alt)
                        FROM product_images i WHERE i.product_id = r.id ORDER BY i.position LIMIT 1))
            ORDER BY array_position(${param}::int[], r.id))
       FROM products r JOIN brands rb ON rb.id = r.brand_id WHERE r.id = ANY(${param}::int[]) AND r.is_active)`;
}

export function cardFromJson(r: Record<string, unknown>): ProductCard {
  const id = num(r['id']);
  return {
    id,
    name: str(r['name']),
    brand: str(r['brand']),
    brand_id: num(r['brand_id']),
    price: num(r['price']),
    price_old: r['price_old'] === null ? null : num(r['price_old']),
    discount_percent: num(r['discount_percent']),
    currency_symbol: CURRENCY_SYMBOL,
    url: productUrl(id, str(r['slug'])),
    image: imageFromJson(r['image'] as Record<string, unknown> | null),
    free_delivery: Boolean(r['free_delivery']),
    rating: num(r['rating']),
  };
}

/** Cards for these product ids, in the order given (listings pick ids from the catalogue index). */
export async function cardsByIds(ids: readonly number[]): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  const database = await getDatabase();
  const { rows } = await database.query(`SELECT ${cardsJsonSql('$1')} AS cards`, [[...ids]]);
  return jsonRows(rows[0]?.['cards']).map(cardFromJson);
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
