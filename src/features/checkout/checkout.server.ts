// Order placement (issue 9; DESIGN §4): one transaction that reads every price from the database, locks
// the sizes' stock rows in id order and refuses with 409 when one is short (stock never goes negative),
// spends bonus points and balance under a lock on the customer, and answers a repeated Idempotency-Key
// with the first order. An unpaid order holds its stock for PAYMENT_TIMEOUT_MINUTES.
import { sql } from 'drizzle-orm';
import { isUniqueViolation, selectRows, type Db } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { metrics } from '~/lib/metrics.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { dashboardContent } from '~/features/auth/auth.server.ts';
import { getDeliveryOptions } from '~/features/content/content.server.ts';
import type { DeliveryOption } from '~/features/content/content.ts';
import { acceptOnDelivery, cancelOrder, lockOrder, markPaid, newOrderCode, orderHash, sendOrderMail } from '~/features/orders/orders.server.ts';
import { cartLinesOf } from '~/features/cart/cart.server.ts';
import { carrierChoice, pointFacts, quoted, servicesFor, takesPaymentAtDoor } from '~/features/delivery/delivery.server.ts';
import { codRefused, onDeliveryAnswer, type CodAnswer } from '~/features/payments/payments.on-delivery.server.ts';
import { ON_DELIVERY } from '~/features/orders/orders.ts';
import { parcelOf } from '~/features/delivery/delivery.parcel.server.ts';
import type { CartItem } from '~/features/cart/cart.ts';
import { sizesSoldOut } from '~/features/catalog/read-model.server.ts';
import type { PlaceOrderInput } from './checkout.schema.ts';
import type { CarrierDeliveryRecord } from '~/features/delivery/delivery.ts';
import { categoryIdsOf } from '~/features/catalog/catalog.categories.server.ts';
import { applyPromotions, type LineDiscount, type PricedCartLine, type PromotionResult } from '~/features/promotions/promotions.ts';
import { automaticPromotions, checkCode, claimCode, customerKeys, type CodeAnswer } from '~/features/promotions/promotions.server.ts';
import { checkCertificates, spendCertificates, type GiftAnswer } from '~/features/promotions/promotions.gifts.server.ts';

/** Bonus points pay at most this share of the goods (after discounts); the balance may pay everything. */
export const BONUS_CAP_PERCENT = 30;

export interface PlacedOrder {
  code: string;
  hash: string;
  total: number;
  status: string;
  payment_status: string;
  /** False when the Idempotency-Key had already placed this order. */
  created: boolean;
}

interface Owner {
  customerId: number | null;
}

interface PricedVariant extends Record<string, unknown> {
  id: number;
  code: string;
  label: string;
  stock: number;
  min_item: number;
  max_item: number;
  product_id: number;
  name: string;
  brand: string;
  price: number;
  price_old: number | null;
  brand_id: number;
  /** Null for a product without a category. */
  category_ids: number[] | null;
  free_delivery: boolean;
  is_active: boolean;
  image: string | null;
}

const conflict = (key: 'checkout.outOfStock' | 'checkout.empty' | 'checkout.keyInUse', params?: Record<string, string | number>) =>
  new HttpError(409, key, undefined, undefined, params);

/** What the shopper chooses, without the contact: enough to price an order (the summary call sends this much). */
export type PricingInput = Pick<PlaceOrderInput, 'items' | 'use_bonus' | 'use_balance' | 'payment' | 'promo_code' | 'gift_codes'> & {
  delivery: Pick<PlaceOrderInput['delivery'], 'method'> & { quote?: string | undefined; point?: string | undefined };
};

/**
 * The lines to order: a customer's selected cart lines that the cart shows as available (spec §4: the
 * total counts only those), or the guest's items.
 */
