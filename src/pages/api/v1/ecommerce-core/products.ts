// GET /api/v1/ecommerce-core/products: the catalogue listing behind /c/…, /m/… and /product/search/…
// (filters of spec §3, sorting, pagination, facet counts), from the same view models as those pages.
// docs/api.md.
import { z } from '~/lib/zod.ts';
import { idSchema, listingQuerySchema } from '~/features/catalog/listing.ts';
import { getListing } from '~/features/catalog/listing.server.ts';
import { brandView, categoryView, searchView } from '~/features/catalog/views.server.ts';
import { SEARCH_MAX_CHARS } from '~/features/search/search.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { notFound } from '~/lib/http/errors.ts';
import { listingSchema } from '~/features/catalog/catalog.schema.ts';

export const GET = endpoint({
  summary: 'A catalogue listing (category, brand or search scope) with filters, sorting, pages and facet counts',
  failures: [404],
  response: listingSchema.extend({ corrected: z.string().nullable().optional().describe('Search only: the text as corrected') }),
  query: listingQuerySchema.extend({
    category: idSchema.optional(),
    brand: idSchema.optional(),
    search: z.string().trim().min(1).max(SEARCH_MAX_CHARS).optional(),
  }),
  async handler({ query, locale }) {
    const { category, brand, search, ...q } = query;
    const view =
      search !== undefined
        ? await searchView(locale, search, q)
        : brand !== undefined
          ? await brandView(locale, brand, category, q)
          : category !== undefined
            ? await categoryView(locale, category, q)
            : undefined;
    if (view === null) throw notFound();
    if (!view) return ok(await getListing({}, q), { headers: PUBLIC_CONTENT });
    const { listing, meta_data, breadcrumbs } = view;
    return ok('corrected' in view ? { ...listing, corrected: view.corrected } : listing, { meta_data, breadcrumbs, headers: PUBLIC_CONTENT });
  },
});
