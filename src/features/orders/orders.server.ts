// What happens to a placed order (issue 9): paid, cancelled with everything it held given back, read for
// its result page, and told to the shopper by e-mail. Checkout places orders, payments settle them, the
// operator command moves them along — each through these functions, inside the caller's transaction.
import { releaseUses } from '~/features/promotions/promotions.server.ts';
import {
  activateCertificates,
  certificateUses,
  giveBackCertificates,
  mailCertificate,
  maskedGiftCode,
  purchasedCertificate,
} from '~/features/promotions/promotions.gifts.server.ts';
import { createHmac, randomInt } from 'node:crypto';
import { shopSecret } from '~/lib/secrets.server.ts';
import { sameSecret } from '~/lib/same-secret.ts';
import { sql } from 'drizzle-orm';
import { selectRows, type Db } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { metrics } from '~/lib/metrics.ts';
import { CURRENCY_SYMBOL, formatDayRange, formatPrice } from '~/lib/format.ts';
import { t, type Locale, type MessageKey } from '~/lib/i18n/index.ts';
import { loggableError, logger } from '~/lib/log.ts';
import { mailLayout, sendMail } from '~/lib/mail.server.ts';
import { canCancel, canReturn, ON_DELIVERY, statusLabelKey } from './orders.ts';
import { carrierNameKey, type CarrierDeliveryRecord } from './orders.carrier.ts';
import type { OrderDetail, orderSummarySchema } from './orders.schema.ts';
import type { z } from '~/lib/zod.ts';

export type OrderSummary = z.output<typeof orderSummarySchema>;

type Tx = Pick<Db, 'execute'>;

/** A key of the shop's own for one purpose (a delivery quote's seal): src/lib/secrets.server.ts. */
export { purposeKey } from '~/lib/secrets.server.ts';

/** BS-12345678: short enough to read over the phone (an order of goods or a gift certificate's purchase). */
export function newOrderCode(): string {
  return `BS-${String(randomInt(10_000_000, 100_000_000))}`;
}

/** The hash in /order-success/{code}/{hash}: who holds it may see that order's result page. */
export async function orderHash(code: string): Promise<string> {
  return createHmac('sha256', await shopSecret())
    .update(code)
    .digest('base64url')
    .slice(0, 32);
}

export async function verifyOrderHash(code: string, hash: string): Promise<boolean> {
  return sameSecret(await orderHash(code), hash);
}

/** The address of an order's result page; the payment provider sends the shopper back to it. */
export async function resultPath(code: string, outcome: 'success' | 'failed' = 'success'): Promise<string> {
  return `/order-${outcome}/${code}/${await orderHash(code)}`;
}

/** The address of an order's review page (issue 57) for a mail: the hash lets a guest in. */
export async function reviewPath(code: string, line?: number): Promise<string> {
  return `/review/${code}/${await orderHash(code)}${line ? `?line=${line}` : ''}`;
}

export interface OrderRow extends Record<string, unknown> {
  id: number;
  code: string;
  customer_id: number | null;
  status: string;
  payment_status: string;
  /** goods, or certificate: a gift certificate's purchase (issue 56). */
  kind: 'goods' | 'certificate';
  /** Unpaid past its reservation (PAYMENT_TIMEOUT_MINUTES). */
  overdue: boolean;
}

/** Locks the order for a change of state; null when there is no such order. */
export async function lockOrder(tx: Tx, id: number): Promise<OrderRow | null> {
  const [row] = await selectRows<OrderRow>(
    tx,
    sql`SELECT id, code, customer_id, status, payment_status, kind, coalesce(reserved_until < now(), false) AS overdue FROM orders WHERE id = ${id} FOR UPDATE`,
  );
  return row ?? null;
}

/** Writes an event into the order's history without changing its status (a return request, a late payment). */
export async function recordNote(tx: Tx, orderId: number, status: string, note: string): Promise<void> {
  await tx.execute(sql`INSERT INTO order_status_history (order_id, status, note) VALUES (${orderId}, ${status}, ${note})`);
}

export async function recordStatus(tx: Tx, orderId: number, status: string, note = ''): Promise<void> {
  await tx.execute(sql`UPDATE orders SET status = ${status}, updated_at = now() WHERE id = ${orderId}`);
  await tx.execute(sql`UPDATE order_lines SET delivery_status = ${status} WHERE order_id = ${orderId}`);
  await recordNote(tx, orderId, status, note);
}

/**
 * Cancels a locked order and gives back what it held: the stock of its sizes, and the points and
 * balance spent on it (as ledger entries, so the history shows both). Money paid by card is the
 * payment's to refund, not this function's.
 */