async function orderItems(owner: Owner, input: PricingInput): Promise<CartItem[]> {
  if (owner.customerId === null) return input.items ?? [];
  return (await cartLinesOf(owner.customerId))
    .filter((l) => l.is_selected && l.is_available)
    .map((l) => ({ id: l.id, quantity: l.quantity, variant_code: l.variant_code }));
}

export interface PricedLine {
  variant: PricedVariant;
  quantity: number;
  /** Kopecks promotions took off the line, by promotion (issue 56). */
  promo_discount: number;
  promotions: LineDiscount[];
}

/** The code the shopper sent, accepted or not: the order keeps an accepted one's use (claimCode). */
export type PromoCodeState = { code: string; answer: CodeAnswer } | null;

/** An order's money, every figure from the database (kopecks). */
export interface Pricing {
  lines: PricedLine[];
  items_total: number;
  discount_total: number;
  delivery_price: number;
  /** Off the goods and off delivery by promotions, and each one applied (docs/promotions.md). */
  promo_discount: number;
  delivery_discount: number;
  promotions: PromotionResult['applied'];
  promo_code: PromoCodeState;
  /** What the customer holds, and the most points this order may take (BONUS_CAP_PERCENT of the goods). */
  bonus_available: number;
  bonus_cap: number;
  balance_available: number;
  bonus_used: number;
  balance_used: number;
  /** Gift certificates typed (issue 56): each one's answer, and the kopecks they pay (last, before the card). */
  certificates: GiftAnswer[];
  certificate_used: number;
  /** The carrier's fee for taking the money at the door (payment on delivery, passed on), in the total. */
  cod_fee: number;
  total: number;
}

/** The summary's pricing, with whether the order may be paid on delivery and the services that come with it. */
export type Summary = Pricing & { on_delivery: CodAnswer; services: { try_on: boolean; partial: boolean } };

const NO_SERVICES = { try_on: false, partial: false };
const units = (items: readonly CartItem[]) => items.reduce((n, i) => n + i.quantity, 0);

/** The fee of payment on delivery added to an order paid so. */
const withFee = (p: Pricing, fee: number): Pricing => ({ ...p, cod_fee: fee, total: p.total + fee });

/**
 * Prices what the shopper chose. Inside placement the sizes' stock rows are locked (in id order, so two
 * orders for the same sizes never wait on each other in a circle) and so is the customer; the summary
 * reads the same figures without locks. A line short of stock, inactive or outside its min/max is a 409.
 */
