// One CommerceML file of the catalogue exchange applied: checked whole first, then what it says of
// products (import.xml) and offers (offers.xml, prices, rests) kept in the exchange's own copy, then the
// products it touched written to the catalogue through the import's writer — the same categories,
// brands, sizes, photos and idempotence as a YML import (docs/exchange-1c.md). A product becomes visible
// once it has an offer with a price; a product 1C deletes is hidden; a full offers package hides what it
// no longer lists.
import { createReadStream, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database, RawQuery } from '../../lib/db/client.ts';
import { CatalogueWriter, checkXml, XmlReadError } from '../import/import.parts.server.ts';
import { NO_PARCEL, type ImportProblem, type ImportSummary, type SourceOffer } from '../import/import.ts';
import { E } from './cml-words.ts';
import { checkRoot, CmlFormatError, emptyHeader, isCmlRecord, readCommerceMl, type CmlContext, type CmlOffer, type CmlProduct } from './commerceml.server.ts';

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

export async function readState<T>(query: RawQuery, key: string, fallback: T): Promise<T> {
  const row = (await query('SELECT value FROM exchange_state WHERE key = $1', [key])).rows[0] as { value: T } | undefined;
  return row?.value ?? fallback;
}

export async function writeState(query: RawQuery, key: string, value: unknown): Promise<void> {
  await query(
    `INSERT INTO exchange_state (key, value, updated_at) VALUES ($1, $2::jsonb, now())
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [key, JSON.stringify(value)],
  );
}

/** The stored offer with what this file says of it laid over. */
type StoredOffer = Omit<CmlOffer, 'line' | 'id' | 'productId'> & { line: number };

/** The exchange's copy of the products a file lists. */
async function keepProducts(database: Database, products: readonly CmlProduct[]): Promise<void> {
  await database.rawTransaction((query) =>
    query(
      `INSERT INTO exchange_products (id, data, updated_at) SELECT u.id, u.data::jsonb, now() FROM unnest($1::text[], $2::text[]) AS u(id, data)
       ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
      [products.map((p) => p.id), products.map((p) => JSON.stringify(p))],
    ),
  );
}

/** The exchange's copy of the offers a file lists, each merged with what earlier files said of it. */
async function keepOffers(database: Database, offers: readonly CmlOffer[]): Promise<void> {
  const latest = new Map<string, CmlOffer>();
  for (const offer of offers) latest.set(offer.id, { ...latest.get(offer.id), ...offer });
  await database.rawTransaction(async (query) => {
    const stored = new Map<string, StoredOffer>();
    for (const r of (await query('SELECT id, data FROM exchange_offers WHERE id = ANY($1::text[])', [[...latest.keys()]])).rows as {
      id: string;
      data: StoredOffer;
    }[])
      stored.set(r.id, r.data);
    const rows = [...latest.values()].map(({ id, productId, ...fields }) => {
      const merged: StoredOffer = { ...stored.get(id), ...fields };
      // A price the file could use replaces an earlier problem with it, and the other way round.
      if ('price' in fields && !fields.priceProblem) delete merged.priceProblem;
      return { id, productId, data: merged };
    });
    await query(
      `INSERT INTO exchange_offers (id, product_id, data, updated_at) SELECT u.id, u.product_id, u.data::jsonb, now()
         FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, product_id, data)
       ON CONFLICT (id) DO UPDATE SET product_id = EXCLUDED.product_id, data = EXCLUDED.data, updated_at = now()`,
      [rows.map((r) => r.id), rows.map((r) => r.productId), rows.map((r) => JSON.stringify(r.data))],
    );
  });
}

/** A size's label from the offer's name when 1C gives no characteristic: "Ботинки (39)" → "39". */
function sizeFromName(offerName: string | undefined, productName: string): string | null {
  if (!offerName || offerName === productName) return null;
  const bracket = /\(([^()]+)\)\s*$/.exec(offerName);
  if (bracket?.[1]) return bracket[1].split(',')[0]?.trim() || null;
  return offerName.startsWith(productName) ? offerName.slice(productName.length).trim() || null : null;
}