export async function cancelOrder(tx: Tx, order: OrderRow, note: string): Promise<void> {
  // Counted as the cancellation is made: a transaction that then fails (rare) is counted all the same.
  metrics().orders.inc({ event: note === 'payment_declined' ? 'failed' : 'cancelled' });
  await recordStatus(tx, order.id, 'cancelled', note);
  await giveBackHeld(tx, order.id);
}

/**
 * What an order that ends unsold held goes back: its sizes' stock, its marking codes (never sold: the same
 * pair back on the shelf is packed again, issue 54), the uses of promotions' codes, and the points and balance
 * spent on it, as ledger entries. A cancelled order and one refused whole at the door (issue 55) end so.
 */
export async function giveBackHeld(tx: Tx, orderId: number): Promise<void> {
  await tx.execute(sql`UPDATE product_variants v SET stock = v.stock + l.quantity FROM order_lines l WHERE l.order_id = ${orderId} AND l.variant_id = v.id`);
  await tx.execute(sql`DELETE FROM order_marks WHERE order_id = ${orderId} AND status = 'sold'`);
  // A promotion's code it used may be used again, and its gift certificates get back what it took (issue 56):
  // once, however often this runs.
  await releaseUses(tx, orderId);
  await giveBackCertificates(tx, orderId);
  await tx.execute(
    sql`INSERT INTO bonus_ledger (customer_id, amount, reason, order_id) SELECT customer_id, -amount, 'refund', order_id FROM bonus_ledger WHERE order_id = ${orderId} AND amount < 0`,
  );
  await tx.execute(
    sql`INSERT INTO balance_ledger (customer_id, amount, reason, order_id) SELECT customer_id, -amount, 'refund', order_id FROM balance_ledger WHERE order_id = ${orderId} AND amount < 0`,
  );
}

/**
 * A locked, unpaid order is paid: it goes to processing, and a customer's ordered lines leave the cart
 * (they stay until then, so a declined card leaves the cart as it was).
 */
export async function markPaid(tx: Tx, order: OrderRow): Promise<void> {
  await tx.execute(sql`UPDATE orders SET payment_status = 'paid', reserved_until = NULL, updated_at = now() WHERE id = ${order.id}`);
  // A gift certificate's purchase has nothing to pack: paid, its certificate is active and is delivered by mail.
  if (order.kind === 'certificate') {
    await activateCertificates(tx, order.id);
    await tx.execute(sql`UPDATE orders SET delivered_at = now() WHERE id = ${order.id}`);
    await recordStatus(tx, order.id, 'delivered', 'certificate_sent');
    return;
  }
  await goesToWork(tx, order, 'paid');
}

/**
 * An order to be paid at the door (issue 55): it goes to work at once, its stock held as a paid order's is
 * (no reservation runs out), and is paid when the carrier reports the money taken.
 */
export async function acceptOnDelivery(tx: Tx, order: OrderRow): Promise<void> {
  await tx.execute(sql`UPDATE orders SET payment_status = ${ON_DELIVERY}, reserved_until = NULL, updated_at = now() WHERE id = ${order.id}`);
  await goesToWork(tx, order, ON_DELIVERY);
}

/** Processing from now on; the customer's cart no longer holds what was ordered. */
async function goesToWork(tx: Tx, order: OrderRow, note: string): Promise<void> {
  await recordStatus(tx, order.id, 'processing', note);
  if (order.customer_id !== null) {
    await tx.execute(
      sql`DELETE FROM cart_lines l USING carts c WHERE c.id = l.cart_id AND c.customer_id = ${order.customer_id} AND l.is_selected
            AND l.variant_id IN (SELECT variant_id FROM order_lines WHERE order_id = ${order.id})`,
    );
  }
}

// ---------------------------------------------------------------- reading an order

export interface OrderLineView {
  id: number;
  product_id: number;
  name: string;
  brand: string;
  variant: string;
  variant_code: string;
  image: string;
  unit_price: number;
  unit_price_old: number | null;
  quantity: number;
  /** Kept at the door with a partial buy-out (issue 55); null: all. */
  kept: number | null;
  delivery_status: string;
  tracking_id: string | null;
  /** Kopecks promotions took off the line (issue 56): the receipts take them off first. */
  discount: number;
}

