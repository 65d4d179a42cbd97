// The catalogue read model's server side (docs/decisions/007): it reads the index's rows from the
// database, keeps one index per process and rebuilds it whenever the `catalog_version` sequence moves,
// and turns a shopper's text into index hits with PostgreSQL's linguistics. Search suggestions,
// listings, the product page and the home page consume the catalogue through this module only.
// The database stays the source of truth: any instance can rebuild its index at any time, cards and
// product pages are read from it once per version (catalog.server.ts), and everything transactional
// (the cart, the wishlist, placement) reads it on every request.
import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { Cache } from '~/lib/cache.ts';
import { dropPages } from '~/lib/http/page-cache.ts';
import { selectRows, type Database, type Db } from '~/lib/db/client.ts';
import { getDatabase } from '~/lib/db/index.ts';
import { readAtScrape } from '~/lib/metrics.ts';
import { brandAliases, brands, categories, colors, products, productVariants, searchSynonyms, searchWords } from '~/lib/db/schema.ts';
import { otherLayout } from '~/lib/keyboard.ts';
import { toLatin } from '~/lib/translit.ts';
import { pricesShown } from '~/features/promotions/promotions.ts';
import { readAutomaticPromotions } from '~/features/promotions/promotions.server.ts';
import {
  buildIndexYielding,
  foldLexeme,
  intersect,
  parseTsvector,
  queryWords,
  nearestWord,
  priceBounds,
  readAliases,
  rebuildDue,
  relevanceOrder,
  wordHits,
  type CatalogIndex,
  type IndexSource,
  withSoldOut,
  type WordQuery,
} from './read-model.ts';

export {
  ancestry,
  foldLexeme,
  qualifiedCategoryName,
  queryIndex,
  topPositions,
  wordMatchesLexemes,
  type CatalogIndex,
  type CategoryRecord,
  type IndexListing,
  type ListingScope,
  type WordQuery,
} from './read-model.ts';

/** Where the catalogue stands: moves on every write to what listings show (migration 0003). */
async function readVersion(db: Db): Promise<string> {
  const [row] = await selectRows<{ v: string; called: boolean }>(db, sql`SELECT last_value::text AS v, is_called AS called FROM catalog_version`);
  return `${row?.v}/${row?.called}`;
}

// An index's version is what readVersion read ('1234/true'), and '~N' after it once this process laid sold-out
// sizes over it (sizesSoldOut): a patched index is never taken for the database's version, so the next poll
// rebuilds it from the rows.
const readVersionOf = (version: string) => version.split('~')[0] as string;
const versionNumber = (version: string) => Number(version.split('/')[0]);
let patches = 0;
// '~u…': built from rows that a change in flight may have missed (writesSettled gave up): rebuilt at the
// next poll like a patched one, and never said to the CDN's purge as caught up.
const unsettled = (version: string) => version.includes('~u');
const patchedVersion = (version: string, stale = unsettled(version)) => `${readVersionOf(version)}~${stale ? 'u' : ''}${++patches}`;

const lexemesOf = (column: string | null) => parseTsvector(column ?? '');
/**
 * A product's tsvector as its lexemes joined by spaces (`tsvector_to_array` in the database): no positions
 * or quoting to parse, which at 100,000 products with their descriptions was most of the index's build.
 * The parser never makes a lexeme with a space in it.
 */
const lexemeList = (column: SQL) => sql<string[]>`array_to_string(tsvector_to_array(${column}), ' ')`.mapWith(splitLexemes);
const splitLexemes = (text: string | null): string[] => (text ? text.split(' ').map(foldLexeme) : []);

/** The rows of an index, typed by the schema; the only place the index meets SQL. */
const PRODUCT_PAGE = 5000;

/** The shared lock every move of the version takes (migration 0028): `pg_advisory_xact_lock_shared(20261201, 54)`. */
const VERSION_LOCK = sql`locktype = 'advisory' AND classid = 20261201 AND objid = 54 AND objsubid = 2`;
/** How long a build waits for the changes in flight; past it, it builds and looks again at its next poll. */
const SETTLE_MS = 15_000;