/** A product and its offers as the plain offers the writer takes; none while it has no priced offer. */
function sourceOffers(product: CmlProduct, offers: { id: string; data: StoredOffer }[], problems: ImportProblem[]): SourceOffer[] {
  const priced = offers.filter((o) => !o.data.deleted && typeof o.data.price === 'number');
  for (const o of offers)
    if (!o.data.deleted && o.data.priceProblem) problems.push({ severity: 'error', id: o.id, line: o.data.line, reason: o.data.priceProblem });
  if (priced.length === 0) return [];
  const prices = priced.map((o) => o.data.price as number);
  const price = Math.min(...prices);
  if (Math.max(...prices) !== price)
    problems.push({
      severity: 'warning',
      id: product.id,
      line: product.line,
      reason: `its sizes have different prices (${price / 100}–${Math.max(...prices) / 100} RUB): the product is sold at the lowest`,
    });
  const olds = priced.map((o) => o.data.priceOld).filter((p): p is number => typeof p === 'number' && p > price);
  const labels = new Set<string>();
  return priced.map((o, index) => {
    // Sizes from the characteristic, else from the name; offers that differ by colour alone are told apart by it.
    let size = o.data.size ?? sizeFromName(o.data.name, product.name) ?? (priced.length === 1 ? product.size : (o.data.color ?? null));
    if (priced.length > 1 && (size === null || labels.has(size))) size = `${size ?? o.data.name ?? product.name} #${index + 1}`;
    if (size !== null) labels.add(size);
    return {
      id: o.id,
      productKey: product.id,
      line: o.data.line,
      name: product.name,
      vendor: product.vendor,
      categoryId: product.groupId,
      price,
      priceOld: olds.length > 0 ? Math.min(...olds) : null,
      stock: o.data.stock ?? 0,
      available: (o.data.stock ?? 0) > 0,
      pictures: product.pictures,
      description: product.description,
      size,
      color: product.color ?? o.data.color ?? null,
      attributes: product.attributes,
      vendorCode: product.article,
      barcodes: priced.length === 1 ? product.barcodes : [],
      salesNotes: '',
      url: '',
      parcel: product.parcel ?? NO_PARCEL,
    };
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

  // First pass: well-formed, CommerceML 2.03–2.10, and how many records, before anything is kept.
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

  const q = database.query;
  const context: CmlContext = {
    properties: await readState(q, 'properties', {}),
    priceTypes: await readState(q, 'price-types', {}),
    priceTypeName: options.priceTypeName,
    oldPriceTypeName: options.oldPriceTypeName,
  };
  const problems: ImportProblem[] = [];
  const writer = new CatalogueWriter(
    database,
    { dryRun: false, defaultStock: 0, ...(options.photos ? { photos: { ...options.photos, baseDir: dirname(file) } } : {}) },
    problems,
    SOURCE,
  );
  await writer.load();
  const header = emptyHeader();
  const touched = new Set<string>();
  const listedProducts = new Set<string>();
  const listedOffers = new Set<string>();
  let read = 0;
  options.onProgress?.(0, records * 2);
  try {
    for await (const event of readCommerceMl(open(), context, problems, header)) {
      if (event.kind === 'groups') await writer.applyCategories(event.categories);
      else if (event.kind === 'products') {
        for (let i = 0; i < event.products.length; i += BATCH) await keepProducts(database, event.products.slice(i, i + BATCH));
        for (const p of event.products) {
          touched.add(p.id);
          listedProducts.add(p.id);
        }
        read += event.products.length;
      } else if (event.kind === 'offers') {
        for (let i = 0; i < event.offers.length; i += BATCH) await keepOffers(database, event.offers.slice(i, i + BATCH));
        for (const o of event.offers) {
          touched.add(o.productId);
          listedOffers.add(o.id);
        }
        read += event.offers.length;
      }
      options.onProgress?.(read, records * 2);
    }
  } catch (error) {
    throw asFileError(error);
  }
  await database.rawTransaction(async (query) => {
    await writeState(query, 'properties', context.properties);
    await writeState(query, 'price-types', context.priceTypes);
  });

  // A whole catalogue or offers package: what it no longer lists is gone from 1C.
  const gone: string[] = [];
  if (header.fullCatalogue && header.hasCatalogue) {
    const ids = (await q('SELECT id FROM exchange_products')).rows as { id: string }[];
    for (const { id } of ids) if (!listedProducts.has(id)) gone.push(id);
    if (gone.length > 0) await q('DELETE FROM exchange_products WHERE id = ANY($1::text[])', [gone]);
  }
  const wholeOffers = header.fullOffers && header.hasOffers;
  if (wholeOffers) {
    const ids = (await q('SELECT id, product_id FROM exchange_offers')).rows as { id: string; product_id: string }[];
    const dropped = ids.filter((r) => !listedOffers.has(r.id));
    for (const r of dropped) touched.add(r.product_id);
    if (dropped.length > 0) await q('DELETE FROM exchange_offers WHERE id = ANY($1::text[])', [dropped.map((r) => r.id)]);
    // Every product 1C has is written, so that what is not written can be hidden.
    for (const { id } of (await q('SELECT id FROM exchange_products')).rows as { id: string }[]) touched.add(id);
  }

  // The touched products written to the catalogue, a batch at a time.
  const ids = [...touched];
  let waiting = 0;
  const hide: string[] = [...gone];
  for (let i = 0; i < ids.length; i += BATCH) {
    const part = ids.slice(i, i + BATCH);
    const products = new Map(
      ((await q('SELECT id, data FROM exchange_products WHERE id = ANY($1::text[])', [part])).rows as { id: string; data: CmlProduct }[]).map((r) => [
        r.id,
        r.data,
      ]),
    );
    const offers = new Map<string, { id: string; data: StoredOffer }[]>();
    for (const r of (await q('SELECT id, product_id, data FROM exchange_offers WHERE product_id = ANY($1::text[])', [part])).rows as {
      id: string;
      product_id: string;
      data: StoredOffer;
    }[])
      offers.set(r.product_id, [...(offers.get(r.product_id) ?? []), { id: r.id, data: r.data }]);
    const batch: SourceOffer[] = [];
    for (const id of part) {
      const product = products.get(id);
      const its = offers.get(id) ?? [];
      if (!product) {
        // Offers of a product 1C has not sent (yet): one line each, when this file listed them.
        for (const o of its)
          if (listedOffers.has(o.id))
            problems.push({
              severity: 'error',
              id: o.id,
              line: o.data.line,
              reason: `the product ${id} is not in the catalogue file (import.xml): the offer waits for it`,
            });
        continue;
      }
      if (product.deleted) {
        hide.push(id);
        continue;
      }
      const made = sourceOffers(product, its, problems);
      if (made.length === 0) waiting++;
      batch.push(...made);
    }
    if (batch.length > 0) await writer.applyOffers(batch);
    options.onProgress?.(records + Math.round((records * Math.min(ids.length, i + BATCH)) / Math.max(1, ids.length)), records * 2);
  }
  if (wholeOffers) await writer.hideMissing();
  if (hide.length > 0)
    await database.rawTransaction(async (query) => {
      const result = await query('UPDATE products SET is_active = false WHERE is_active AND external_id = ANY($1::text[]) RETURNING id', [
        hide.map((id) => `${SOURCE}:${id}`),
      ]);
      writer.summary.hidden += result.rows.length;
    });
  await writer.tidy();
  options.onProgress?.(records * 2, records * 2);
  return { summary: { ...writer.summary, errors: problems.filter((p) => p.severity === 'error').length }, problems, records, waiting };
}