export interface OrderView {
  id: number;
  code: string;
  customer_id: number | null;
  status: string;
  payment_status: string;
  contact_name: string;
  contact_email: string;
  contact_phone: string;
  delivery_method: string;
  payment_method: string;
  delivery_address: { city: string; address: string; postcode: string; comment: string };
  items_total: number;
  discount_total: number;
  /** Kopecks promotions took off the goods (issue 56). */
  promo_discount: number;
  delivery_price: number;
  bonus_used: number;
  balance_used: number;
  /** The carrier's fee for taking the money at the door, passed on (issue 55); 0 otherwise. */
  cod_fee: number;
  /** Paid at the door: what the carrier took, and how (issue 55); null before. */
  delivery_result: { collected: number | null; payments: { type: 'cash' | 'card'; sum: number }[]; at: string } | null;
  total: number;
  tracking_id: string | null;
  /** Delivery by a carrier as quoted at checkout (issue 38); null for the fixed methods. */
  delivery_carrier: CarrierDeliveryRecord | null;
  /** The order registered with its carrier; null until a manager (or the job) sends it. */
  shipment: { carrier: string; state: string; number: string | null; return_requested: boolean; refused: boolean } | null;
  delivered_at: string | null;
  created_at: string;
  lines: OrderLineView[];
  /** Each promotion the order got (issue 56, order_promotions): its name as it was, class, code and kopecks. */
  promotions: OrderPromotion[];
  /** goods, or certificate: a gift certificate's purchase (issue 56), which has no lines. */
  kind: 'goods' | 'certificate';
  /** Kopecks gift certificates paid, and each one's use (its code masked, what of it was given back). */
  certificate_used: number;
  certificates: { code: string; amount: number; returned: number }[];
  /** A purchase's certificate: its nominal, to whom it went, and whether it is active yet. */
  certificate: { nominal: number; recipient_email: string; status: string } | null;
  history: { status: string; note: string; created_at: string }[];
  tracking: { status: string; place: string; created_at: string }[];
}

export interface OrderPromotion extends Record<string, unknown> {
  name: string;
  class: 'item' | 'order' | 'delivery';
  code: string | null;
  amount: number;
}

/** One order with its lines and history, by code; null when unknown. Callers decide who may see it. */
export async function orderByCode(code: string): Promise<OrderView | null> {
  const db = await getDb();
  const [order] = await selectRows<
    Omit<OrderView, 'lines' | 'history' | 'tracking' | 'created_at' | 'delivered_at' | 'shipment' | 'certificates' | 'certificate'> & {
      created_at: Date | string;
      delivered_at: Date | string | null;
      shipment_carrier: string | null;
      shipment_state: string | null;
      shipment_number: string | null;
      shipment_return: boolean | null;
      shipment_refused: boolean | null;
    }
  >(
    db,
    sql`SELECT o.id, o.code, o.customer_id, o.status, o.payment_status, o.contact_name, o.contact_email, o.contact_phone, o.delivery_method,
               o.payment_method, o.delivery_address, o.items_total, o.discount_total, o.promo_discount, o.delivery_price, o.bonus_used, o.balance_used, o.cod_fee, o.total, o.delivery_result,
               o.kind, o.certificate_used, o.tracking_id, o.delivery_carrier, o.delivered_at, o.created_at,
               s.carrier AS shipment_carrier, s.state AS shipment_state, s.number AS shipment_number,
               s.return_requested_at IS NOT NULL AS shipment_return, s.refused_at IS NOT NULL AS shipment_refused
          FROM orders o LEFT JOIN shipments s ON s.order_id = o.id WHERE o.code = ${code}`,
  );
  if (!order) return null;
  const lines = await selectRows<OrderLineView & Record<string, unknown>>(
    db,
    sql`SELECT l.id, l.product_id, l.name, l.brand, l.variant_label AS variant, coalesce(v.code, '') AS variant_code, l.image, l.unit_price,
               l.unit_price_old, l.quantity, l.kept, l.delivery_status, l.tracking_id, l.promo_discount AS discount
          FROM order_lines l LEFT JOIN product_variants v ON v.id = l.variant_id WHERE l.order_id = ${order.id} ORDER BY l.id`,
  );
  const history = await selectRows<{ status: string; note: string; created_at: Date | string }>(
    db,
    sql`SELECT status, note, created_at FROM order_status_history WHERE order_id = ${order.id} AND order_line_id IS NULL ORDER BY created_at, id`,
  );
  const promotions = await selectRows<OrderPromotion>(db, sql`SELECT name, class, code, amount FROM order_promotions WHERE order_id = ${order.id} ORDER BY id`);
  const uses = Number(order.certificate_used) > 0 ? await certificateUses(db, order.id) : [];
  const bought = order.kind === 'certificate' ? await purchasedCertificate(db, order.id) : null;
  const tracking = await selectRows<{ status: string; place: string; created_at: Date | string }>(
    db,
    sql`SELECT status, place, created_at FROM tracking_events WHERE order_id = ${order.id} ORDER BY created_at, id`,
  );
  const { shipment_carrier, shipment_state, shipment_number, shipment_return, shipment_refused, ...fields } = order;
  return {
    ...fields,
    shipment:
      shipment_carrier && shipment_state
        ? {
            carrier: shipment_carrier,
            state: shipment_state,
            number: shipment_number,
            return_requested: Boolean(shipment_return),
            refused: Boolean(shipment_refused),
          }
        : null,
    created_at: new Date(order.created_at).toISOString(),
    delivered_at: order.delivered_at ? new Date(order.delivered_at).toISOString() : null,
    tracking: tracking.map((e) => ({ ...e, created_at: new Date(e.created_at).toISOString() })),
    lines: lines.map((l) => ({ ...l, unit_price: Number(l.unit_price), quantity: Number(l.quantity), discount: Number(l.discount ?? 0) })),
    history: history.map((h) => ({ ...h, created_at: new Date(h.created_at).toISOString() })),
    promotions: promotions.map((p) => ({ ...p, amount: Number(p.amount) })),
    certificate_used: Number(order.certificate_used),
    certificates: uses.map((u) => ({ code: maskedGiftCode(u.code), amount: u.amount, returned: u.returned })),
    certificate: bought ? { nominal: bought.nominal, recipient_email: bought.recipient_email, status: bought.status } : null,
  };
}

