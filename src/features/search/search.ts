// Search suggestions: shapes of spec §7 (types from search.schema.ts) and the client rules of spec §4/§7/§9.
import { withoutControlCharacters } from '~/lib/http/text.ts';
import type { Suggestions } from './search.schema.ts';

export const SEARCH_MIN_CHARS = 3; // "more than 2 characters"
export const SEARCH_DEBOUNCE_MS = 500;
/** Longest text the suggestions call and the search route accept. */
export const SEARCH_MAX_CHARS = 100;
export const SUGGESTION_LIMIT_MAX = 20;
export const SUGGESTION_LIMIT_DEFAULT = 10;

export type { SuggestionBrand, SuggestionCategory, SuggestionProduct, Suggestions } from './search.schema.ts';

/** spec §7: xl 10 (8 when brands are present), lg 8 (6), md 6 (4), smaller 4. */
export function suggestionLimit(width: number, hasBrands: boolean): number {
  if (width >= 1280) return hasBrands ? 8 : 10;
  if (width >= 1024) return hasBrands ? 6 : 8;
  if (width >= 768) return hasBrands ? 4 : 6;
  return 4;
}

export function shouldSuggest(text: string): boolean {
  return text.trim().length >= SEARCH_MIN_CHARS;
}

/**
 * The text of a /product/search/{text} address as the shopper typed it. The router decodes the path the
 * way decodeURI does, which leaves the escapes of reserved characters ('gucci%2Fprada'); those, and
 * only those, are decoded here, so a literal '%41' the shopper typed stays as typed. Control characters
 * are dropped, and the text is cut at the limit.
 */
export function searchTextFromPath(param: string | undefined): string {
  const text = (param ?? '').replace(/%(2[346BCFbcf]|3[ABDFabdf]|40)/g, (escape) => decodeURIComponent(escape));
  return withoutControlCharacters(text).trim().slice(0, SEARCH_MAX_CHARS);
}

/** spec §4: 'no match' when the query is non-empty and products, categories and brands are all empty. */
export function isEmpty(s: Suggestions): boolean {
  return s.products.data.length === 0 && s.brands.data.length === 0 && s.categories.data.length === 0;
}
