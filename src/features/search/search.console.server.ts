// The console's words for search (issue 40, /ops/search, managers): synonym groups ('кеды, кроссовки') and
// shoppers' names of brands ('гуччи' → Gucci). Both are read with the catalogue index (read-model.server.ts),
// so a save moves the catalogue version: this process searches with it as soon as the index is rebuilt
// (catalogueChanged, well within 2 s), the others within their poll. The import reads the brand names too.
import { sql } from 'drizzle-orm';
import { z } from '~/lib/zod.ts';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { hasControlCharacters } from '~/lib/http/text.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { catalogueChanged, foldLexeme } from '~/features/catalog/read-model.server.ts';

/** Groups and names a shop may keep: a table a manager reads, not a thesaurus. */
export const MAX_SYNONYM_GROUPS = 500;
export const MAX_BRAND_ALIASES = 1000;
const MAX_TERMS = 10;

export interface SynonymGroup extends Record<string, unknown> {
  id: number;
  terms: string[];
  one_way: boolean;
}
export interface BrandAlias extends Record<string, unknown> {
  id: number;
  alias: string;
  brand_id: number;
  brand: string;
}
export interface SearchWordsView {
  synonyms: SynonymGroup[];
  aliases: BrandAlias[];
  brands: { id: number; name: string }[];
}

/** A word as search reads it: letters and digits, lower case, ё as е. */
const fold = (text: string) => foldLexeme(text.normalize('NFC').trim().toLowerCase().replace(/\s+/g, ' '));
const WORD = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u;
const PHRASE = /^[\p{L}\p{N}]+(?:[ -][\p{L}\p{N}]+){0,4}$/u;

const plainText = (max: number) =>
  z
    .string()
    .max(max * 4)
    .refine((text) => !hasControlCharacters(text), 'ops.search.badText');

export const searchWordsActionSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('synonym_add'),
    terms: plainText(400)
      .transform((text) => [
        ...new Set(
          text
            .split(/[,;\n]/)
            .map(fold)
            .filter(Boolean),
        ),
      ])
      .pipe(
        z
          .array(z.string().max(40, 'ops.search.termLong').regex(WORD, 'ops.search.oneWord'))
          .min(2, 'ops.search.twoTerms')
          .max(MAX_TERMS, 'ops.search.manyTerms'),
      ),
    one_way: z.literal('on').optional(),
  }),
  z.object({ action: z.literal('synonym_delete'), id: z.coerce.number().int().positive().max(2_147_483_647) }),
  z.object({
    action: z.literal('alias_add'),
    alias: plainText(60).transform(fold).pipe(z.string().min(1, 'ops.search.aliasEmpty').max(60, 'ops.search.termLong').regex(PHRASE, 'ops.search.aliasWords')),
    brand_id: z.coerce.number('ops.search.noBrand').int('ops.search.noBrand').positive('ops.search.noBrand').max(2_147_483_647, 'ops.search.noBrand'),
  }),
  z.object({ action: z.literal('alias_delete'), id: z.coerce.number().int().positive().max(2_147_483_647) }),
]);
export type SearchWordsAction = z.infer<typeof searchWordsActionSchema>;

export async function searchWordsView(): Promise<SearchWordsView> {
  const db = await getDb();
  const [synonyms, aliases, brands] = await Promise.all([
    selectRows<SynonymGroup>(db, sql`SELECT id, terms, one_way FROM search_synonyms ORDER BY id`),
    selectRows<BrandAlias>(db, sql`SELECT a.id, a.alias, a.brand_id, b.name AS brand FROM brand_aliases a JOIN brands b ON b.id = a.brand_id ORDER BY a.alias`),
    selectRows<{ id: number; name: string }>(db, sql`SELECT id, name FROM brands ORDER BY lower(name)`),
  ]);
  return { synonyms, aliases, brands };
}

/** Carries out one of the page's actions; what the page confirms. */
export async function searchWordsAction(action: SearchWordsAction, actor: Actor): Promise<string> {
  const done = await change(action, actor);
  // The manager's next search shows it: this process's index is rebuilt now, the others' within their poll.
  await catalogueChanged();
  return done;
}