async function price(
  tx: Pick<Db, 'execute'>,
  owner: Owner,
  items: readonly CartItem[],
  input: PricingInput,
  option: DeliveryOption,
  lock: boolean,
  /** The buyer's keys for a code's per-customer limit (customerKeys): the summary knows only a customer's. */
  keys: readonly string[],
): Promise<Pricing> {
  // The same size twice in one order is one line.
  const wanted = new Map<string, number>();
  for (const item of items) {
    const key = item.variant_code ?? `#${item.id}`;
    wanted.set(key, (wanted.get(key) ?? 0) + item.quantity);
  }
  const codes = [...wanted.keys()].filter((k) => !k.startsWith('#'));
  const productIds = [...wanted.keys()].filter((k) => k.startsWith('#')).map((k) => Number(k.slice(1)));
  const variants = await selectRows<PricedVariant>(
    tx,
    sql`SELECT v.id, v.code, v.label, v.stock, v.min_item, v.max_item, p.id AS product_id, p.name, b.name AS brand,
               p.price, p.price_old, p.brand_id, ${categoryIdsOf(sql`p.id`)} AS category_ids, p.free_delivery, p.is_active,
               (SELECT replace(i.url_template, '{w}', (SELECT min(w) FROM unnest(i.widths) w)::text) FROM product_images i
                 WHERE i.product_id = p.id ORDER BY i.position LIMIT 1) AS image
          FROM product_variants v JOIN products p ON p.id = v.product_id JOIN brands b ON b.id = p.brand_id
         WHERE v.code IN (${sql.join(
           [...codes, ''].map((c) => sql`${c}`),
           sql`, `,
         )})
            OR (v.product_id IN (${sql.join(
              [...productIds, 0].map((id) => sql`${id}`),
              sql`, `,
            )})
                AND (SELECT count(*) FROM product_variants w WHERE w.product_id = v.product_id) = 1)
         ORDER BY v.id ${lock ? sql`FOR UPDATE OF v` : sql``}`,
  );
  const lines = [...wanted.entries()].map(([key, quantity]) => {
    const v = key.startsWith('#') ? variants.find((x) => x.product_id === Number(key.slice(1))) : variants.find((x) => x.code === key);
    if (!v || !v.is_active) throw conflict('checkout.outOfStock', { name: v?.name ?? '' });
    if (quantity > Number(v.stock) || quantity > Number(v.max_item) || quantity < Number(v.min_item)) throw conflict('checkout.outOfStock', { name: v.name });
    return { variant: v, quantity };
  });

  const itemsTotal = lines.reduce((s, l) => s + Number(l.variant.price) * l.quantity, 0);
  const discountTotal = lines.reduce((s, l) => s + Math.max(0, Number(l.variant.price_old ?? l.variant.price) - Number(l.variant.price)) * l.quantity, 0);
  const cartLines: PricedCartLine[] = lines.map((l) => ({
    productId: Number(l.variant.product_id),
    categoryIds: (l.variant.category_ids ?? []).map(Number),
    brandId: Number(l.variant.brand_id),
    unitPrice: Number(l.variant.price),
    quantity: l.quantity,
    size: l.variant.label,
  }));
  // Promotions (issue 56): the automatic ones in force, and the shopper's code when it is accepted.
  const promoCode: PromoCodeState = input.promo_code ? { code: input.promo_code, answer: await checkCode(tx, input.promo_code, keys, cartLines) } : null;
  const candidates = [...(await automaticPromotions(tx)), ...(promoCode?.answer.ok ? [promoCode.answer.promotion] : [])];
  const promoted = applyPromotions(cartLines, candidates, {
    price: lines.every((l) => l.variant.free_delivery) ? 0 : option.price,
    method: option.id,
  });
  const codeAnswer = promoCode?.answer;
  if (promoCode && codeAnswer?.ok && !promoted.applied.some((a) => a.promotionId === codeAnswer.promotion.id))
    promoCode.answer = { ok: false, reason: 'promo.notBetter' };
  const goodsTotal = promoted.goodsAfter;
  const deliveryPrice = promoted.deliveryAfter;
  const bonusCap = Math.floor((goodsTotal * BONUS_CAP_PERCENT) / 100);
  let held = { bonus_amount: 0, balance_amount: 0 };
  const spending = input.use_bonus > 0 || input.use_balance > 0;
  // The summary shows what a customer holds; placement reads it only to spend it.
  if (owner.customerId !== null && (spending || !lock)) {
    // One order at a time spends a customer's points and balance.
    if (lock) await tx.execute(sql`SELECT id FROM customers WHERE id = ${owner.customerId} FOR UPDATE`);
    held = await dashboardContent(owner.customerId, tx);
  }
  const bonusAvailable = Math.max(0, held.bonus_amount);
  const balanceAvailable = Math.max(0, held.balance_amount);
  const bonusUsed = Math.min(input.use_bonus, bonusAvailable, bonusCap);
  const balanceUsed = Math.min(input.use_balance, balanceAvailable, goodsTotal + deliveryPrice - bonusUsed);
  // Gift certificates are a prepayment, not a discount: they pay what is left, the card the rest (docs/promotions.md).
  const certificates = await checkCertificates(tx, input.gift_codes ?? [], goodsTotal + deliveryPrice - bonusUsed - balanceUsed, {
    lock,
    onDelivery: input.payment === ON_DELIVERY,
  });
  const certificateUsed = certificates.reduce((s, c) => s + c.applied, 0);
  return {
    lines: lines.map((l, i) => ({
      ...l,
      promo_discount: l.quantity * Number(l.variant.price) - (promoted.lines[i]?.amount ?? 0),
      promotions: promoted.lines[i]?.discounts ?? [],
    })),
    items_total: itemsTotal,
    discount_total: discountTotal,
    delivery_price: deliveryPrice,
    promo_discount: promoted.goodsBefore - promoted.goodsAfter,
    delivery_discount: promoted.deliveryBefore - promoted.deliveryAfter,
    promotions: promoted.applied,
    promo_code: promoCode,
    bonus_available: bonusAvailable,
    bonus_cap: bonusCap,
    balance_available: balanceAvailable,
    bonus_used: bonusUsed,
    balance_used: balanceUsed,
    certificates,
    certificate_used: certificateUsed,
    cod_fee: 0,
    total: goodsTotal + deliveryPrice - bonusUsed - balanceUsed - certificateUsed,
  };
}

