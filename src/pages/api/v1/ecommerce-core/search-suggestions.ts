// POST /api/v1/ecommerce-core/search-suggestions?search_key=…&limit=… (spec §7): products.data,
// brands.data, categories.data. A POST that changes nothing, as the spec has it; answers are not cached.
import { z } from '~/lib/zod.ts';
import { getSuggestions } from '~/features/search/search.server.ts';
import { SEARCH_MAX_CHARS, SUGGESTION_LIMIT_DEFAULT, SUGGESTION_LIMIT_MAX } from '~/features/search/search.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { suggestionsSchema } from '~/features/search/search.schema.ts';

export const POST = endpoint({
  summary: 'spec §7: live search suggestions (products, brands, categories)',
  response: suggestionsSchema,
  query: z.object({
    search_key: z.string().trim().min(1).max(SEARCH_MAX_CHARS),
    limit: z.coerce.number().int().min(1).max(SUGGESTION_LIMIT_MAX).default(SUGGESTION_LIMIT_DEFAULT),
  }),
  async handler({ query }) {
    return ok(await getSuggestions(query.search_key, query.limit));
  },
});
