// The catalogue's answers as zod schemas: the single source of their types (catalog.ts, listing.ts and
// product.ts re-export them as types only, so islands never bundle zod) and of the OpenAPI document.
// Prices are kopecks.
import { z } from '../../lib/zod.ts';
import { ID_PATTERN, MAX_ID } from './ids.ts';

/**
 * An id in a query string, a path or a JSON body: a positive PostgreSQL integer, written the one way
 * (digits, no sign, no leading zero, no exponent or hex: '0x10', '1e1', '+16' and '16.0' are not ids).
 */
export const idSchema = z.union([z.number().int(), z.string().regex(ID_PATTERN).transform(Number)]).pipe(z.number().int().positive().max(MAX_ID));

const id = z.number().int().positive();
const kopecks = z.number().int().nonnegative();

export const productImageSchema = z
  .object({
    src: z.string(),
    srcset: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    alt: z.string(),
    /** The class painting the photo's average colour until it arrives (imported photos), or null. */
    placeholder: z.string().nullable(),
  })
  .meta({ id: 'ProductImage' });

/** spec §3 product card. */
export const productCardSchema = z
  .object({
    id,
    name: z.string(),
    brand: z.string(),
    brand_id: id,
    price: kopecks,
    price_old: kopecks.nullable(),
    discount_percent: z.number().int().min(0).max(100),
    currency_symbol: z.string(),
    url: z.string(),
    image: productImageSchema.nullable(),
    free_delivery: z.boolean(),
    rating: z.number(),
    /** Approved reviews (issue 57): the card shows their stars and count. */
    reviews_count: z.number().int().nonnegative(),
    /** The automatic promotion the price is after (issue 56), by name; null when none. */
    promotion: z.string().nullable(),
  })
  .meta({ id: 'ProductCard' });

/** spec §7 mega-categories: nested children under childs.data. */
export const megaCategorySchema = z
  .object({
    id,
    name: z.string(),
    slug: z.string(),
    url: z.string(),
    icon: z.string().nullable(),
    level: z.number().int().nonnegative(),
    parent_id: id.nullable(),
    get childs() {
      return z.object({ data: z.array(megaCategorySchema) });
    },
  })
  .meta({ id: 'MegaCategory' });

export const facetValueSchema = z
  .object({ id: z.union([z.number().int(), z.string()]), name: z.string(), count: z.number().int().nonnegative(), hex: z.string().optional() })
  .meta({ id: 'FacetValue' });

export const facetsSchema = z
  .object({
    brands: z.array(facetValueSchema),
    categories: z.array(facetValueSchema),
    color: z.array(facetValueSchema),
    attr: z.array(facetValueSchema).describe('Sizes in stock'),
    free_delivery: z.number().int(),
    with_discount: z.number().int(),
    top_rating: z.number().int(),
    price: z.object({ min: z.number(), max: z.number() }).nullable().describe('Roubles'),
  })
  .meta({ id: 'Facets' });

export const listingSchema = z
  .object({
    products: z.array(productCardSchema),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    pages: z.number().int().positive(),
    per_page: z.number().int().positive(),
    facets: facetsSchema,
  })
  .meta({ id: 'Listing' });

export const productVariantSchema = z
  .object({
    code: z.string().describe('spec §3 variant_code'),
    label: z.string(),
    available: z.boolean(),
    left: z.number().int().positive().nullable().describe('Set when only a few are left'),
    min_item: z.number().int().positive(),
    max_item: z.number().int().nonnegative().describe('The line maximum, never above the stock'),
  })
  .meta({ id: 'ProductVariant' });

export const productDetailSchema = productCardSchema
  .omit({ image: true })
  .extend({
    slug: z.string(),
    description: z.string(),
    brand_url: z.string(),
    brand_country: z.string(),
    category: z.object({ id, name: z.string(), url: z.string() }),
    color: z.object({ id, name: z.string(), hex: z.string() }).nullable(),
    reviews_count: z.number().int().nonnegative(),
    /** The approved reviews' fit answers (issue 57): runs small, true to size, runs large. */
    fit: z.object({ small: z.number().int().nonnegative(), true: z.number().int().nonnegative(), large: z.number().int().nonnegative() }),
    images: z.array(productImageSchema),
    variants: z.array(productVariantSchema),
    in_stock: z.boolean(),
    attributes: z.array(z.object({ name: z.string(), value: z.string() })),
    /** The automatic promotion the price is after (issue 56), by its name; null without one. */
    promotion: z.string().nullable(),
  })
  .meta({ id: 'ProductDetail' });

export type ProductImage = z.infer<typeof productImageSchema>;
export type ProductCard = z.infer<typeof productCardSchema>;
export type MegaCategory = z.infer<typeof megaCategorySchema>;
export type FacetValue = z.infer<typeof facetValueSchema>;
export type Facets = z.infer<typeof facetsSchema>;
export type Listing = z.infer<typeof listingSchema>;
export type ProductVariant = z.infer<typeof productVariantSchema>;
export type ProductDetail = z.infer<typeof productDetailSchema>;
