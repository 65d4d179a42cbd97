// Text search (spec §7 suggestions, the search route): PostgreSQL does the linguistics — the russian
// text-search configuration stems each query word ('платья' → 'плат', 'кроссовки' → 'кроссовк') and
// pg_trgm corrects words the catalogue does not know ('кросовки' → 'кроссовки', 'гучи' → 'гуччи') —
// and the catalogue index matches the resulting lexemes against every product (docs/decisions/007).
import { foldLexeme, getCatalogIndex, parseTsvector, type CatalogIndex } from '~/features/catalog/catalog-index.server.ts';
import { intersect, qualifiedCategoryName, topPositions, wordHits, wordMatchesLexemes, type WordQuery } from '~/features/catalog/catalog-query.server.ts';
import { cardsByIds } from '~/features/catalog/catalog.server.ts';
import { brandUrl, categoryUrl } from '~/features/catalog/catalog.ts';
import { getDatabase } from '~/lib/db/index.ts';
import type { Suggestions } from './search.ts';

const MAX_WORDS = 8;
const MAX_WORD_CHARS = 40;
export const SUGGESTION_BRANDS = 5;
export const SUGGESTION_CATEGORIES = 5;

/** Lower-cased words of letters and digits; punctuation and operators are never passed to SQL as syntax. */
export function queryWords(text: string): string[] {
  return (text.normalize('NFC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS).map((w) => w.slice(0, MAX_WORD_CHARS));
}

// Both caches are bounded and keyed by the word only: stems never change, and a correction can only
// go stale by pointing at a word that then finds nothing.
const stems = new Map<string, string[]>();
const fixes = new Map<string, string | null>();
const CACHE_LIMIT = 20_000;

async function stemsOf(words: readonly string[]): Promise<Map<string, string[]>> {
  const missing = [...new Set(words.filter((w) => !stems.has(w)))];
  if (missing.length) {
    const database = await getDatabase();
    const { rows } = await database.query(`SELECT w, to_tsvector('russian', w)::text AS lex FROM unnest($1::text[]) AS w`, [missing]);
    if (stems.size > CACHE_LIMIT) stems.clear();
    for (const r of rows) stems.set(String(r['w']), parseTsvector(String(r['lex'])));
  }
  return new Map(words.map((w) => [w, stems.get(w) ?? []]));
}

async function correctionsOf(words: readonly string[]): Promise<Map<string, string | null>> {
  const missing = [...new Set(words.filter((w) => !fixes.has(w)))];
  if (missing.length) {
    const database = await getDatabase();
    // `%` is pg_trgm's similarity at its default threshold (0.3), served by the GIN trigram index.
    const { rows } = await database.query(
      `SELECT w, (SELECT s.word FROM search_words s WHERE s.word % w ORDER BY similarity(s.word, w) DESC, s.word LIMIT 1) AS fix
         FROM unnest($1::text[]) AS w`,
      [missing],
    );
    if (fixes.size > CACHE_LIMIT) fixes.clear();
    for (const r of rows) fixes.set(String(r['w']), r['fix'] === null ? null : String(r['fix']));
  }
  return new Map(words.map((w) => [w, fixes.get(w) ?? null]));
}

export interface TextMatch {
  index: CatalogIndex;
  /** One flag per index position; null when the text has no searchable word. */
  hits: Uint8Array | null;
  words: WordQuery[];
  /** The query as corrected, when a misspelt word was replaced ('кросовки' → 'кроссовки'). */
  corrected: string | null;
}

/**
 * Finds the products whose name, brand or category hold every word of the text. The last word counts
 * as a prefix (the shopper may still be typing it). Words the catalogue does not know are corrected
 * to the closest known word by trigram similarity, once, and only when the text found nothing as typed.
 */
export async function matchText(text: string): Promise<TextMatch> {
  const index = await getCatalogIndex();
  const words = queryWords(text);
  if (words.length === 0) return { index, hits: null, words: [], corrected: null };
  const stemmed = await stemsOf(words);
  let queries: WordQuery[] = words.map((w, k) => {
    const prefix = k === words.length - 1 && w.length >= 3 ? foldLexeme(w) : null;
    return { lexemes: stemmed.get(w) ?? [], prefix };
  });
  // Stop words ('и', 'для') have no stems and narrow nothing.
  const useful = (q: WordQuery) => q.lexemes.length > 0 || q.prefix !== null;
  const kept = words.filter((_, k) => useful(queries[k] as WordQuery));
  queries = queries.filter(useful);
  if (queries.length === 0) return { index, hits: null, words: [], corrected: null };

  let sets = queries.map((q) => wordHits(index, q));
  let corrected: string | null = null;
  const unknown = kept.filter((_, k) => sets[k] === null);
  if (unknown.length) {
    const fixed = await correctionsOf(unknown);
    const fixedStems = await stemsOf([...fixed.values()].filter((f): f is string => f !== null));
    queries = queries.map((q, k) => {
      const fix = sets[k] === null ? fixed.get(kept[k] as string) : null;
      return fix ? { lexemes: fixedStems.get(fix)?.length ? (fixedStems.get(fix) as string[]) : [foldLexeme(fix)], prefix: null } : q;
    });
    // Only the corrected words are looked up again; the others keep what they found.
    sets = queries.map((q, k) => sets[k] ?? wordHits(index, q));
    corrected = kept.map((w) => fixed.get(w) ?? w).join(' ');
  }
  if (sets.some((s) => s === null)) return { index, hits: new Uint8Array(index.n), words: queries, corrected };
  return { index, hits: intersect(index, sets as Uint8Array[]), words: queries, corrected };
}

/** spec §7 search-suggestions: products by popularity (capped by limit), brands and categories named by the text. */
export async function getSuggestions(text: string, limit: number): Promise<Suggestions> {
  const { index, hits, words } = await matchText(text);
  const empty: Suggestions = { products: { data: [] }, brands: { data: [] }, categories: { data: [] } };
  if (!hits) return empty;
  const ids = topPositions(index.orders.popular, limit, (i) => hits[i] === 1).map((i) => index.ids[i] as number);
  const cards = await cardsByIds(ids);

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