/** The delivery method the editors offer under this id; an unknown one is the field's 422. */
async function deliveryOption(method: string): Promise<DeliveryOption> {
  const option = (await getDeliveryOptions()).find((o) => o.id === method);
  if (!option) throw new HttpError(422, 'error.validation', { 'delivery.method': ['validation.invalid'] });
  return option;
}

/** The parcel these lines pack into (a carrier's quote is for it). */
const parcelOfItems = (items: readonly CartItem[]) => parcelOf(items.map((item) => ({ productId: item.id, quantity: item.quantity })));

/** A carrier's sealed quote as a delivery option to price: its price, and the address it needs. */
function quotedOption(quote: { mode: 'pickup' | 'postamat' | 'courier'; price: number; tariff: number }): DeliveryOption {
  const courier = quote.mode === 'courier';
  return {
    id: courier ? 'courier' : 'pickup',
    name: `cdek ${quote.tariff}`,
    description: '',
    price: quote.price,
    days_min: 0,
    days_max: 0,
    address: courier ? 'full' : 'point',
  };
}

/**
 * Trying on and a partial buy-out (issue 55) as ordered: only paid at the door, and only where the carrier
 * offers them for this way, point and number of units; otherwise the field's 422 says why.
 */
function withServices(record: CarrierDeliveryRecord, input: PlaceOrderInput, count: number): CarrierDeliveryRecord {
  const field = input.delivery.try_on ? 'delivery.try_on' : 'delivery.partial';
  if (input.payment !== ON_DELIVERY) throw new HttpError(422, 'error.validation', { [field]: ['checkout.services.onDeliveryOnly'] });
  const offered = servicesFor(record.carrier, { mode: record.mode, fittingRoom: record.point?.fittingRoom, units: count });
  if (input.delivery.try_on && !offered.tryOn) throw new HttpError(422, 'error.validation', { 'delivery.try_on': ['checkout.services.tryOnNo'] });
  if (input.delivery.partial && !offered.partial) throw new HttpError(422, 'error.validation', { 'delivery.partial': ['checkout.services.partialNo'] });
  return { ...record, services: { tryOn: input.delivery.try_on, partial: input.delivery.partial } };
}

/** The checkout page's summary: what placing this order would cost now, written nowhere. */
export async function summarize(input: PricingInput, owner: Owner): Promise<Summary> {
  const items = await orderItems(owner, input);
  if (items.length === 0) throw conflict('checkout.empty');
  const quote = input.delivery.quote ? await quoted(input.delivery.quote, await parcelOfItems(items)) : null;
  const option = quote ? quotedOption(quote) : await deliveryOption(input.delivery.method);
  const p = await price(await getDb(), owner, items, input, option, false, customerKeys({ customerId: owner.customerId }));
  // A guest's e-mail is not known yet: their refusals are counted at placement.
  const facts = quote ? await pointFacts(quote, input.delivery.point) : undefined;
  const cod = await onDeliveryAnswer({
    carrier: quote ? { mode: quote.mode, pointTakes: facts?.cod } : null,
    amount: p.total,
    who: { customerId: owner.customerId, email: undefined },
    strict: false,
  });
  const paidAtDoor = input.payment === ON_DELIVERY && cod.available;
  const offered = quote && paidAtDoor ? servicesFor(quote.carrier, { mode: quote.mode, fittingRoom: facts?.fittingRoom, units: units(items) }) : undefined;
  const priced = paidAtDoor ? withFee(p, cod.fee) : p;
  return { ...priced, on_delivery: cod, services: offered ? { try_on: offered.tryOn, partial: offered.partial } : NO_SERVICES };
}

