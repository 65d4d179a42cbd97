// Catalogue reads from the database: the category tree, brands, product cards and the product itself.
// Statements name their columns through the schema, and rows get their types from it; JSON built in
// SQL (cards, images, sizes) is decoded in one place each, below.
import { and, asc, count, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { Cache } from '~/lib/cache.ts';
import { cacheTag, tagAnswer } from '~/lib/http/cache-tags.ts';
import { publicMediaUrl } from '~/features/media/media.storage.server.ts';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { brands, categories, colors, productAttributes, productImages, products, productVariants } from '~/lib/db/schema.ts';
import { CURRENCY_SYMBOL } from '~/lib/format.ts';
import { buildCategoryTree, brandUrl, categoryUrl, imageFromTemplate, productUrl, type MegaCategory, type ProductCard, type ProductImage } from './catalog.ts';
// The listing's parameters, for what reads them from outside the catalogue (robots.txt's rules).
export { listingQuerySchema } from './listing.ts';
import { LOW_STOCK, type ProductDetail, type ProductVariant } from './catalog.product.ts';
import { getCatalogIndex } from './read-model.server.ts';
import { shownPrice, type CatalogIndex } from './read-model.ts';

type Product = typeof products.$inferSelect;
type ImageJson = Pick<typeof productImages.$inferSelect, 'urlTemplate' | 'widths' | 'width' | 'height' | 'alt' | 'color'>;
type VariantJson = Pick<typeof productVariants.$inferSelect, 'code' | 'label' | 'stock' | 'minItem' | 'maxItem'>;
type AttributeJson = Pick<typeof productAttributes.$inferSelect, 'name' | 'value'>;
type CardJson = Pick<Product, 'id' | 'name' | 'slug' | 'price' | 'priceOld' | 'freeDelivery' | 'rating' | 'reviewsCount' | 'categoryId'> & {
  discountPercent: number;
  brandId: number;
  brand: string;
  image: ImageJson | null;
};

// The tree and the brand list change only when the catalogue is edited: read once per catalogue version
// (like the cards below), so a process never shows a menu older than its index, and a CDN purged after a
// change (src/features/cdn) fetches the new one.
const tree = new Cache<string, MegaCategory[]>({ name: 'tree', ttlMs: 0, maxEntries: 2 });
const brandList = new Cache<string, BrandListItem[]>({ name: 'brands', ttlMs: 0, maxEntries: 2 });

export async function getMegaCategories(): Promise<MegaCategory[]> {
  tagAnswer(cacheTag.menu);
  const { version } = await getCatalogIndex();
  const value = await tree.getOrLoad(version, async () => {
    const db = await getDb();
    return buildCategoryTree(await db.select().from(categories).orderBy(asc(categories.level), asc(categories.sort)));
  });
  return value ?? [];
}

export interface BrandListItem {
  id: number;
  name: string;
  slug: string;
  url: string;
  productsCount: number;
}

/** Every brand A–Z with its number of active products (cached like the category tree). */
export async function listBrands(): Promise<BrandListItem[]> {
  tagAnswer(cacheTag.brands);
  const { version } = await getCatalogIndex();
  const list = await brandList.getOrLoad(version, async () => {
    const db = await getDb();
    const rows = await db
      .select({ id: brands.id, name: brands.name, slug: brands.slug, productsCount: count(products.id) })
      .from(brands)
      .leftJoin(products, and(eq(products.brandId, brands.id), eq(products.isActive, true)))
      .groupBy(brands.id);
    return rows.map((b) => ({ ...b, url: brandUrl(b.id, b.slug) })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
  });
  return list ?? [];
}

export async function getBrand(id: number) {
  const db = await getDb();
  const [brand] = await db.select().from(brands).where(eq(brands.id, id)).limit(1);
  return brand ?? null;
}

// ---------------------------------------------------------------- JSON built in SQL, decoded once

const imageJson = (i: Record<'urlTemplate' | 'widths' | 'width' | 'height' | 'alt' | 'color', SQLWrapper>) =>
  sql`json_build_object('urlTemplate', ${i.urlTemplate}, 'widths', ${i.widths}, 'width', ${i.width}, 'height', ${i.height}, 'alt', ${i.alt}, 'color', ${i.color})`;

function decodeImage(i: ImageJson, fallbackAlt = ''): ProductImage {
  return imageFromTemplate(publicMediaUrl(i.urlTemplate), i.widths, i.width, i.height, i.alt || fallbackAlt, i.color);
}

/** A json/json_agg column: both drivers parse it; an empty aggregate is null. */
export function jsonList<T>(value: unknown): T[] {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

const r = alias(products, 'r');
const rb = alias(brands, 'rb');
const ri = alias(productImages, 'ri');

/** A json_agg of the cards of the active products whose ids are in `ids` (an int[]), in that order. */
function cardsJson(ids: SQL): SQL {
  return sql`(SELECT json_agg(json_build_object('id', ${r.id}, 'name', ${r.name}, 'slug', ${r.slug}, 'price', ${r.price}, 'priceOld', ${r.priceOld},
            'discountPercent', ${r.discountPercent}, 'categoryId', ${r.categoryId}, 'freeDelivery', ${r.freeDelivery}, 'rating', ${r.rating}, 'reviewsCount', ${r.reviewsCount}, 'brandId', ${rb.id}, 'brand', ${rb.name},
            'image', (SELECT ${imageJson(ri)} FROM ${productImages} ${ri} WHERE ${ri.productId} = ${r.id} ORDER BY ${ri.position} LIMIT 1))
            ORDER BY array_position(${ids}, ${r.id}))
       FROM ${products} ${r} JOIN ${brands} ${rb} ON ${rb.id} = ${r.brandId} WHERE ${r.id} = ANY(${ids}) AND ${r.isActive})`;
}

function decodeCard(c: CardJson, pricing: Pricing): ProductCard {
  const shown = shownPrice(pricing, { ...c, discountPercent: c.discountPercent ?? 0 });
  return {
    id: c.id,
    name: c.name,
    brand: c.brand,
    brand_id: c.brandId,
    price: shown.price,
    price_old: shown.priceOld,
    discount_percent: shown.discountPercent,
    currency_symbol: CURRENCY_SYMBOL,
    url: productUrl(c.id, c.slug),
    image: c.image ? decodeImage(c.image) : null,
    free_delivery: c.freeDelivery,
    rating: c.rating,
    reviews_count: c.reviewsCount,
    promotion: shown.promotion?.name ?? null,
  };
}

/** The promotions and category chains prices are shown with: the catalogue index's, so a card is never priced with a sale its listing does not know. */
type Pricing = Pick<CatalogIndex, 'promotions' | 'chain' | 'promotionLookup'>;
const cards = (value: unknown, pricing: Pricing) => jsonList<CardJson>(value).map((c) => decodeCard(c, pricing));
const intArray = (ids: readonly number[]) => sql`${sql.param([...ids])}::int[]`;

/** Cards for these product ids as the database has them now, in the order given (the cart and the wishlist price from these). */
export async function cardsByIds(ids: readonly number[], pricing?: Pricing): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  const [row] = await selectRows<{ cards: unknown }>(await getDb(), sql`SELECT ${cardsJson(intArray(ids))} AS cards`);
  return cards(row?.cards, pricing ?? (await getCatalogIndex()));
}

// ---------------------------------------------------------------- product data between renders
// What catalogue pages show of a product is read once per catalogue version and kept (docs/performance.md,
// "Renders without the page cache"): the same rule as the catalogue index, whose listings these cards
// and pages belong to — an edit, a price or a sold-out size moves `catalog_version`, every process sees
// the new version within the index's 2 s, and from then on reads the product again. Keys carry the
// version, so entries of an older one are never answered and age out of the bound.
// The cart, the wishlist and placement keep reading the database (cardsByIds, above): they price what is
// bought. A product page is then at most a few seconds behind the database, where the page cache and a
// CDN in front already keep it for PAGE_CACHE_SECONDS and s-maxage.
// Room for the first pages of every category and the popular products at once: an LRU smaller than the
// set a crawler cycles through misses on every access (5,000 did, under 89 categories of 60 cards).
const CARDS_KEPT = 20_000;
const PRODUCTS_KEPT = 2_000;
const keptCards = new Cache<string, ProductCard | null>({ name: 'cards', ttlMs: 0, maxEntries: CARDS_KEPT });
const keptProducts = new Cache<string, ProductDetail | null>({ name: 'products', ttlMs: 0, maxEntries: PRODUCTS_KEPT });
const versioned = (version: string, id: number) => `${version}|${id}`;

/** Cards for these product ids, in the order given, for catalogue pages (listings, home, related, suggestions). */
export async function catalogCards(ids: readonly number[]): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  tagAnswer(...ids.map(cacheTag.card));
  const index = await getCatalogIndex();
  const { version } = index;
  const found = new Map<number, ProductCard | null>();
  const missing: number[] = [];
  for (const id of new Set(ids)) {
    const card = keptCards.get(versioned(version, id));
    if (card === undefined) missing.push(id);
    else found.set(id, card);
  }
  if (missing.length) {
    const read = new Map((await cardsByIds(missing, index)).map((c) => [c.id, c]));
    for (const id of missing) {
      // An inactive or unknown id is kept as such: it is asked again only after the next edit.
      const card = read.get(id) ?? null;
      keptCards.set(versioned(version, id), card);
      found.set(id, card);
    }
  }
  return ids.flatMap((id) => found.get(id) ?? []);
}

/** The product page's product (null when unknown or inactive), read once per catalogue version. */
export async function catalogProduct(id: number): Promise<ProductDetail | null> {
  tagAnswer(cacheTag.product(id));
  const index = await getCatalogIndex();
  // One read per product and version, however many visitors ask at once.
  return (await keptProducts.getOrLoad(versioned(index.version, id), () => getProduct(id, index))) ?? null;
}

function decodeVariant(v: VariantJson): ProductVariant {
  return {
    code: v.code,
    label: v.label,
    available: v.stock > 0,
    left: v.stock > 0 && v.stock <= LOW_STOCK ? v.stock : null,
    min_item: v.minItem,
    // A line can never ask for more than is in stock.
    max_item: Math.max(0, Math.min(v.maxItem, v.stock)),
  };
}

/** The product with its images, sizes and attributes, in one query. */
async function getProduct(id: number, pricing: Pricing): Promise<ProductDetail | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      product: {
        id: products.id,
        name: products.name,
        slug: products.slug,
        description: products.description,
        price: products.price,
        priceOld: products.priceOld,
        discountPercent: products.discountPercent,
        rating: products.rating,
        reviewsCount: products.reviewsCount,
        fitSmall: products.fitSmall,
        fitTrue: products.fitTrue,
        fitLarge: products.fitLarge,
        freeDelivery: products.freeDelivery,
      },
      brand: { id: brands.id, name: brands.name, slug: brands.slug, country: brands.country },
      category: { id: categories.id, name: categories.name, slug: categories.slug },
      color: { id: colors.id, name: colors.name, hex: colors.hex },
      images: sql<unknown>`(SELECT json_agg(${imageJson(productImages)} ORDER BY ${productImages.position}) FROM ${productImages} WHERE ${productImages.productId} = ${products.id})`,
      variants: sql<unknown>`(SELECT json_agg(json_build_object('code', ${productVariants.code}, 'label', ${productVariants.label}, 'stock', ${productVariants.stock},
               'minItem', ${productVariants.minItem}, 'maxItem', ${productVariants.maxItem}) ORDER BY ${productVariants.sort}, ${productVariants.id})
               FROM ${productVariants} WHERE ${productVariants.productId} = ${products.id})`,
      attributes: sql<unknown>`(SELECT json_agg(json_build_object('name', ${productAttributes.name}, 'value', ${productAttributes.value}) ORDER BY ${productAttributes.position}, ${productAttributes.id})
               FROM ${productAttributes} WHERE ${productAttributes.productId} = ${products.id})`,
    })
    .from(products)
    .innerJoin(brands, eq(brands.id, products.brandId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .leftJoin(colors, eq(colors.id, products.colorId))
    .where(and(eq(products.id, id), eq(products.isActive, true)));
  if (!row) return null;
  const { product: p, brand, category, color } = row;
  const variants = jsonList<VariantJson>(row.variants).map(decodeVariant);
  const shown = shownPrice(pricing, {
    id: p.id,
    categoryId: category.id,
    brandId: brand.id,
    price: p.price,
    priceOld: p.priceOld,
    discountPercent: p.discountPercent ?? 0,
  });
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    url: productUrl(p.id, p.slug),
    description: p.description,
    brand: brand.name,
    brand_id: brand.id,
    brand_url: brandUrl(brand.id, brand.slug),
    brand_country: brand.country,
    category: { id: category.id, name: category.name, url: categoryUrl(category.id, category.slug) },
    color,
    price: shown.price,
    price_old: shown.priceOld,
    discount_percent: shown.discountPercent,
    currency_symbol: CURRENCY_SYMBOL,
    rating: p.rating,
    reviews_count: p.reviewsCount,
    fit: { small: p.fitSmall, true: p.fitTrue, large: p.fitLarge },
    free_delivery: p.freeDelivery,
    images: jsonList<ImageJson>(row.images).map((i) => decodeImage(i, p.name)),
    variants,
    in_stock: variants.some((v) => v.available),
    attributes: jsonList<AttributeJson>(row.attributes),
    promotion: shown.promotion?.name ?? null,
  };
}
