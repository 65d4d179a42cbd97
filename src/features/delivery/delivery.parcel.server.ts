// The parcel of an order's lines from the database (parcel.ts says how): each product's own weight and
// size, its category's default, and the box they pack into.
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { categorySlugsOf } from '~/features/catalog/catalog.categories.server.ts';
import type { Parcel } from './delivery.ts';
import { categoryParcel, ITEM_PARCEL, itemParcel, packParcel, parseParcelRules, type ParcelRule } from './delivery.parcel.ts';

let rules: ParcelRule[] | undefined;
const parcelRules = () => (rules ??= parseParcelRules(env().DELIVERY_PARCELS));

/** A line to be packed: a product and how many of it. */
export interface ParcelLine {
  productId: number;
  quantity: number;
}

/** One item of each of these products (ITEM_PARCEL for one the shop does not have). */
export async function itemParcels(productIds: readonly number[]): Promise<Map<number, Parcel>> {
  const ids = [...new Set(productIds)].filter((id) => Number.isSafeInteger(id));
  const found = new Map<number, Parcel>();
  if (ids.length === 0) return found;
  // The product's category and its parents, nearest first: a default set for "shoes" reaches "women's shoes".
  const rows = await selectRows<{
    id: number;
    weight_g: number | null;
    length_cm: number | null;
    width_cm: number | null;
    height_cm: number | null;
    slugs: string[] | null;
  }>(
    await getDb(),
    sql`SELECT p.id, p.weight_g, p.length_cm, p.width_cm, p.height_cm, ${categorySlugsOf(sql`p.id`)} AS slugs
          FROM products p WHERE p.id = ANY(${`{${ids.join(',')}}`}::int[])`,
  );
  for (const r of rows) {
    const fallback = categoryParcel(parcelRules(), r.slugs ?? []);
    found.set(r.id, itemParcel({ weight: r.weight_g, length: r.length_cm, width: r.width_cm, height: r.height_cm }, fallback));
  }
  return found;
}

/** The one box these lines pack into. */
export async function parcelOf(lines: readonly ParcelLine[]): Promise<Parcel> {
  const sizes = await itemParcels(lines.map((l) => l.productId));
  return packParcel(lines.map((l) => ({ parcel: sizes.get(l.productId) ?? ITEM_PARCEL, quantity: l.quantity })));
}