/** The history note of a customer's return request (one per order). */
export const RETURN_NOTE = 'return_requested';

export function returnRequested(order: Pick<OrderView, 'history'>): boolean {
  return order.history.some((h) => h.note === RETURN_NOTE);
}

/** Delivered within the return window and not asked for yet (orders.ts canReturn); a gift certificate's purchase never (issue 56). */
export function returnAllowed(order: Pick<OrderView, 'status' | 'delivered_at' | 'history'> & { kind?: OrderView['kind'] }): boolean {
  return order.kind !== 'certificate' && canReturn(order.status, order.delivered_at ? new Date(order.delivered_at) : null) && !returnRequested(order);
}

/** An order as the order calls answer it (spec §3 order line, docs/api.md "Orders"). */
export function orderDetail(order: OrderView, locale: Locale): OrderDetail {
  const label = (status: string) => t(locale, statusLabelKey(status));
  const history = order.history.map((h) => ({ ...h, label: label(h.status) }));
  const cancel = canCancel(order.status) ? 1 : 0;
  const back = returnAllowed(order) ? 1 : 0;
  return {
    code: order.code,
    status: order.status,
    status_label: label(order.status),
    payment_status: order.payment_status,
    payment_method: order.payment_method,
    created_at: order.created_at,
    contact: { name: order.contact_name, email: order.contact_email, phone: order.contact_phone },
    delivery: {
      method: order.delivery_method,
      ...order.delivery_address,
      carrier: order.delivery_carrier
        ? {
            carrier: order.delivery_carrier.carrier,
            mode: order.delivery_carrier.mode,
            tariff: order.delivery_carrier.tariff,
            price: order.delivery_carrier.price,
            arrival_from: order.delivery_carrier.arrival.from,
            arrival_to: order.delivery_carrier.arrival.to,
            arrival: formatDayRange(order.delivery_carrier.arrival, locale),
            point: order.delivery_carrier.point && {
              code: order.delivery_carrier.point.code,
              name: order.delivery_carrier.point.name,
              address: order.delivery_carrier.point.address,
              hours: order.delivery_carrier.point.hours,
              ...(order.delivery_carrier.point.cod === undefined ? {} : { cod: order.delivery_carrier.point.cod }),
            },
            number: order.shipment?.number ?? null,
            services: { try_on: order.delivery_carrier.services?.tryOn ?? false, partial: order.delivery_carrier.services?.partial ?? false },
            return: order.shipment?.return_requested
              ? t(locale, 'orders.carrierReturn', {
                  carrier: t(locale, carrierNameKey(order.delivery_carrier.carrier)),
                  number: order.shipment.number ?? order.code,
                })
              : null,
          }
        : null,
    },
    items_total: order.items_total,
    discount_total: order.discount_total,
    promo_discount: order.promo_discount,
    promotions: order.promotions.map((p) => ({ name: p.name, class: p.class, code: p.code, amount: p.amount })),
    delivery_price: order.delivery_price,
    bonus_used: order.bonus_used,
    balance_used: order.balance_used,
    cod_fee: order.cod_fee,
    total: order.total,
    delivery_result: order.delivery_result && { collected: order.delivery_result.collected, payments: order.delivery_result.payments },
    can_cancel: cancel,
    can_return: back,
    tracking_id: order.tracking_id,
    history,
    lines: order.lines.map((line) => ({
      id: line.id,
      product_id: line.product_id,
      url: `/p/${line.product_id}`,
      name: line.name,
      brand: line.brand,
      image: line.image,
      variant: line.variant,
      quantity: line.quantity,
      kept: line.kept,
      unit_price: line.unit_price,
      price: line.unit_price * line.quantity,
      currency: CURRENCY_SYMBOL,
      can_cancel: cancel,
      can_return: back,
      delivery_status: line.delivery_status,
      delivery_status_label: label(line.delivery_status),
      delivery_status_history: history,
      tracking_id: line.tracking_id ?? order.tracking_id,
      tracking_history: order.tracking,
    })),
  };
}

