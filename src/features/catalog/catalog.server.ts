// Catalogue reads from the database: the category tree, brands, product cards and the product itself.
// Statements name their columns through the schema, and rows get their types from it; JSON built in
// SQL (cards, images, sizes) is decoded in one place each, below.
import { and, asc, count, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { Cache } from '~/lib/cache.ts';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { brands, categories, colors, productAttributes, productImages, products, productVariants } from '~/lib/db/schema.ts';
import { CURRENCY_SYMBOL } from '~/lib/format.ts';
import { buildCategoryTree, brandUrl, categoryUrl, imageFromTemplate, productUrl, type MegaCategory, type ProductCard, type ProductImage } from './catalog.ts';
// The listing's parameters, for what reads them from outside the catalogue (robots.txt's rules).
export { listingQuerySchema } from './listing.ts';
import { LOW_STOCK, type ProductDetail, type ProductVariant } from './product.ts';

type Product = typeof products.$inferSelect;
type ImageJson = Pick<typeof productImages.$inferSelect, 'urlTemplate' | 'widths' | 'width' | 'height' | 'alt'>;
type VariantJson = Pick<typeof productVariants.$inferSelect, 'code' | 'label' | 'stock' | 'minItem' | 'maxItem'>;
type AttributeJson = Pick<typeof productAttributes.$inferSelect, 'name' | 'value'>;
type CardJson = Pick<Product, 'id' | 'name' | 'slug' | 'price' | 'priceOld' | 'freeDelivery' | 'rating'> & {
  discountPercent: number;
  brandId: number;
  brand: string;
  image: ImageJson | null;
};

// The tree and the brand list change only when the catalogue is edited; a short lifetime keeps the
// header call off the database without letting instances disagree for long.
const TREE_TTL_MS = 60_000;
const tree = new Cache<'tree', MegaCategory[]>({ name: 'tree', ttlMs: TREE_TTL_MS });
const brandList = new Cache<'brands', BrandListItem[]>({ name: 'brands', ttlMs: TREE_TTL_MS });

export async function getMegaCategories(): Promise<MegaCategory[]> {
  const value = await tree.getOrLoad('tree', async () => {
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
  const list = await brandList.getOrLoad('brands', async () => {
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

const imageJson = (i: Record<'urlTemplate' | 'widths' | 'width' | 'height' | 'alt', SQLWrapper>) =>
  sql`json_build_object('urlTemplate', ${i.urlTemplate}, 'widths', ${i.widths}, 'width', ${i.width}, 'height', ${i.height}, 'alt', ${i.alt})`;

function decodeImage(i: ImageJson, fallbackAlt = ''): ProductImage {
  return imageFromTemplate(i.urlTemplate, i.widths, i.width, i.height, i.alt || fallbackAlt);
}

/** A json/json_agg column: both drivers parse it; an empty aggregate is null. */
export function jsonList<T>(value: unknown): T[] {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

const r = alias(products, 'r');
const rb = alias(brands, 'rb');
const ri = alias(productImages, 'ri');

/**
 * A json_agg of the cards of the active products whose ids are in `ids` (an int[]), in that order:
 * one SQL fragment for listings and the product page's related cards, so both read cards the same way
 * and the product page needs no second round trip.
 */
function cardsJson(ids: SQL): SQL {
  return sql`(SELECT json_agg(json_build_object('id', ${r.id}, 'name', ${r.name}, 'slug', ${r.slug}, 'price', ${r.price}, 'priceOld', ${r.priceOld},
            'discountPercent', ${r.discountPercent}, 'freeDelivery', ${r.freeDelivery}, 'rating', ${r.rating}, 'brandId', ${rb.id}, 'brand', ${rb.name},
            'image', (SELECT ${imageJson(ri)} FROM ${productImages} ${ri} WHERE ${ri.productId} = ${r.id} ORDER BY ${ri.position} LIMIT 1))
            ORDER BY array_position(${ids}, ${r.id}))
       FROM ${products} ${r} JOIN ${brands} ${rb} ON ${rb.id} = ${r.brandId} WHERE ${r.id} = ANY(${ids}) AND ${r.isActive})`;
}

function decodeCard(c: CardJson): ProductCard {
  return {
    id: c.id,
    name: c.name,
    brand: c.brand,
    brand_id: c.brandId,
    price: c.price,
    price_old: c.priceOld,
    discount_percent: c.discountPercent,
    currency_symbol: CURRENCY_SYMBOL,
    url: productUrl(c.id, c.slug),
    image: c.image ? decodeImage(c.image) : null,
    free_delivery: c.freeDelivery,
    rating: c.rating,
  };
}

const cards = (value: unknown) => jsonList<CardJson>(value).map(decodeCard);
const intArray = (ids: readonly number[]) => sql`${sql.param([...ids])}::int[]`;

/** Cards for these product ids, in the order given (listings pick ids from the catalogue index). */
export async function cardsByIds(ids: readonly number[]): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  const [row] = await selectRows<{ cards: unknown }>(await getDb(), sql`SELECT ${cardsJson(intArray(ids))} AS cards`);
  return cards(row?.cards);
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

/** The product with its images, sizes and attributes, and the cards of `relatedIds` (in that order), in one query. */
export async function getProduct(id: number, relatedIds: readonly number[] = []): Promise<{ product: ProductDetail; related: ProductCard[] } | null> {
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
      related: sql<unknown>`${cardsJson(intArray(relatedIds))}`,
    })
    .from(products)
    .innerJoin(brands, eq(brands.id, products.brandId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .leftJoin(colors, eq(colors.id, products.colorId))
    .where(and(eq(products.id, id), eq(products.isActive, true)));
  if (!row) return null;
  const { product: p, brand, category, color } = row;
  const variants = jsonList<VariantJson>(row.variants).map(decodeVariant);
  const product: ProductDetail = {
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
    price: p.price,
    price_old: p.priceOld,
    discount_percent: p.discountPercent ?? 0,
    currency_symbol: CURRENCY_SYMBOL,
    rating: p.rating,
    reviews_count: p.reviewsCount,
    free_delivery: p.freeDelivery,
    images: jsonList<ImageJson>(row.images).map((i) => decodeImage(i, p.name)),
    variants,
    in_stock: variants.some((v) => v.available),
    attributes: jsonList<AttributeJson>(row.attributes),
  };
  return { product, related: cards(row.related) };
}