/** The order keeps each promotion applied, with its kopecks line by line (issue 56). */
async function keepPromotions(tx: Pick<Db, 'execute'>, orderId: number, p: Pricing, lineIds: readonly number[]): Promise<void> {
  const promo = p.promo_code?.answer;
  for (const applied of p.promotions) {
    const lines = p.lines.flatMap((l, i) =>
      l.promotions.filter((d) => d.promotionId === applied.promotionId).map((d) => ({ line_id: lineIds[i], amount: d.amount })),
    );
    const code = promo?.ok && promo.promotion.id === applied.promotionId ? promo.code : null;
    await tx.execute(
      sql`INSERT INTO order_promotions (order_id, promotion_id, name, class, code, amount, lines)
          VALUES (${orderId}, ${applied.promotionId}, ${applied.name}, ${applied.cls}, ${code}, ${applied.amount}, ${JSON.stringify(lines)}::jsonb)`,
    );
  }
}

async function existing(key: string, owner: Owner): Promise<PlacedOrder | null> {
  const db = await getDb();
  const [row] = await selectRows<{ code: string; total: number; status: string; payment_status: string; customer_id: number | null }>(
    db,
    sql`SELECT code, total, status, payment_status, customer_id FROM orders WHERE idempotency_key = ${key}`,
  );
  if (!row) return null;
  if (row.customer_id !== owner.customerId) throw conflict('checkout.keyInUse');
  return { code: row.code, hash: await orderHash(row.code), total: Number(row.total), status: row.status, payment_status: row.payment_status, created: false };
}

/**
 * Places an order. Everything priced here comes from the database; the client's part is what to buy,
 * where to deliver, how to pay and how much of its bonus and balance to spend.
 */
