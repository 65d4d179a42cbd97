// The exchange's own copy of what 1C has sent (docs/exchange-1c.md): products from import.xml and offers from
// offers.xml, prices and rests, kept across files and sessions, since a product and its offers come in
// different files; and the exchange's small state (price types, properties, the jobs and orders sent).
import type { Database, RawQuery } from '../../lib/db/client.ts';
import type { CmlOffer, CmlProduct } from './commerceml.server.ts';

/** The stored offer with what later files said of it laid over. */
export type StoredOffer = Omit<CmlOffer, 'line' | 'id' | 'productId'> & { line: number };

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

/** The exchange's copy of the products a file lists. */
export async function keepProducts(database: Database, products: readonly CmlProduct[]): Promise<void> {
  await database.rawTransaction((query) =>
    query(
      `INSERT INTO exchange_products (id, data, updated_at) SELECT u.id, u.data::jsonb, now() FROM unnest($1::text[], $2::text[]) AS u(id, data)
       ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
      [products.map((p) => p.id), products.map((p) => JSON.stringify(p))],
    ),
  );
}

/** The exchange's copy of the offers a file lists, each merged with what earlier files said of it. */
export async function keepOffers(database: Database, offers: readonly CmlOffer[]): Promise<void> {
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

/** The kept products with these ids, and their kept offers by product id. */
export async function keptRecords(
  database: Database,
  ids: readonly string[],
): Promise<{ products: Map<string, CmlProduct>; offers: Map<string, { id: string; data: StoredOffer }[]> }> {
  const q = database.query;
  const products = new Map(
    ((await q('SELECT id, data FROM exchange_products WHERE id = ANY($1::text[])', [ids])).rows as { id: string; data: CmlProduct }[]).map((r) => [
      r.id,
      r.data,
    ]),
  );
  const offers = new Map<string, { id: string; data: StoredOffer }[]>();
  for (const r of (await q('SELECT id, product_id, data FROM exchange_offers WHERE product_id = ANY($1::text[])', [ids])).rows as {
    id: string;
    product_id: string;
    data: StoredOffer;
  }[])
    offers.set(r.product_id, [...(offers.get(r.product_id) ?? []), { id: r.id, data: r.data }]);
  return { products, offers };
}