async function change(action: SearchWordsAction, actor: Actor): Promise<string> {
  const db = await getDb();
  // The version moves with the change in one transaction, so no process builds an index between them.
  const moveVersion = sql`SELECT catalog_version_move()`;
  switch (action.action) {
    case 'synonym_add': {
      const oneWay = action.one_way === 'on';
      // As one JSON parameter: drizzle would spread an array into a list of parameters.
      const terms = sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(action.terms)}::jsonb))`;
      const id = await db.transaction(async (tx) => {
        const [{ n } = { n: 0 }] = await selectRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM search_synonyms`);
        if (n >= MAX_SYNONYM_GROUPS) throw new HttpError(422, 'ops.search.tooMany', undefined, undefined, { max: MAX_SYNONYM_GROUPS });
        const [same] = await selectRows<{ id: number }>(tx, sql`SELECT id FROM search_synonyms WHERE terms = ${terms} AND one_way = ${oneWay}`);
        if (same) throw new HttpError(409, 'ops.search.synonymExists');
        const [row] = await selectRows<{ id: number }>(tx, sql`INSERT INTO search_synonyms (terms, one_way) VALUES (${terms}, ${oneWay}) RETURNING id`);
        await tx.execute(moveVersion);
        return row?.id;
      });
      // After the transaction: PGlite has one connection, which the transaction holds until it ends.
      await audit(actor, 'search.synonym_add', 'search', 'synonyms', null, { id, terms: action.terms.join(', '), one_way: oneWay });
      return 'synonymAdded';
    }
    case 'synonym_delete': {
      const gone = await db.transaction(async (tx) => {
        const [row] = await selectRows<SynonymGroup>(tx, sql`DELETE FROM search_synonyms WHERE id = ${action.id} RETURNING id, terms, one_way`);
        if (!row) throw new HttpError(404, 'ops.search.noSuchRow');
        await tx.execute(moveVersion);
        return row;
      });
      await audit(actor, 'search.synonym_delete', 'search', 'synonyms', { id: gone.id, terms: gone.terms.join(', '), one_way: gone.one_way }, null);
      return 'synonymDeleted';
    }
    case 'alias_add': {
      const brand = await db.transaction(async (tx) => {
        const [brand] = await selectRows<{ id: number; name: string }>(tx, sql`SELECT id, name FROM brands WHERE id = ${action.brand_id}`);
        if (!brand) throw new HttpError(422, 'ops.search.noBrand');
        // A brand's own name (either script) is found already; as another brand's alias it would hide that brand.
        const named = (await selectRows<{ name: string; name_ru: string }>(tx, sql`SELECT name, name_ru FROM brands`)).find((b) =>
          [b.name, b.name_ru].some((n) => fold(n) === action.alias),
        );
        if (named) throw new HttpError(422, 'ops.search.aliasIsBrand', undefined, undefined, { brand: named.name });
        const [{ n } = { n: 0 }] = await selectRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM brand_aliases`);
        if (n >= MAX_BRAND_ALIASES) throw new HttpError(422, 'ops.search.tooMany', undefined, undefined, { max: MAX_BRAND_ALIASES });
        const [row] = await selectRows<{ id: number }>(
          tx,
          sql`INSERT INTO brand_aliases (alias, brand_id) VALUES (${action.alias}, ${brand.id}) ON CONFLICT (alias) DO NOTHING RETURNING id`,
        );
        if (!row) throw new HttpError(409, 'ops.search.aliasTaken');
        await tx.execute(moveVersion);
        return brand;
      });
      await audit(actor, 'search.alias_add', 'search', 'aliases', null, { alias: action.alias, brand: brand.name });
      return 'aliasAdded';
    }
    case 'alias_delete': {
      const gone = await db.transaction(async (tx) => {
        const [row] = await selectRows<{ alias: string; brand: string }>(
          tx,
          sql`DELETE FROM brand_aliases a USING brands b WHERE a.id = ${action.id} AND b.id = a.brand_id RETURNING a.alias, b.name AS brand`,
        );
        if (!row) throw new HttpError(404, 'ops.search.noSuchRow');
        await tx.execute(moveVersion);
        return row;
      });
      await audit(actor, 'search.alias_delete', 'search', 'aliases', { alias: gone.alias, brand: gone.brand }, null);
      return 'aliasDeleted';
    }
  }
}