export async function placeOrder(input: PlaceOrderInput, owner: Owner, idempotencyKey: string): Promise<PlacedOrder> {
  const repeated = await existing(idempotencyKey, owner);
  if (repeated) return repeated;
  await releaseDue();
  const items = await orderItems(owner, input);
  if (items.length === 0) throw conflict('checkout.empty');
  // A carrier's quote (issue 38) decides the way and the price; otherwise the editors' method does.
  const chosen = input.delivery.quote ? await carrierChoice(input.delivery.quote, input.delivery.point, await parcelOfItems(items), input.delivery.city) : null;
  const carrier = chosen && (input.delivery.try_on || input.delivery.partial) ? withServices(chosen, input, units(items)) : chosen;
  const option = carrier ? quotedOption(carrier) : await deliveryOption(input.delivery.method);
  if (option.address === 'postal' && !input.delivery.postcode) throw new HttpError(422, 'error.validation', { 'delivery.postcode': ['validation.required'] });
  const db = await getDb();
  const code = newOrderCode();
  const seconds = Math.round(env().PAYMENT_TIMEOUT_MINUTES * 60);

  const onDelivery = input.payment === ON_DELIVERY;
  // Who the buyer is for a code's per-customer limit: counted and claimed under the same keys.
  const keys = customerKeys({ customerId: owner.customerId, email: input.contact.email, phone: input.contact.phone });
  let placed: { total: number; paymentStatus: 'paid' | 'unpaid' | typeof ON_DELIVERY; soldOut: { productId: number; label: string }[] };
  try {
    placed = await db.transaction(async (tx) => {
      let p = await price(tx, owner, items, input, option, true, keys);
      // A code the shopper sent and that does not apply now is refused with its reason, not dropped: the
      // order would cost more than the summary said (docs/promotions.md "Codes").
      const promo = p.promo_code?.answer;
      if (promo && !promo.ok) throw new HttpError(409, promo.reason, undefined, undefined, promo.params);
      // A promotion ended, paused or edited between the summary and the press: refused, not charged more.
      if (input.shown_promo_discount !== undefined && p.promo_discount + p.delivery_discount < input.shown_promo_discount)
        throw new HttpError(409, 'promo.changed');
      // A certificate typed and not applying now is refused with its reason, as a code is (the total would differ).
      const refusedGift = p.certificates.find((c) => c.reason !== null);
      if (refusedGift?.reason) throw new HttpError(409, refusedGift.reason);
      if (onDelivery) {
        // Checked with the stock and the customer locked: a refusal counted now is the last one.
        const cod = await onDeliveryAnswer(
          {
            carrier: carrier ? { mode: carrier.mode, pointTakes: carrier.mode === 'courier' ? takesPaymentAtDoor(carrier.carrier) : carrier.point?.cod } : null,
            amount: p.total,
            who: { customerId: owner.customerId, email: input.contact.email },
            strict: true,
          },
          tx,
        );
        if (!cod.available) throw codRefused(cod.reason ?? 'off');
        p = withFee(p, cod.fee);
      }
      const soldOut: { productId: number; label: string }[] = [];
      for (const { variant, quantity } of p.lines) {
        const [left] = await selectRows<{ stock: number }>(
          tx,
          sql`UPDATE product_variants SET stock = stock - ${quantity} WHERE id = ${variant.id} RETURNING stock`,
        );
        if (left && left.stock <= 0) soldOut.push({ productId: variant.product_id, label: variant.label });
      }
      const address = { city: input.delivery.city, address: input.delivery.address, postcode: input.delivery.postcode, comment: input.delivery.comment };
      const [order] = await selectRows<{ id: number }>(
        tx,
        sql`INSERT INTO orders (code, customer_id, status, contact_name, contact_phone, contact_email, delivery_address, items_total,
                                discount_total, promo_discount, delivery_price, bonus_used, balance_used, certificate_used, cod_fee, total, payment_status, delivery_method,
                                payment_method, reserved_until, idempotency_key, delivery_carrier)
            VALUES (${code}, ${owner.customerId}, 'pending', ${input.contact.name}, ${input.contact.phone}, ${input.contact.email.toLowerCase()},
                    ${JSON.stringify(address)}::jsonb, ${p.items_total}, ${p.discount_total}, ${p.promo_discount}, ${p.delivery_price}, ${p.bonus_used}, ${p.balance_used},
                    ${p.certificate_used}, ${p.cod_fee}, ${p.total}, 'unpaid', ${option.id}, ${input.payment},
                    now() + make_interval(secs => ${seconds}), ${idempotencyKey}, ${carrier ? JSON.stringify(carrier) : null}::jsonb)
            RETURNING id`,
      );
      if (!order) throw new Error('order row missing');
      const lineIds: number[] = [];
      for (const { variant: v, quantity, promo_discount } of p.lines) {
        const [line] = await selectRows<{ id: number }>(
          tx,
          sql`INSERT INTO order_lines (order_id, product_id, variant_id, name, brand, variant_label, image, unit_price, unit_price_old, quantity, promo_discount)
              VALUES (${order.id}, ${v.product_id}, ${v.id}, ${v.name}, ${v.brand}, ${v.label}, ${v.image ?? ''}, ${v.price}, ${v.price_old}, ${quantity}, ${promo_discount})
              RETURNING id`,
        );
        lineIds.push(Number(line?.id));
      }
      await keepPromotions(tx, order.id, p, lineIds);
      if (promo?.ok) {
        const refused = await claimCode(tx, promo, order.id, keys);
        if (refused) throw new HttpError(409, refused);
      }
      // Paid at the door, the order never waits for a payment: its history begins at processing (acceptOnDelivery).
      if (!onDelivery) await tx.execute(sql`INSERT INTO order_status_history (order_id, status) VALUES (${order.id}, 'pending')`);
      if (p.bonus_used > 0)
        await tx.execute(
          sql`INSERT INTO bonus_ledger (customer_id, amount, reason, order_id) VALUES (${owner.customerId}, ${-p.bonus_used}, 'order_payment', ${order.id})`,
        );
      if (p.balance_used > 0)
        await tx.execute(
          sql`INSERT INTO balance_ledger (customer_id, amount, reason, order_id) VALUES (${owner.customerId}, ${-p.balance_used}, 'order_payment', ${order.id})`,
        );
      await spendCertificates(tx, order.id, p.certificates);
      // Paid in full with points, balance and certificates, nothing is left to pay: the order is paid now.
      if (p.total === 0) {
        const locked = await lockOrder(tx, order.id);
        if (locked) await markPaid(tx, locked);
        return { total: 0, paymentStatus: 'paid' as const, soldOut };
      }
      // To be paid at the door: the order goes to work now, its stock held as a paid order's is.
      if (onDelivery) {
        const locked = await lockOrder(tx, order.id);
        if (locked) await acceptOnDelivery(tx, locked);
        return { total: p.total, paymentStatus: ON_DELIVERY, soldOut };
      }
      return { total: p.total, paymentStatus: 'unpaid' as const, soldOut };
    });
  } catch (error) {
    // Two requests with one key at once: the unique index lets one order through; the other answers it.
    if (isUniqueViolation(error)) {
      const first = await existing(idempotencyKey, owner);
      if (first) return first;
    }
    throw error;
  }
  // The last unit of a size: this process's listings and search show it sold out at once (issue 40).
  if (placed.soldOut.length > 0) void sizesSoldOut(placed.soldOut).catch(() => undefined);
  metrics().orders.inc({ event: 'placed' });
  if (placed.paymentStatus === 'paid') metrics().orders.inc({ event: 'paid' });
  if (placed.paymentStatus === ON_DELIVERY) void sendOrderMail(code, 'placed');
  return {
    code,
    hash: await orderHash(code),
    total: placed.total,
    status: placed.paymentStatus === 'unpaid' ? 'pending' : 'processing',
    payment_status: placed.paymentStatus,
    created: true,
  };
}

