// Every feed and 1C file in ../shared/fixtures/import, read in place, gives the catalogue rows recorded in
// tests/integration/import-rows/ (issue 58): the import's readers, mapper and writer may be rearranged, but
// what lands in the catalogue — brands, categories, colours, products with their prices, parcels and hashes,
// sizes with stock and GTINs, attributes, photos' sources — and what the run reports stay the same. Database
// ids are replaced by the natural keys they point at (external ids and names), so a different order of
// inserts is not a difference. A fixture's rows are recorded when its file is missing (never in CI: vitest
// refuses to write a snapshot there).
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importYml } from '~/features/import/import.server.ts';
import { applyCatalogueFile } from '~/features/exchange/catalogue.server.ts';
import type { ImportProblem, ImportSummary } from '~/features/import/import.ts';
import type { Database } from '~/lib/db/client.ts';
import { emptyCatalogue } from '../support/fresh-database.ts';
import { migratedDatabase } from '../support/seeded-database.ts';

const FIXTURES = resolve('../shared/fixtures/import');
const fixture = (name: string) => join(FIXTURES, name);

let opened: Awaited<ReturnType<typeof migratedDatabase>>;
let database: Database;

beforeAll(async () => {
  opened = await migratedDatabase('import-rows');
  database = opened.database;
});
afterAll(() => opened.dispose());
beforeEach(async () => {
  await emptyCatalogue(database);
  await database.query('TRUNCATE exchange_products, exchange_offers, exchange_state');
});

type Row = Record<string, unknown>;

async function table(name: string): Promise<Row[]> {
  return (await database.query(`SELECT to_jsonb(t.*) AS row FROM ${name} t`)).rows.map((r) => (r as { row: Row }).row);
}

/** The catalogue's rows with ids replaced by what they name, sorted, without the clock's columns. */
async function catalogueRows(): Promise<Record<string, Row[]>> {
  const [brands, categories, colors, products, variants, attributes, images] = await Promise.all(
    ['brands', 'categories', 'colors', 'products', 'product_variants', 'product_attributes', 'product_images'].map(table),
  );
  const key = (rows: Row[] | undefined, field: string) => new Map((rows ?? []).map((r) => [r['id'], r[field]]));
  const brand = key(brands, 'name');
  const category = key(categories, 'external_id');
  const color = key(colors, 'name');
  const product = key(products, 'external_id');
  const tidy = (rows: Row[] | undefined, links: Record<string, Map<unknown, unknown>>): Row[] =>
    (rows ?? [])
      .map((row) => {
        const out: Row = {};
        for (const [field, value] of Object.entries(row).sort(([a], [b]) => a.localeCompare(b))) {
          if (field === 'id' || field === 'created_at' || field === 'updated_at' || field === 'search_vector') continue;
          const link = links[field];
          out[field] = link && value !== null ? (link.get(value) ?? `missing ${String(value)}`) : value;
        }
        return out;
      })
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return {
    brands: tidy(brands, {}),
    categories: tidy(categories, { parent_id: category }),
    colors: tidy(colors, {}),
    products: tidy(products, { brand_id: brand, category_id: category, color_id: color }),
    product_variants: tidy(variants, { product_id: product }),
    product_attributes: tidy(attributes, { product_id: product }),
    product_images: tidy(images, { product_id: product }),
  };
}

interface Run {
  summary: ImportSummary;
  problems: ImportProblem[];
}

const YML = [
  'yml-Zverushko-Excel-to-Yandex-YML-yandex_market.xml',
  'yml-artempyanykh-goods-simple_catalog.xml',
  'yml-lireincore-ymlparser-example-cp1251.xml',
  'yml-serkin-ymlparser-valid_xml.xml',
  'yml-stefanitsky-yandex_market_language-valid_feed.xml',
];

/** 1C's packages, each as the exchange takes it: the files one after another into one catalogue. */
const CML: Record<string, string[]> = {
  andrtechno: ['cml-andrtechno-mod-exchange1c-import.xml', 'cml-andrtechno-mod-exchange1c-offers.xml'],
  bigperson: ['cml-bigperson-exchange1c-import.xml', 'cml-bigperson-exchange1c-offers.xml'],
  carono: ['cml-carono-php-commerceml-import.xml', 'cml-carono-php-commerceml-offers.xml'],
  dobromyslov: ['cml-dobromyslov-commerceml-parser-import.xml', 'cml-dobromyslov-commerceml-parser-offers.xml'],
  'dobromyslov-nested-groups': ['cml-dobromyslov-commerceml-parser-import-nested-groups.xml'],
  gillbeits: [
    'cml-gillbeits-commerceml-import-classifier.xml',
    'cml-gillbeits-commerceml-offers.xml',
    'cml-gillbeits-commerceml-prices.xml',
    'cml-gillbeits-commerceml-rests.xml',
  ],
};

const snapshot = (name: string) => `./import-rows/${name}.json`;
// A run's problems as their count, the first five and a digest of all: 1C's test packages report the same
// waiting offer a thousand times.
const problems = (list: ImportProblem[]) => ({
  count: list.length,
  first: list.slice(0, 5),
  sha256: createHash('sha256').update(JSON.stringify(list)).digest('hex'),
});
// One row a line: a difference reads as the rows that differ.
const recorded = (runs: Run[], rows: Record<string, Row[]>) =>
  [
    '{"runs": [',
    runs.map((r) => JSON.stringify({ summary: r.summary, problems: problems(r.problems) })).join(',\n'),
    '], "rows": {',
    Object.entries(rows)
      .map(([name, list]) => `${JSON.stringify(name)}: [\n${list.map((row) => JSON.stringify(row)).join(',\n')}\n]`)
      .join(',\n'),
    '}}\n',
  ].join('\n');

describe('every fixture lands as it did', () => {
  it.each(YML)('the YML feed %s', async (name) => {
    const run = await importYml(database, fixture(name));
    await expect(recorded([run], await catalogueRows())).toMatchFileSnapshot(snapshot(name.replace(/\.xml$/, '')));
  });

  it.each(Object.entries(CML))('the 1C package %s', async (name, files) => {
    const runs: Run[] = [];
    for (const file of files) runs.push(await applyCatalogueFile(database, fixture(file), { maxBytes: 50 * 1024 * 1024 }));
    await expect(recorded(runs, await catalogueRows())).toMatchFileSnapshot(snapshot(`cml-${name}`));
  });

  it('a second import of the same feed changes nothing', async () => {
    const name = YML[4] as string;
    await importYml(database, fixture(name));
    const before = await catalogueRows();
    const again = await importYml(database, fixture(name));
    expect(again.summary).toMatchObject({ new: 0, changed: 0, hidden: 0 });
    expect(await catalogueRows()).toEqual(before);
  });
});