/** The customer's orders, newest first. */
export async function customerOrders(customerId: number, locale: Locale, limit = 100): Promise<OrderSummary[]> {
  const db = await getDb();
  const rows = await selectRows<{ code: string; status: string; total: number; created_at: Date | string }>(
    db,
    sql`SELECT code, status, total, created_at FROM orders WHERE customer_id = ${customerId} ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    code: r.code,
    status: r.status,
    status_label: t(locale, statusLabelKey(r.status)),
    total: Number(r.total),
    created_at: new Date(r.created_at).toISOString(),
  }));
}

// ---------------------------------------------------------------- e-mail

/** The order's lines and sums as the mail lists them. */
function orderSummary(order: OrderView): string[] {
  const l = (key: MessageKey, params?: Record<string, string | number>) => t('ru', key, params);
  return [
    ...order.lines.map((line) =>
      l('mail.order.line', {
        brand: line.brand,
        name: line.name,
        size: line.variant,
        quantity: line.quantity,
        price: formatPrice(line.unit_price * line.quantity),
      }),
    ),
    l('mail.order.delivery', { price: order.delivery_price === 0 ? l('checkout.free') : formatPrice(order.delivery_price) }),
    ...(order.bonus_used > 0 ? [l('mail.order.bonus', { amount: formatPrice(order.bonus_used) })] : []),
    ...(order.balance_used > 0 ? [l('mail.order.balance', { amount: formatPrice(order.balance_used) })] : []),
    l('mail.order.total', { total: formatPrice(order.total) }),
  ];
}

/**
 * Tells the shopper about their order, in Russian: 'paid' when the payment has gone through (the order
 * confirmation), 'status' when it moves on. Failures are logged, never thrown: the order stands.
 */
export async function sendOrderMail(code: string, kind: 'paid' | 'placed' | 'status'): Promise<void> {
  try {
    const order = await orderByCode(code);
    if (!order) return;
    // A certificate's purchase is told by the certificate's own mails (to its recipient and its buyer).
    if (order.kind === 'certificate') {
      if (kind === 'paid') await mailCertificate(await getDb(), order.id);
      return;
    }
    const l = (key: MessageKey, params?: Record<string, string | number>) => t('ru', key, params);
    const url = new URL(order.customer_id === null ? await resultPath(order.code) : `/dashboard/order/${order.code}`, env().SITE_URL).href;
    const status = l(statusLabelKey(order.status));
    const title =
      kind === 'paid'
        ? l('mail.order.paidTitle', { code: order.code })
        : kind === 'placed'
          ? l('mail.order.placedTitle', { code: order.code })
          : l('mail.order.statusTitle', { code: order.code, status });
    const intro =
      kind === 'paid'
        ? l('mail.order.paidText')
        : kind === 'placed'
          ? l('mail.order.onDeliveryText', { total: formatPrice(order.total) })
          : l('mail.order.statusText', { status });
    // Delivered: the mail asks for a review, its link the order's review page (a guest's way in, issue 57).
    const review = kind === 'status' && order.status === 'delivered';
    const body = review
      ? mailLayout(title, [intro, ...orderSummary(order), l('reviews.write.mailLine'), `${l('mail.order.action')}: ${url}`], {
          label: l('reviews.write.mailAction'),
          url: new URL(await reviewPath(order.code), env().SITE_URL).href,
        })
      : mailLayout(title, [intro, ...orderSummary(order)], { label: l('mail.order.action'), url });
    await sendMail({ to: order.contact_email, subject: title, ...body });
  } catch (error) {
    logger.error({ err: loggableError(error) }, 'order mail failed');
  }
}
