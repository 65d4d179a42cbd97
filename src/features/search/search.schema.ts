// spec §7 search-suggestions answer as a schema: the source of the types search.ts re-exports and of
// the OpenAPI document.
import { z } from '../../lib/zod.ts';

export const suggestionProductSchema = z
  .object({
    id: z.number().int().positive(),
    url: z.string(),
    image: z.string().describe('The smallest rendition'),
    name: z.string(),
    brand: z.string(),
    brand_id: z.number().int().positive(),
    price: z.number().int().nonnegative().describe('Kopecks'),
    price_old: z.number().int().nonnegative().nullable(),
    currency_symbol: z.string(),
    discount_percent: z.number().int().min(0).max(100),
  })
  .meta({ id: 'SuggestionProduct' });

const link = z.object({ id: z.number().int().positive(), name: z.string(), url: z.string() });
export const suggestionBrandSchema = link.meta({ id: 'SuggestionBrand' });
export const suggestionCategorySchema = link.meta({ id: 'SuggestionCategory' });

export const suggestionsSchema = z
  .object({
    products: z.object({ data: z.array(suggestionProductSchema) }),
    brands: z.object({ data: z.array(suggestionBrandSchema) }),
    categories: z.object({ data: z.array(suggestionCategorySchema) }),
  })
  .meta({ id: 'Suggestions' });

export type SuggestionProduct = z.infer<typeof suggestionProductSchema>;
export type SuggestionBrand = z.infer<typeof suggestionBrandSchema>;
export type SuggestionCategory = z.infer<typeof suggestionCategorySchema>;
export type Suggestions = z.infer<typeof suggestionsSchema>;
