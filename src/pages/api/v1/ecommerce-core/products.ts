// GET /api/v1/ecommerce-core/products: the catalogue listing behind /c/…, /m/… and /product/search/…
// (filters of spec §3, sorting, pagination, facet counts). docs/api.md.
import { z } from 'zod';
import { brandCrumbs, brandMeta, categoryCrumbs, categoryMeta, getBrandContext, getCategoryContext, getListing, getSearchListing, searchMeta } from '~/features/catalog/listing.server.ts';
import { idSchema, listingQuerySchema } from '~/features/catalog/listing.ts';
import { SEARCH_MAX_CHARS } from '~/features/search/search.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { notFound } from '~/lib/http/errors.ts';

export const GET = endpoint({
  query: listingQuerySchema.extend({
    category: idSchema.optional(),
    brand: idSchema.optional(),
    search: z.string().trim().min(1).max(SEARCH_MAX_CHARS).optional(),
  }),
  async handler({ query }) {
    const { category: categoryId, brand: brandId, search, ...q } = query;
    if (search !== undefined) {
      const listing = await getSearchListing(search, q);
      return ok(listing, { meta_data: searchMeta(search), breadcrumbs: [{ name: 'Главная', url: '/' }, { name: `Поиск «${search}»` }], headers: PUBLIC_CONTENT });
    }
    const [category, brand] = await Promise.all([
      categoryId === undefined ? undefined : getCategoryContext(categoryId),
      brandId === undefined ? undefined : getBrandContext(brandId),
    ]);
    if (category === null || brand === null) throw notFound();
    const listing = await getListing({ categoryId, brandId }, q);
    if (brand) {
      const inCategory = category ? brand.categories.find((c) => c.id === category.id) : undefined;
      return ok(listing, { meta_data: brandMeta(brand, inCategory), breadcrumbs: brandCrumbs(brand, inCategory), headers: PUBLIC_CONTENT });
    }
    if (category) return ok(listing, { meta_data: categoryMeta(category, listing.total), breadcrumbs: categoryCrumbs(category), headers: PUBLIC_CONTENT });
    return ok(listing, { headers: PUBLIC_CONTENT });
  },
});
