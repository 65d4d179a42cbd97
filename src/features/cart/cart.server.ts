// Carts on the server (spec §3, §4, §7; DESIGN §4): a customer's lines in the database, every price,
// availability and limit read from the catalogue at each call, never from what the client sent. A
// guest's lines are checked the same way, and merged into the customer's cart at login.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from '~/lib/db/index.ts';
import { cartLines, carts, products, productVariants } from '~/lib/db/schema.ts';
import { HttpError, notFound } from '~/lib/http/errors.ts';
import type { MessageKey } from '~/lib/i18n/index.ts';
import { cardsByIds } from '~/features/catalog/catalog.server.ts';
import type { ProductCard } from '~/features/catalog/catalog.ts';
import type { CartItem, CartLine } from './cart.ts';

/** A cart holds at most this many lines (sizes of products), so one customer cannot grow it without bound. */
export const MAX_CART_LINES = 100;

interface Variant {
  id: number;
  productId: number;
  code: string;
  label: string;
  stock: number;
  minItem: number;
  maxItem: number;
  active: boolean;
}

const limitError = (max: number) => new HttpError(422, 'cart.limit', undefined, undefined, { max });
const fail = (status: number, key: MessageKey) => new HttpError(status, key);

/** A line's bounds: at least min_item, at most max_item and never more than is in stock (spec §3). */
function bounds(v: Variant): { min: number; max: number; available: boolean } {
  const max = Math.max(0, Math.min(v.maxItem, v.stock));
  return { min: v.minItem, max, available: v.active && max >= v.minItem };
}

async function variantsOf(productIds: readonly number[]): Promise<Variant[]> {
  if (productIds.length === 0) return [];
  const db = await getDb();
  return db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      code: productVariants.code,
      label: productVariants.label,
      stock: productVariants.stock,
      minItem: productVariants.minItem,
      maxItem: productVariants.maxItem,
      active: products.isActive,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(inArray(productVariants.productId, [...new Set(productIds)]))
    .orderBy(asc(productVariants.sort), asc(productVariants.id));
}

/** The variant an item names, or the product's only one when it names none. */
function pickVariant(variants: readonly Variant[], item: Pick<CartItem, 'id' | 'variant_code'>): Variant | undefined {
  const own = variants.filter((v) => v.productId === item.id);
  if (item.variant_code) return own.find((v) => v.code === item.variant_code);
  return own.length === 1 ? own[0] : undefined;
}

function toLine(card: ProductCard, v: Variant, uid: string, quantity: number, isSelected: boolean): CartLine {
  const { min, max, available } = bounds(v);
  return {
    uid,
    id: card.id,
    name: card.name,
    brand: card.brand,
    brand_id: card.brand_id,
    url: card.url,
    image: card.image?.src ?? null,
    price: card.price,
    price_old: card.price_old,
    discount_percent: card.discount_percent,
    currency_symbol: card.currency_symbol,
    variant_code: v.code,
    variant: v.label,
    min_item: min,
    // A line the shop cannot sell keeps its quantity as the customer chose it; the stepper stops at it.
    max_item: available ? max : Math.max(max, quantity),
    quantity,
    is_available: available && quantity <= max,
    is_selected: isSelected,
  };
}

/**
 * spec §7 guest/cart/validate-cart-item and cart/validate-cart-items: each item as the shop sees it now —
 * current price, availability, the line's limits, the quantity brought within them. Items whose product
 * or size no longer exists are left out.
 */
export async function validateItems(items: readonly CartItem[]): Promise<CartLine[]> {
  const variants = await variantsOf(items.map((i) => i.id));
  const cards = new Map((await cardsByIds([...new Set(items.map((i) => i.id))])).map((c) => [c.id, c]));
  const lines: CartLine[] = [];
  for (const item of items) {
    const v = pickVariant(variants, item);
    const card = cards.get(item.id);
    if (!v || !card) continue;
    const { min, max, available } = bounds(v);
    const quantity = available ? Math.min(Math.max(item.quantity, min), max) : Math.max(item.quantity, min);
    lines.push(toLine(card, v, item.uid ?? String(Date.now()), quantity, item.is_selected ?? true));
  }
  return lines;
}

// ---------------------------------------------------------------- a customer's cart

async function cartId(customerId: number): Promise<number> {
  const db = await getDb();
  await db.insert(carts).values({ customerId }).onConflictDoNothing();
  const [row] = await db.select({ id: carts.id }).from(carts).where(eq(carts.customerId, customerId));
  if (!row) throw new Error('cart row missing');
  return row.id;
}

/** spec §7 cart-items-list: the lines in the order they were added, priced now. */
export async function cartLinesOf(customerId: number): Promise<CartLine[]> {
  const db = await getDb();
  const rows = await db
    .select({
      uid: cartLines.uid,
      productId: cartLines.productId,
      variantId: cartLines.variantId,
      quantity: cartLines.quantity,
      isSelected: cartLines.isSelected,
    })
    .from(cartLines)
    .innerJoin(carts, eq(carts.id, cartLines.cartId))
    .where(eq(carts.customerId, customerId))
    .orderBy(asc(cartLines.id));
  if (rows.length === 0) return [];
  const variants = new Map((await variantsOf(rows.map((r) => r.productId))).map((v) => [v.id, v]));
  const cards = new Map((await cardsByIds([...new Set(rows.map((r) => r.productId))])).map((c) => [c.id, c]));
  return rows.flatMap((r) => {
    const v = r.variantId === null ? undefined : variants.get(r.variantId);
    const card = cards.get(r.productId);
    return v && card ? [toLine(card, v, r.uid, r.quantity, r.isSelected)] : [];
  });
}

