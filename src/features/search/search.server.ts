// Search suggestions (spec §7): the products, brands and categories a shopper's text names, matched
// by the catalogue read model (features/catalog/read-model.server.ts).
import { catalogCards } from '~/features/catalog/catalog.server.ts';
import { brandUrl, categoryUrl } from '~/features/catalog/catalog.ts';
import { matchText, qualifiedCategoryName, rankedHits, wordMatchesLexemes } from '~/features/catalog/read-model.server.ts';
import type { Suggestions } from './search.ts';

export const SUGGESTION_BRANDS = 5;
export const SUGGESTION_CATEGORIES = 5;

/** spec §7 search-suggestions: products most relevant first (capped by limit), brands and categories named by the text. */
export async function getSuggestions(text: string, limit: number): Promise<Suggestions> {
  // Descriptions are for the search page; suggestions name what the text names.
  const match = await matchText(text, { descriptions: false });
  const { index, hits, words } = match;
  const empty: Suggestions = { products: { data: [] }, brands: { data: [] }, categories: { data: [] } };
  if (!hits) return empty;
  const ids = [...rankedHits(match, limit).subarray(0, limit)].map((i) => index.ids[i] as number);
  const cards = await catalogCards(ids);

  const namedBy = (lexemes: readonly string[]) => words.some((w) => wordMatchesLexemes(w, lexemes));
  const brands = [...index.brands.values()]
    .filter((b) => namedBy(index.brandLexemes.get(b.id) ?? []))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'))
    .slice(0, SUGGESTION_BRANDS)
    .map((b) => ({ id: b.id, name: b.name, url: brandUrl(b.id, b.slug) }));
  const categories = [...index.categories.values()]
    .filter((c) => c.level > 0 && (index.categoryCounts.get(c.id) ?? 0) > 0 && namedBy(index.categoryLexemes.get(c.id) ?? []))
    .sort((a, b) => (index.categoryCounts.get(b.id) ?? 0) - (index.categoryCounts.get(a.id) ?? 0))
    .slice(0, SUGGESTION_CATEGORIES)
    .map((c) => ({ id: c.id, name: qualifiedCategoryName(index, c.id), url: categoryUrl(c.id, c.slug) }));

  return {
    products: {
      data: cards.map((c) => ({
        id: c.id,
        url: c.url,
        image: c.image ? (c.image.srcset.split(' ')[0] ?? c.image.src) : '',
        name: c.name,
        brand: c.brand,
        brand_id: c.brand_id,
        price: c.price,
        price_old: c.price_old,
        currency_symbol: c.currency_symbol,
        discount_percent: c.discount_percent,
      })),
    },
    brands: { data: brands },
    categories: { data: categories },
  };
}
