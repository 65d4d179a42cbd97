// The catalogue listing: its query (filters of spec §3, sorting, pagination) as one zod schema shared by
// the pages and GET /api/v1/ecommerce-core/products, and the URLs that keep filters shareable.
import { z } from '~/lib/zod.ts';
import { searchParamsToObject } from '~/lib/http/search-params.ts';
import { hasControlCharacters } from '~/lib/http/text.ts';
import { idSchema } from './catalog.schema.ts';

export const SORTS = ['popular', 'new', 'price_asc', 'price_desc', 'discount', 'rating'] as const;
export type Sort = (typeof SORTS)[number];
export const DEFAULT_SORT: Sort = 'popular';
export const PER_PAGE = 24;
export const MAX_PAGE = 1000;
/** "Top rating" means this or more. */
export const TOP_RATING = 4.5;

// Id lists arrive as `brands=1,2` or `brands=1&brands=2`; sizes only repeated, since '16,5' is a size.
const list = <T extends z.ZodType>(item: T, max: number, split = true) =>
  z.preprocess(
    (v) =>
      v === undefined
        ? []
        : [
            ...new Set(
              (Array.isArray(v) ? v : [v])
                .flatMap((x) => (split ? String(x).split(',') : [String(x)]))
                .map((x) => x.trim())
                .filter(Boolean),
            ),
          ],
    z.array(item).max(max),
  );

// Ids are parsed one way everywhere (catalog.schema.ts); re-exported for the endpoints that import it from here.
export { idSchema } from './catalog.schema.ts';
const flag = z
  .enum(['1', 'true', '0', 'false'])
  .optional()
  .transform((v) => v === '1' || v === 'true');
// An empty field is no bound: the filter form sends its empty price fields when no script has taken
// them out (JavaScript off), and a bare coerce read them as 0 — «до 0 ₽», nothing found.
const roubles = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.coerce.number().int().min(0).max(100_000_000).optional());

export const listingQuerySchema = z.object({
  sort: z.enum(SORTS).default(DEFAULT_SORT),
  page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
  per_page: z.coerce.number().int().min(1).max(60).default(PER_PAGE),
  brands: list(idSchema, 50),
  categories: list(idSchema, 50),
  color: list(idSchema, 20),
  attr: list(
    z
      .string()
      .min(1)
      .max(20)
      .refine((size) => !hasControlCharacters(size)),
    30,
    false,
  ),
  free_delivery: flag,
  with_discount: flag,
  top_rating: flag,
  price_min: roubles,
  price_max: roubles,
});

export type ListingQuery = z.output<typeof listingQuerySchema>;

export const EMPTY_QUERY: ListingQuery = listingQuerySchema.parse({});

/** The query string for a listing URL; defaults are left out so URLs stay short and canonical. */
export function listingSearch(query: Partial<ListingQuery>): string {
  const p = new URLSearchParams();
  const q = { ...EMPTY_QUERY, ...query };
  if (q.brands.length) p.set('brands', q.brands.join(','));
  if (q.categories.length) p.set('categories', q.categories.join(','));
  if (q.color.length) p.set('color', q.color.join(','));
  for (const a of q.attr) p.append('attr', a);
  if (q.free_delivery) p.set('free_delivery', '1');
  if (q.with_discount) p.set('with_discount', '1');
  if (q.top_rating) p.set('top_rating', '1');
  if (q.price_min !== undefined) p.set('price_min', String(q.price_min));
  if (q.price_max !== undefined) p.set('price_max', String(q.price_max));
  if (q.sort !== DEFAULT_SORT) p.set('sort', q.sort);
  if (q.per_page !== PER_PAGE) p.set('per_page', String(q.per_page));
  if (q.page > 1) p.set('page', String(q.page));
  const s = p.toString();
  return s ? `?${s}` : '';
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

export function hasFilters(q: ListingQuery): boolean {
  return Boolean(
    q.brands.length ||
    q.categories.length ||
    q.color.length ||
    q.attr.length ||
    q.free_delivery ||
    q.with_discount ||
    q.top_rating ||
    q.price_min !== undefined ||
    q.price_max !== undefined,
  );
}

export type { FacetValue, Facets, Listing } from './catalog.schema.ts';