let lastRelease = 0;
/**
 * Orders compete only with orders for stock, so unpaid orders past their time are released when the
 * next order is placed — at most once a minute (or once per timeout, if shorter) per process.
 */
async function releaseDue(): Promise<void> {
  const every = Math.min(60_000, env().PAYMENT_TIMEOUT_MINUTES * 60_000);
  if (Date.now() - lastRelease < every) return;
  lastRelease = Date.now();
  await releaseExpiredOrders();
}

/**
 * Cancels unpaid orders whose time is up and returns their stock, each in its own transaction with the
 * order locked, so a payment arriving at the same moment either wins or finds the order cancelled.
 */
export async function releaseExpiredOrders(): Promise<number> {
  const db = await getDb();
  const due = await selectRows<{ id: number }>(
    db,
    sql`SELECT id FROM orders WHERE status = 'pending' AND payment_status = 'unpaid' AND reserved_until < now() ORDER BY id LIMIT 100`,
  );
  let released = 0;
  for (const { id } of due) {
    const done = await db.transaction(async (tx) => {
      const order = await lockOrder(tx, id);
      if (!order || order.status !== 'pending' || order.payment_status !== 'unpaid' || !order.overdue) return false;
      await cancelOrder(tx, order, 'payment_timeout');
      return true;
    });
    if (done) released++;
  }
  return released;
}