/**
 * spec §7 store-cart-item: the same product and size joins its line; the line's quantity may not pass
 * its maximum (spec §5 message). Runs under a lock on the cart so two tabs adding at once add up.
 */
export async function storeItem(customerId: number, item: CartItem): Promise<void> {
  const v = pickVariant(await variantsOf([item.id]), item);
  if (!v) throw item.variant_code ? notFound() : fail(422, 'cart.chooseSize');
  const { max, available } = bounds(v);
  if (!available) throw fail(409, 'cart.unavailable');
  const id = await cartId(customerId);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id FROM carts WHERE id = ${id} FOR UPDATE`);
    const [existing] = await tx
      .select({ id: cartLines.id, quantity: cartLines.quantity })
      .from(cartLines)
      .where(and(eq(cartLines.cartId, id), eq(cartLines.productId, v.productId), eq(cartLines.variantId, v.id)));
    const quantity = (existing?.quantity ?? 0) + Math.max(item.quantity, v.minItem);
    if (quantity > max) throw limitError(max);
    if (existing) {
      await tx.update(cartLines).set({ quantity, isSelected: true }).where(eq(cartLines.id, existing.id));
      return;
    }
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(cartLines)
      .where(eq(cartLines.cartId, id));
    if (Number(n) >= MAX_CART_LINES) throw fail(409, 'cart.tooManyLines');
    await tx
      .insert(cartLines)
      .values({ cartId: id, uid: item.uid ?? `${Date.now()}${Math.floor(Math.random() * 1000)}`, productId: v.productId, variantId: v.id, quantity })
      .onConflictDoNothing();
  });
}

/** spec §7 update-cart-item: a new quantity within the line's bounds, or the selection mark. */
export async function updateItem(
  customerId: number,
  change: { uid: string; quantity?: number | undefined; is_selected?: boolean | undefined },
): Promise<CartLine> {
  const db = await getDb();
  const [row] = await db
    .select({ id: cartLines.id, productId: cartLines.productId, variantId: cartLines.variantId })
    .from(cartLines)
    .innerJoin(carts, eq(carts.id, cartLines.cartId))
    .where(and(eq(carts.customerId, customerId), eq(cartLines.uid, change.uid)));
  if (!row) throw fail(404, 'cart.lineNotFound');
  if (change.quantity !== undefined) {
    const v = (await variantsOf([row.productId])).find((x) => x.id === row.variantId);
    if (!v) throw fail(404, 'cart.lineNotFound');
    const { min, max } = bounds(v);
    if (change.quantity > max) throw limitError(max);
    if (change.quantity < min) throw new HttpError(422, 'cart.minQuantity', undefined, undefined, { min });
  }
  await db
    .update(cartLines)
    .set({
      ...(change.quantity !== undefined ? { quantity: change.quantity } : {}),
      ...(change.is_selected !== undefined ? { isSelected: change.is_selected } : {}),
    })
    .where(eq(cartLines.id, row.id));
  const line = (await cartLinesOf(customerId)).find((l) => l.uid === change.uid);
  if (!line) throw fail(404, 'cart.lineNotFound');
  return line;
}

/** spec §7 remove-item. A uid that is not in this customer's cart is 404. */
export async function removeItem(customerId: number, uid: string): Promise<void> {
  const db = await getDb();
  const removed = await db
    .delete(cartLines)
    .where(and(eq(cartLines.uid, uid), inArray(cartLines.cartId, db.select({ id: carts.id }).from(carts).where(eq(carts.customerId, customerId)))))
    .returning({ id: cartLines.id });
  if (removed.length === 0) throw fail(404, 'cart.lineNotFound');
}

/** spec §7 clear. */
export async function clearCart(customerId: number): Promise<void> {
  const db = await getDb();
  await db.delete(cartLines).where(inArray(cartLines.cartId, db.select({ id: carts.id }).from(carts).where(eq(carts.customerId, customerId))));
}

/**
 * spec §4: at login the guest's lines join the customer's cart — checked like any line, each line's
 * quantity brought within its maximum rather than refused, lines the shop cannot sell left out.
 */
export async function mergeGuestItems(customerId: number, items: readonly CartItem[]): Promise<void> {
  if (items.length === 0) return;
  const lines = (await validateItems(items)).filter((l) => l.is_available);
  const current = await cartLinesOf(customerId);
  for (const line of lines) {
    const existing = current.find((l) => l.variant_code === line.variant_code);
    const room = line.max_item - (existing?.quantity ?? 0);
    if (room <= 0) continue;
    try {
      await storeItem(customerId, { id: line.id, variant_code: line.variant_code, quantity: Math.min(line.quantity, room), uid: line.uid });
    } catch (error) {
      // A line that cannot join (sold out meanwhile, the cart full) is dropped; the rest still merge.
      if (!(error instanceof HttpError)) throw error;
    }
  }
}
