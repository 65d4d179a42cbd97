// One CommerceML file of the catalogue exchange applied: checked whole first, then what it says of products
// (import.xml) and offers (offers.xml, prices, rests) kept in the exchange's own copy (packages.server.ts),
// then the products it touched read back as the import's records (cml-offers.server.ts) and written through
// its read → map → write pipeline: the same categories, brands, sizes, photos and idempotence as a YML
// import (docs/exchange-1c.md). A product becomes visible once it has an offer with a price; a product 1C
// deletes is hidden; a full offers package hides what it no longer lists.
import { createReadStream, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from '../../lib/db/client.ts';
import { CatalogueImport, checkXml, XmlReadError } from '../import/import.parts.server.ts';
import type { ImportProblem, ImportSummary, SourceOffer } from '../import/import.ts';
import { E } from './cml-words.ts';
import { cmlSourceOffers } from './cml-offers.server.ts';
import { checkRoot, CmlFormatError, emptyHeader, isCmlRecord, readCommerceMl, type CmlContext, type CmlHeader } from './commerceml.server.ts';
import { keepOffers, keepProducts, keptRecords, readState, writeState } from './packages.server.ts';

export const SOURCE = 'cml';
const BATCH = 500;

export interface CatalogueFileOptions {
  priceTypeName?: string | undefined;
  oldPriceTypeName?: string | undefined;
  maxBytes: number;
  photos?: { dir: string; allowPrivate?: boolean } | undefined;
  onProgress?: (done: number, total: number) => void;
}

export interface CatalogueFileResult {
  summary: ImportSummary;
  problems: ImportProblem[];
  /** Products, offers or documents the file holds. */
  records: number;
  /** Products that have no offer with a price yet, so are not on sale. */
  waiting: number;
}

/** The file cannot be used at all: not XML, cut short, another format or version, too large. */
export class ExchangeFileError extends Error {
  override name = 'ExchangeFileError';
}

/** A reading error of the file as the exchange reports it (with its line when the parser knows it); others as they are. */
export function asFileError(error: unknown): unknown {
  if (error instanceof XmlReadError) return new ExchangeFileError(`${error.line ? `line ${error.line}: ` : ''}${error.message}`);
  if (error instanceof CmlFormatError) return new ExchangeFileError(error.message);
  return error;
}

/** The first pass: well-formed, CommerceML 2.03–2.10, and how many records, before anything is kept. */
async function checkFile(open: () => ReturnType<typeof createReadStream>): Promise<number> {
  let records = 0;
  let root: string | undefined;
  let version = '';
  try {
    await checkXml(open(), (path, attributes) => {
      if (path.length === 1) {
        root = path[0];
        version = (attributes()[E.version] ?? '').trim();
      } else if (isCmlRecord(path)) records++;
    });
    checkRoot(root, version);
  } catch (error) {
    throw asFileError(error);
  }
  return records;
}

/** What one file listed, as kept: the header, the products and offers it named, the products it touched. */
interface Kept {
  header: CmlHeader;
  touched: Set<string>;
  listedProducts: Set<string>;
  listedOffers: Set<string>;
}

/** The second pass: the file's groups to the catalogue, its products and offers into the exchange's copy. */
async function keepFile(
  database: Database,
  stream: AsyncIterable<Uint8Array>,
  run: { pipeline: CatalogueImport; context: CmlContext; problems: ImportProblem[]; progress: (read: number) => void },
): Promise<Kept> {
  const kept: Kept = { header: emptyHeader(), touched: new Set(), listedProducts: new Set(), listedOffers: new Set() };
  let read = 0;
  try {
    for await (const event of readCommerceMl(stream, run.context, run.problems, kept.header)) {
      if (event.kind === 'groups') await run.pipeline.applyCategories(event.categories);
      else if (event.kind === 'products') {
        for (let i = 0; i < event.products.length; i += BATCH) await keepProducts(database, event.products.slice(i, i + BATCH));
        for (const p of event.products) {
          kept.touched.add(p.id);
          kept.listedProducts.add(p.id);
        }
        read += event.products.length;
      } else if (event.kind === 'offers') {
        for (let i = 0; i < event.offers.length; i += BATCH) await keepOffers(database, event.offers.slice(i, i + BATCH));
        for (const o of event.offers) {
          kept.touched.add(o.productId);
          kept.listedOffers.add(o.id);
        }
        read += event.offers.length;
      }
      run.progress(read);
    }
  } catch (error) {
    throw asFileError(error);
  }
  return kept;
}

/**
 * A whole catalogue or offers package: what it no longer lists is gone from 1C. Answers the products to hide;
 * a whole offers package touches every product 1C has, so that what is not written can be hidden.
 */
async function dropUnlisted(database: Database, kept: Kept): Promise<string[]> {
  const q = database.query;
  const gone: string[] = [];
  if (kept.header.fullCatalogue && kept.header.hasCatalogue) {
    const ids = (await q('SELECT id FROM exchange_products')).rows as { id: string }[];
    for (const { id } of ids) if (!kept.listedProducts.has(id)) gone.push(id);
    if (gone.length > 0) await q('DELETE FROM exchange_products WHERE id = ANY($1::text[])', [gone]);
  }
  if (kept.header.fullOffers && kept.header.hasOffers) {
    const ids = (await q('SELECT id, product_id FROM exchange_offers')).rows as { id: string; product_id: string }[];
    const dropped = ids.filter((r) => !kept.listedOffers.has(r.id));
    for (const r of dropped) kept.touched.add(r.product_id);
    if (dropped.length > 0) await q('DELETE FROM exchange_offers WHERE id = ANY($1::text[])', [dropped.map((r) => r.id)]);
    for (const { id } of (await q('SELECT id FROM exchange_products')).rows as { id: string }[]) kept.touched.add(id);
  }
  return gone;
}

/** One batch of touched products as records: deleted ones to hide, those without a priced offer waiting. */
async function recordsOf(database: Database, part: readonly string[], kept: Kept, problems: ImportProblem[]) {
  const { products, offers } = await keptRecords(database, part);
  const out = { records: [] as SourceOffer[], hide: [] as string[], waiting: 0 };
  for (const id of part) {
    const product = products.get(id);
    const its = offers.get(id) ?? [];
    if (!product) {
      // Offers of a product 1C has not sent (yet): one line each, when this file listed them.
      for (const o of its)
        if (kept.listedOffers.has(o.id))
          problems.push({
            severity: 'error',
            id: o.id,
            line: o.data.line,
            reason: `the product ${id} is not in the catalogue file (import.xml): the offer waits for it`,
          });
      continue;
    }
    if (product.deleted) {
      out.hide.push(id);
      continue;
    }
    const made = cmlSourceOffers(product, its, problems);
    if (made.length === 0) out.waiting++;
    out.records.push(...made);
  }
  return out;
}

/** Products 1C deleted, or a whole package no longer lists, hidden (orders refer to them). */
async function hideProducts(database: Database, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return database.rawTransaction(async (query) => {
    const result = await query('UPDATE products SET is_active = false WHERE is_active AND external_id = ANY($1::text[]) RETURNING id', [
      ids.map((id) => `${SOURCE}:${id}`),
    ]);
    return result.rows.length;
  });
}

/**
 * Applies one CommerceML file of the catalogue exchange (import, offers, prices or rests) to the shop.
 * Throws ExchangeFileError when the file cannot be used at all; the catalogue is then as it was.
 */
export async function applyCatalogueFile(database: Database, file: string, options: CatalogueFileOptions): Promise<CatalogueFileResult> {
  const size = statSync(file).size;
  if (size > options.maxBytes) throw new ExchangeFileError(`the file is ${size} bytes, over the limit of ${options.maxBytes} (IMPORT_MAX_BYTES)`);
  const open = () => createReadStream(file, { highWaterMark: 256 * 1024 });
  const records = await checkFile(open);

  const q = database.query;
  const context: CmlContext = {
    properties: await readState(q, 'properties', {}),
    priceTypes: await readState(q, 'price-types', {}),
    priceTypeName: options.priceTypeName,
    oldPriceTypeName: options.oldPriceTypeName,
  };
  const problems: ImportProblem[] = [];
  const photos = options.photos ? { photos: { ...options.photos, baseDir: dirname(file) } } : {};
  const pipeline = new CatalogueImport(database, { dryRun: false, defaultStock: 0, ...photos }, problems, SOURCE);
  await pipeline.load();
  const progress = (done: number) => options.onProgress?.(done, records * 2);
  progress(0);
  const kept = await keepFile(database, open(), { pipeline, context, problems, progress });
  await database.rawTransaction(async (query) => {
    await writeState(query, 'properties', context.properties);
    await writeState(query, 'price-types', context.priceTypes);
  });

  // The touched products written to the catalogue through the import's pipeline, a batch at a time.
  const hide = await dropUnlisted(database, kept);
  const ids = [...kept.touched];
  let waiting = 0;
  for (let i = 0; i < ids.length; i += BATCH) {
    const part = await recordsOf(database, ids.slice(i, i + BATCH), kept, problems);
    hide.push(...part.hide);
    waiting += part.waiting;
    if (part.records.length > 0) await pipeline.applyOffers(part.records);
    progress(records + Math.round((records * Math.min(ids.length, i + BATCH)) / Math.max(1, ids.length)));
  }
  if (kept.header.fullOffers && kept.header.hasOffers) await pipeline.hideMissing();
  pipeline.summary.hidden += await hideProducts(database, hide);
  await pipeline.tidy();
  progress(records * 2);
  return { summary: { ...pipeline.summary, errors: problems.filter((p) => p.severity === 'error').length }, problems, records, waiting };
}