/**
 * Waits until the transactions that hold the version's lock now have ended (issue 54): one of them may have
 * moved the version just read before committing its rows, and an index read from the rows before it would
 * be taken for that version until the next change. Writers never wait for this: it only watches pg_locks.
 * On PGlite a change is committed before another statement runs (one connection). False when it gave up.
 */
async function writesSettled(db: Db, kind: Database['kind']): Promise<boolean> {
  if (kind !== 'postgres') return true;
  const holders = await selectRows<{ vx: string }>(
    db,
    sql`SELECT virtualtransaction AS vx FROM pg_locks WHERE ${VERSION_LOCK} AND granted AND pid <> pg_backend_pid()`,
  );
  if (holders.length === 0) return true;
  const waiting = `{${holders.map((h) => h.vx).join(',')}}`;
  for (const deadline = Date.now() + SETTLE_MS; Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const [left] = await selectRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM pg_locks WHERE ${VERSION_LOCK} AND virtualtransaction = ANY(${waiting}::text[])`,
    );
    if ((left?.n ?? 0) === 0) return true;
  }
  return false;
}

export async function loadIndexSource(db: Db, kind: Database['kind']): Promise<IndexSource> {
  // The version first: a change landing during the reads below moves it again, so it is never missed. A
  // change that moved it and has not committed yet is waited for, so the rows read hold it.
  const read = await readVersion(db);
  const version = (await writesSettled(db, kind)) ? read : patchedVersion(read, true);
  // Products in pages of ids: the driver parses each answer in one go, and a page of 5,000 rows holds the
  // event loop a few milliseconds where all 100,000 held it ~60 ms. A change landing between pages moves
  // the version read above, so the next poll builds again.
  const productPage = (after: number) =>
    db
      .select({
        id: products.id,
        categoryId: products.categoryId,
        brandId: products.brandId,
        colorId: products.colorId,
        price: products.price,
        priceOld: products.priceOld,
        discountPercent: sql<number>`${products.discountPercent}`.mapWith(Number),
        rating: products.rating,
        reviewsCount: products.reviewsCount,
        freeDelivery: products.freeDelivery,
        popularity: products.popularity,
        created: sql<number>`(extract(epoch FROM ${products.createdAt}) * 1000)::float8`.mapWith(Number),
        lexemes: lexemeList(sql`${products.searchVector}`),
        nameLexemes: lexemeList(sql`${products.nameVector}`),
        descriptionLexemes: lexemeList(sql`${products.descriptionVector}`),
        // Whole words as typed of the name and the article, and the article without its separators.
        tokens: lexemeList(sql`${products.tokenVector}`),
      })
      .from(products)
      .where(and(eq(products.isActive, true), gt(products.id, after)))
      .orderBy(asc(products.id))
      .limit(PRODUCT_PAGE);
  const allProducts = async () => {
    const all: Awaited<ReturnType<typeof productPage>> = [];
    for (let after = 0; ;) {
      const page = await productPage(after);
      all.push(...page);
      if (page.length < PRODUCT_PAGE) return all;
      after = (page.at(-1) as { id: number }).id;
    }
  };
  const [productRows, sizeRows, brandRows, colorRows, categoryRows, wordRows, synonymRows, aliasRows, promotionRows] = await Promise.all([
    allProducts(),
    db
      .select({
        productId: productVariants.productId,
        labels: sql<string[]>`array_agg(${productVariants.label})`,
      })
      .from(productVariants)
      .where(gt(productVariants.stock, 0))
      .groupBy(productVariants.productId),
    db
      .select({
        id: brands.id,
        name: brands.name,
        nameRu: brands.nameRu,
        slug: brands.slug,
        isPopular: brands.isPopular,
        lexemes: sql<string[]>`to_tsvector('russian', ${brands.name} || ' ' || ${brands.nameRu})::text`.mapWith(lexemesOf),
      })
      .from(brands),
    db.select({ id: colors.id, name: colors.name, hex: colors.hex }).from(colors),
    db
      .select({
        id: categories.id,
        parentId: categories.parentId,
        name: categories.name,
        slug: categories.slug,
        icon: categories.icon,
        level: categories.level,
        sort: categories.sort,
        lexemes: sql<string[]>`to_tsvector('russian', ${categories.name})::text`.mapWith(lexemesOf),
      })
      .from(categories),
    db.select({ word: searchWords.word }).from(searchWords),
    selectRows<{ id: number; one_way: boolean; lexemes: string }>(
      db,
      sql`SELECT s.id, s.one_way, to_tsvector('russian', t.term)::text AS lexemes
          FROM ${searchSynonyms} s, unnest(s.terms) WITH ORDINALITY AS t(term, n) ORDER BY s.id, t.n`,
    ),
    db.select({ alias: brandAliases.alias, brand: brands.name }).from(brandAliases).innerJoin(brands, eq(brands.id, brandAliases.brandId)),
    // The sales in force (issue 56): cards, pages, filters and sorting show the price they leave.
    readAutomaticPromotions(db),
  ]);
  const groups = new Map<number, { terms: string[][]; oneWay: boolean }>();
  for (const row of synonymRows) {
    const group = groups.get(row.id) ?? { terms: [], oneWay: row.one_way };
    group.terms.push(lexemesOf(row.lexemes));
    groups.set(row.id, group);
  }
  return {
    version,
    products: productRows,
    sizes: sizeRows,
    brands: brandRows,
    colors: colorRows,
    categories: categoryRows,
    words: wordRows.map((r) => foldLexeme(r.word)),
    synonyms: [...AUDIENCE, ...groups.values()],
    aliases: aliasRows,
    promotions: pricesShown(promotionRows),
  };
}

export async function buildCatalogIndex(database: Database): Promise<CatalogIndex> {
  return buildIndexYielding(await loadIndexSource(database.db, database.kind));
}

// How often a process asks the database whether the catalogue changed: a sequence read, cheap enough
// to do every couple of seconds, so an edit or a sold-out size shows in listings within about that.
// Shoppers keep the current index while the next one is built in the background; only the very first
// request of a process waits for a build.
const indexCache = new Cache<'index', CatalogIndex>({ name: 'index', ttlMs: 2_000, staleWhileRevalidate: true });

let lastBuild = { at: 0, ms: 0 };

/** The server's catalogue index, over the server's database. */
export async function getCatalogIndex(): Promise<CatalogIndex> {
  const index = await indexCache.getOrLoad('index', async (previous) => {
    const database = await getDatabase();
    if (previous && ((await readVersion(database.db)) === previous.version || !rebuildDue(Date.now(), lastBuild))) return previous;
    const started = performance.now();
    let built = await buildCatalogIndex(database);
    lastBuild = { at: Date.now(), ms: performance.now() - started };
    // Sizes this process sold out after the rows were read stay sold out in the new index.
    const builtAt = versionNumber(built.version);
    soldOut = soldOut.filter((s) => s.version > builtAt);
    if (soldOut.length > 0) built = withSoldOut(built, soldOut, patchedVersion(built.version));
    // The pages this process keeps show the catalogue they were rendered from: a new version drops them,
    // so a price or a sold-out size shows on the next visit, not PAGE_CACHE_SECONDS later. A word that had
    // no correction may have one now (a first import's words).
    if (previous && built.version !== previous.version) {
      dropPages();
      fixes.clear();
    }
    return built;
  });
  if (!index) throw new Error('the catalogue index did not build');
  return index;
}

/**
 * This process has just changed the catalogue (the console's save, an import's or 1C's run): the index
 * looks at the database now instead of within its 2 s, and drops the pages it keeps once the new version
 * is built. Shoppers keep the current index meanwhile — never an empty or half-built one. Resolves once
 * the index holds the change (an import says "done" only then); other processes see it by their own poll.
 */
export async function catalogueChanged(): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    lastBuild = { at: 0, ms: 0 };
    indexCache.expire('index');
    await getCatalogIndex().catch(() => undefined);
    await indexCache.settled('index');
    // A rebuild already under way when the change landed read the catalogue before it: build again.
    const built = indexCache.peek('index');
    if (!built || readVersionOf(built.version) === (await readVersion((await getDatabase()).db))) return;
  }
}

/** Sizes this process sold out, with the catalogue version after the sale, until an index built from rows that old holds them. */
let soldOut: { productId: number; label: string; version: number }[] = [];

/**
 * This process has just sold the last units of these sizes: its index shows them sold out now (a copy of
 * the index's sizes without them), not after the next rebuild, which at 100,000 products takes seconds and
 * may wait behind the last one (rebuildDue). The pages it keeps are dropped. Other processes follow by
 * their poll, as for any change.
 */
export async function sizesSoldOut(sold: readonly { productId: number; label: string }[]): Promise<void> {
  if (sold.length === 0) return;
  const version = versionNumber(await readVersion((await getDatabase()).db));
  soldOut.push(...sold.map((s) => ({ ...s, version })));
  const index = indexCache.peek('index');
  if (!index) return;
  indexCache.set('index', withSoldOut(index, sold, patchedVersion(index.version)));
  dropPages();
}

/** The index this process answers from: its catalogue version and when it was built; undefined before the first build. */
export function catalogueIndexState(): { version: number; builtAt: number } | undefined {
  const index = indexCache.peek('index');
  return index ? { version: versionNumber(index.version), builtAt: lastBuild.at } : undefined;
}

/**
 * The catalogue version this process answers from, as the database's triggers count it (src/features/cdn):
 * the sequence's value once it has moved, 0 before; undefined before the first build.
 */
export function catalogueIndexVersion(): number | undefined {
  const index = indexCache.peek('index');
  if (!index || unsettled(index.version)) return undefined;
  const [value, called] = readVersionOf(index.version).split('/');
  return called === 'true' ? Number(value) : 0;
}

readAtScrape('gauge', 'shop_catalogue_version', 'The catalogue version the index was built from', [], () => {
  const state = catalogueIndexState();
  return state ? [{ value: state.version }] : [];
});
readAtScrape('gauge', 'shop_catalogue_index_age_seconds', 'Seconds since this process last built its catalogue index', [], () => {
  const state = catalogueIndexState();
  return state ? [{ value: (Date.now() - state.builtAt) / 1000 }] : [];
});

// ---------------------------------------------------------------- text matching
// PostgreSQL does the linguistics — the russian text-search configuration stems each query word
// ('платья' → 'плат', 'кроссовки' → 'кроссовк') and pg_trgm corrects words the catalogue does not know
// ('кросовки' → 'кроссовки', 'гучи' → 'гуччи') — and the index matches the resulting lexemes.

// Keyed by the word only: stems never change, and a correction can only go stale by pointing at a word
// that then finds nothing.
const stems = new Cache<string, string[]>({ name: 'stems', ttlMs: 0, maxEntries: 20_000 });
const fixes = new Cache<string, { word: string | null }>({ name: 'fixes', ttlMs: 0, maxEntries: 20_000 });

/** The cached answer for every word, looking the missing ones up in one query. */
async function lookUp<V>(cache: Cache<string, V>, words: readonly string[], query: (missing: string[]) => Promise<[string, V][]>): Promise<Map<string, V>> {
  const found = new Map<string, V>();
  const missing: string[] = [];
  for (const w of new Set(words)) {
    const hit = cache.get(w);
    if (hit === undefined) missing.push(w);
    else found.set(w, hit);
  }
  if (missing.length) {
    for (const [w, v] of await query(missing)) {
      cache.set(w, v);
      found.set(w, v);
    }
  }
  return found;
}

function stemsOf(words: readonly string[]): Promise<Map<string, string[]>> {
  return lookUp(stems, words, async (missing) => {
    const db = (await getDatabase()).db;
    const rows = await selectRows<{ w: string; lex: string }>(
      db,
      sql`SELECT w, to_tsvector('russian', w)::text AS lex FROM unnest(${sql.param(missing)}::text[]) AS w`,
    );
    return rows.map((r) => [r.w, parseTsvector(r.lex)]);
  });
}

function correctionsOf(words: readonly string[]): Promise<Map<string, { word: string | null }>> {
  return lookUp(fixes, words, async (missing) => {
    const db = (await getDatabase()).db;
    // `%` is pg_trgm's similarity at its default threshold (0.3), served by the GIN trigram index.
    const rows = await selectRows<{ w: string; fix: string | null }>(
      db,
      sql`SELECT w, (SELECT ${searchWords.word} FROM ${searchWords} WHERE ${searchWords.word} % w ORDER BY similarity(${searchWords.word}, w) DESC, ${searchWords.word} LIMIT 1) AS fix
            FROM unnest(${sql.param(missing)}::text[]) AS w`,
    );
    return rows.map((r) => [r.w, { word: r.fix }]);
  });
}

export interface TextMatch {
  index: CatalogIndex;
  /** One flag per index position; null when the text has no searchable word. */
  hits: Uint8Array | null;
  words: WordQuery[];
  /** The query as corrected, when a misspelt word was replaced ('кросовки' → 'кроссовки'). */
  corrected: string | null;
}

// Words a shopper uses for what the catalogue names otherwise — the audience: «женские» for the category
// «Женщинам», «для мальчика» for «Детям» — as stems, one way. Built in; the managers' groups of the
// console's /ops/search (search_synonyms) come with the index and are added to these.
const AUDIENCE: { terms: string[][]; oneWay: boolean }[] =
  // eslint-disable-next-line shop/no-cyrillic-literal -- stems of the language being searched
  'женск:женщин мужск:мужчин детск:дет девочк:дет мальчик:дет ребенк:дет'.split(' ').map((pair) => ({
    terms: pair.split(':').map((stem) => [stem]),
    oneWay: true,
  }));
const withSynonyms = (index: CatalogIndex, stems: readonly string[]) => [...new Set([...stems, ...stems.flatMap((x) => index.synonyms.get(x) ?? [])])];

/** How much a guessed word counts against one typed: a typo's correction, the other keyboard layout. */
const GUESSED = 0.8;

/** A word as the index is asked for it: its stems, its start when it is the one being typed, itself whole. */
function wordQuery(word: string, stemmed: readonly string[], last: boolean, weight = 1): WordQuery {
  const folded = foldLexeme(word);
  // A number is a number: '123' does not find '1239' (a model or an article typed from a tag).
  const prefix = last && word.length >= 3 && !/^\d+$/.test(word) ? folded : null;
  return { lexemes: stemmed, prefix, raw: folded, weight };
}

export interface MatchOptions {
  /**
   * Whether a word may be found in descriptions (the search page: yes). Suggestions name the products a
   * word names; a description's mention would only widen what they score, at their 15 ms budget.
   */
  descriptions?: boolean;
}

/**
 * Finds the products whose name, brand, category, colour or article hold every word of the text. The last
 * word counts as a prefix (the shopper may still be typing it). A word the catalogue does not know is read
 * in the other keyboard layout or in Latin letters, else corrected to the closest known word by trigram
 * similarity — once, and only when the text found nothing as typed.
 */
export async function matchText(typed: string, options: MatchOptions = {}): Promise<TextMatch> {
  const match = await matchTyped(typed, options);
  const found = (m: TextMatch) => m.hits?.includes(1) === true;
  if (found(match) && match.corrected === null) return match;
  // Found only by guessing, or not at all: the whole text in the other layout, punctuation keys included
  // («,h.rb» is «брюки»), is taken when it is found as it reads.
  const switched = otherLayout(typed);
  if (switched === typed) return match;
  const other = await matchTyped(switched, options);
  if (found(other) && (other.corrected === null || !found(match))) return { ...other, corrected: other.corrected ?? queryWords(switched).join(' ') };
  return match;
}

async function matchTyped(typed: string, options: MatchOptions): Promise<TextMatch> {
  const index = await getCatalogIndex();
  const bounds = priceBounds(typed);
  const all = readAliases(index, queryWords(bounds.text));
  // A size the catalogue has in stock, typed as a number ('кроссовки 40'): a filter, not a word to find.
  const sizeOf = (w: string) => [w.replace('.', ','), w.toUpperCase()].find((label) => index.sizeIdByLabel.has(label));
  const sizes = all.filter((w, k) => k > 0 && /^(?:\d{2}(?:[.,]5)?|[a-z]{1,3})$/.test(w) && sizeOf(w) !== undefined && !index.postings.has(w));
  const words = all.filter((w) => !sizes.includes(w));
  const bounded = (match: TextMatch): TextMatch => {
    if (!match.hits || (sizes.length === 0 && bounds.min === undefined && bounds.max === undefined)) return match;
    const min = (bounds.min ?? 0) * 100;
    const max = bounds.max === undefined ? Infinity : bounds.max * 100;
    const wanted = sizes.map((w) => index.sizeIdByLabel.get(sizeOf(w) ?? '') as number);
    const hits = match.hits.map((hit, i) => {
      if (!hit || (index.price[i] as number) < min || (index.price[i] as number) > max) return 0;
      if (wanted.length === 0) return 1;
      for (let s = index.sizeStart[i] as number; s < (index.sizeStart[i + 1] as number); s++) if (wanted.includes(index.sizeIds[s] as number)) return 1;
      return 0;
    });
    return { ...match, hits };
  };
  if (words.length === 0) {
    // Only a price or a size: everything within it.
    if (bounds.min === undefined && bounds.max === undefined && sizes.length === 0) return { index, hits: null, words: [], corrected: null };
    return bounded({ index, hits: new Uint8Array(index.n).fill(1), words: [], corrected: null });
  }
  return bounded(await matchWords(index, words, options.descriptions !== false));
}

async function matchWords(index: CatalogIndex, words: string[], descriptions: boolean): Promise<TextMatch> {
  const stemmed = await stemsOf(words);
  let queries: WordQuery[] = words.map((w, k) => wordQuery(w, withSynonyms(index, stemmed.get(w) ?? []), k === words.length - 1));
  // Stop words ('и', 'для') have no stems and narrow nothing.
  const useful = (q: WordQuery) => q.lexemes.length > 0 || q.prefix !== null || /^\d+$/.test(q.raw ?? '');
  const kept = words.filter((_, k) => useful(queries[k] as WordQuery));
  queries = queries.filter(useful);
  if (queries.length === 0) return { index, hits: null, words: [], corrected: null };

  let sets = queries.map((q) => wordHits(index, q, descriptions));
  let corrected: string | null = null;
  const guesses = new Map<string, string>();
  // A word found nothing as typed: first as it would read in the other keyboard layout ('ghflf' is 'прада'),
  // or in Latin letters ('прада' is 'prada', a feed names brands in Latin only) — exact spellings, tried in
  // that order; then the closest known word by trigram similarity, of the word or of its Latin spelling
  // ('кросовки' → 'кроссовки', 'гучи' → 'guchi' → 'gucci').
  const candidatesOf = (w: string): string[] => {
    const switched = otherLayout(w);
    const spellings = [switched !== w && /^[\p{L}\p{N}]+$/u.test(switched) ? switched : null, toLatin(w), toLatin(switched)];
    return [...new Set(spellings.filter((c): c is string => c !== null && c !== w))];
  };
  const unknownAsTyped = kept.filter((_, k) => sets[k] === null);
  if (unknownAsTyped.length) {
    const candidates = new Map(unknownAsTyped.map((w) => [w, candidatesOf(w)]));
    const candidateStems = await stemsOf([...candidates.values()].flat());
    for (const [w, list] of candidates) {
      const k = kept.indexOf(w);
      for (const c of list) {
        const q = wordQuery(c, candidateStems.get(c) ?? [], k === kept.length - 1, GUESSED);
        const found = wordHits(index, q, descriptions);
        if (!found) continue;
        queries[k] = q;
        sets[k] = found;
        guesses.set(w, c);
        break;
      }
    }
  }
  const unknown = kept.filter((_, k) => sets[k] === null);
  if (unknown.length) {
    // The word and its other spellings, each corrected; the first that has a correction wins.
    const spellings = new Map(unknown.map((w) => [w, [w, ...candidatesOf(w)]]));
    const fixed = await correctionsOf([...spellings.values()].flat());
    const fixOf = (w: string) =>
      (spellings.get(w) ?? [w]).map((c) => fixed.get(c)?.word ?? null).find((f): f is string => f !== null) ?? nearestWord(index.words, foldLexeme(w));
    const fixedStems = await stemsOf(unknown.map(fixOf).filter((f): f is string => f !== null));
    queries = queries.map((q, k) => {
      const fix = sets[k] === null ? fixOf(kept[k] as string) : null;
      if (!fix) return q;
      guesses.set(kept[k] as string, fix);
      return {
        lexemes: fixedStems.get(fix)?.length ? (fixedStems.get(fix) as string[]) : [foldLexeme(fix)],
        prefix: null,
        raw: foldLexeme(fix),
        weight: GUESSED,
      };
    });
    // Only the corrected words are looked up again; the others keep what they found.
    sets = queries.map((q, k) => sets[k] ?? wordHits(index, q, descriptions));
  }
  // A short word still unknown beside words that were found ('син' in 'син-лоран') is noise, not a reason to find nothing.
  const dropped = kept.filter((w, k) => sets[k] === null && w.length <= 3);
  if (dropped.length > 0 && dropped.length < kept.length) {
    queries = queries.filter((_, k) => !dropped.includes(kept[k] as string));
    sets = sets.filter((_, k) => !dropped.includes(kept[k] as string));
    for (const w of dropped) guesses.set(w, '');
  }
  if (guesses.size > 0)
    corrected = kept
      .map((w) => guesses.get(w) ?? w)
      .filter(Boolean)
      .join(' ');
  if (sets.some((s) => s === null)) return { index, hits: new Uint8Array(index.n), words: queries, corrected };
  const found = sets as Uint8Array[];
  const hits = intersect(index, found);
  if (found.length >= 2 && !hits.includes(1)) {
    // Every word found something, but not together ('син-лоран': «син» is a colour's word): without the
    // commonest short word, if that finds something — a sensible fallback, said as a correction.
    const count = (set: Uint8Array) => set.reduce((n, x) => n + x, 0);
    // Only a short word (a hyphen's half, a fragment) is given up: 'черное платье' with no black dress
    // finds nothing rather than black shoes.
    const commonest = found
      .map((set, k) => ({ k, n: count(set) }))
      .filter(({ k }) => (kept[k] ?? '').length <= 3)
      .sort((a, b) => b.n - a.n);
    for (const { k } of commonest) {
      const rest = intersect(
        index,
        found.filter((_, j) => j !== k),
      );
      if (!rest.includes(1)) continue;
      const shown = words.filter((w) => w !== kept[k]).map((w) => guesses.get(w) ?? w);
      return { index, hits: rest, words: queries.filter((_, j) => j !== k), corrected: shown.filter(Boolean).join(' ') };
    }
  }
  return { index, hits, words: queries, corrected };
}

/** The text's hits, most relevant first (what a search lists unless the shopper chose another order); with `first`, only that many in order. */
export function rankedHits(match: TextMatch, first?: number): Int32Array {
  return match.hits ? relevanceOrder(match.index, match.words, match.hits, first) : new Int32Array(0);
}

/** The storefront's price of a product under an index's promotions, for other domains (the product feed). */
export { shownPrice } from './read-model.ts';
