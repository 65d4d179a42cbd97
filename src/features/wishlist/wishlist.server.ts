// The signed-in customer's wishlist (spec §4, §7): product ids kept per customer; the list answers the
// products' cards, newest first. A product that is gone or hidden can be neither added nor shown.
import { and, desc, eq, sql } from 'drizzle-orm';
import { getDb } from '~/lib/db/index.ts';
import { products, wishlistItems } from '~/lib/db/schema.ts';
import { notFound } from '~/lib/http/errors.ts';
import { cardsByIds } from '~/features/catalog/catalog.server.ts';
import type { ProductCard } from '~/features/catalog/catalog.ts';

/** A wishlist holds at most this many products; the oldest are never dropped silently — adding past it is refused. */
export const WISHLIST_LIMIT = 500;

export async function wishlistIds(customerId: number): Promise<number[]> {
  const db = await getDb();
  const rows = await db
    .select({ id: wishlistItems.productId })
    .from(wishlistItems)
    .innerJoin(products, eq(products.id, wishlistItems.productId))
    .where(and(eq(wishlistItems.customerId, customerId), eq(products.isActive, true)))
    .orderBy(desc(wishlistItems.createdAt), desc(wishlistItems.productId));
  return rows.map((r) => r.id);
}

/** spec §7 get-customer-wishlist-product: the cards, newest first. */
export async function wishlistProducts(customerId: number): Promise<ProductCard[]> {
  return cardsByIds(await wishlistIds(customerId));
}

/** Adds a product (twice is once). Unknown or hidden products are 404. */
export async function addToWishlist(customerId: number, productId: number): Promise<'added' | 'limit'> {
  const db = await getDb();
  const [product] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, productId), eq(products.isActive, true)))
    .limit(1);
  if (!product) throw notFound();
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(wishlistItems)
    .where(eq(wishlistItems.customerId, customerId));
  if (Number(count?.n ?? 0) >= WISHLIST_LIMIT) return 'limit';
  await db.insert(wishlistItems).values({ customerId, productId }).onConflictDoNothing();
  return 'added';
}

/** Removes a product; removing one that is not there is not an error (the heart shows the truth after). */
export async function removeFromWishlist(customerId: number, productId: number): Promise<void> {
  const db = await getDb();
  await db.delete(wishlistItems).where(and(eq(wishlistItems.customerId, customerId), eq(wishlistItems.productId, productId)));
}
