// What people do to an order after it is placed (issue 9): the customer cancels it (the card money goes
// back through the provider first) or asks to return it; the operator moves it along the flow, sets the
// tracking id and records the parcel's way. Delivery credits the customer's bonus points and the
// referring partner's commission.
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { HttpError, notFound } from '~/lib/http/errors.ts';
import { t } from '~/lib/i18n/index.ts';
import { mailLayout, sendMail } from '~/lib/mail.server.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { unitsWithoutCode } from '~/features/marking/marking.server.ts';
import { settleOrder } from '~/features/payments/payments.receipts.server.ts';
import { ProviderUnavailable, refundOrderPayment } from '~/features/payments/payments.server.ts';
import {
  cancelOrder,
  giveBackHeld,
  lockOrder,
  orderByCode,
  type OrderView,
  recordNote,
  recordStatus,
  RETURN_NOTE,
  returnAllowed,
  sendOrderMail,
} from '../orders/orders.server.ts';
import { BONUS_PERCENT, BONUS_VALID_DAYS, canCancel, canMove, HANDED_OVER, mayShip, type OrderStatus } from '../orders/orders.ts';

/** Returns the money of a paid order, then cancels it with everything it held; 502 when the provider refuses. */
async function cancelWithRefund(order: OrderView, note: string): Promise<void> {
  let refunded = false;
  if (order.payment_status === 'paid') {
    try {
      refunded = await refundOrderPayment(order);
    } catch (error) {
      if (error instanceof ProviderUnavailable) throw new HttpError(502, 'payment.unavailable');
      throw error;
    }
  }
  const db = await getDb();
  await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (!locked || locked.status === 'cancelled') return;
    await cancelOrder(tx, locked, note);
    if (refunded) await tx.execute(sql`UPDATE orders SET payment_status = 'refunded', updated_at = now() WHERE id = ${order.id}`);
  });
  void sendOrderMail(order.code, 'status');
}

async function ownOrder(customerId: number, code: string): Promise<OrderView> {
  const order = await orderByCode(code);
  if (!order || order.customer_id !== customerId) throw notFound();
  return order;
}

/** The customer cancels: allowed while pending or processing (orders.ts canCancel). */
export async function cancelByCustomer(customerId: number, code: string): Promise<OrderView> {
  const order = await ownOrder(customerId, code);
  if (!canCancel(order.status)) throw new HttpError(409, 'orders.cannotCancel');
  await cancelWithRefund(order, 'customer');
  return (await orderByCode(code)) ?? order;
}

/** The customer asks to return a delivered order within the window; the managers are told by e-mail. */
export async function requestReturn(customerId: number, code: string): Promise<OrderView> {
  const order = await ownOrder(customerId, code);
  if (!returnAllowed(order)) throw new HttpError(409, 'orders.cannotReturn');
  const db = await getDb();
  await recordNote(db, order.id, order.status, RETURN_NOTE);
  const l = (key: Parameters<typeof t>[1], params?: Record<string, string | number>) => t('ru', key, params);
  const managers = mailLayout(l('mail.order.returnTitle', { code }), [l('mail.order.returnManagers', { code })], {
    label: l('mail.order.action'),
    url: new URL(`/dashboard/order/${code}`, env().SITE_URL).href,
  });
  void sendMail({ to: env().MANAGERS_EMAIL, subject: l('mail.order.returnTitle', { code }), ...managers }).catch(() => undefined);
  const customer = mailLayout(l('mail.order.returnTitle', { code }), [l('mail.order.returnCustomer')]);
  void sendMail({ to: order.contact_email, subject: l('mail.order.returnTitle', { code }), ...customer }).catch(() => undefined);
  return (await orderByCode(code)) ?? order;
}

export interface OperatorChange {
  status?: OrderStatus | undefined;
  tracking_id?: string | undefined;
  event?: { status: string; place: string } | undefined;
  note?: string | undefined;
}

/**
 * The operator's change (npm run order): a status forward along the flow (or cancelled before shipping,
 * the card money refunded), the tracking id, a tracking event. Delivery credits BONUS_PERCENT of the goods
 * paid for as points for a year, and the referring partner's commission. Each status change is e-mailed.
 */
export async function operatorUpdate(code: string, change: OperatorChange, actor: Actor): Promise<OrderView> {
  const order = await orderByCode(code);
  if (!order) throw notFound();
  // The order as it is afterwards: the one the change answers when it went through, read back when it
  // failed (perhaps halfway: a refund refused after the move), never assumed.
  let after: OrderView | undefined;
  let failed = false;
  try {
    after = await applyOperatorChange(order, change);
    return after;
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    const before = auditedFields(order);
    const now = auditedFields(after ?? (await orderByCode(code)) ?? order);
    if (JSON.stringify(before) !== JSON.stringify(now) || (!failed && (change.event || change.note)))
      await audit(actor, 'order.update', 'order', code, before, {
        ...now,
        ...(change.event ? { event: change.event } : {}),
        ...(change.note ? { note: change.note } : {}),
      });
  }
}

/** What an order's audit line compares. */
const auditedFields = (order: OrderView) => ({ status: order.status, payment_status: order.payment_status, tracking_id: order.tracking_id });

/** A refund made by hand (the provider could not): a `refund_due` payment marked refunded; 409 otherwise. */
export async function markRefunded(code: string, actor: Actor): Promise<OrderView> {
  const order = await orderByCode(code);
  if (!order) throw notFound();
  const db = await getDb();
  const changed = await selectRows(
    db,
    sql`UPDATE orders SET payment_status = 'refunded', updated_at = now() WHERE id = ${order.id} AND payment_status = 'refund_due' RETURNING id`,
  );
  if (changed.length === 0) throw new HttpError(409, 'ops.order.notRefundDue');
  await audit(actor, 'order.refunded', 'order', code, { payment_status: 'refund_due' }, { payment_status: 'refunded' });
  return (await orderByCode(code)) ?? order;
}

/** A manager's note on an order: kept in the audit log, never shown to the customer. */
export async function addOrderNote(code: string, note: string, actor: Actor): Promise<void> {
  const order = await orderByCode(code);
  if (!order) throw notFound();
  await audit(actor, 'order.note', 'order', code, null, { note });
}

async function applyOperatorChange(order: OrderView, change: OperatorChange): Promise<OrderView> {
  const code = order.code;
  // The goods leave the shop (marked ones only with every unit's code).
  if (change.status && HANDED_OVER.includes(change.status) && !(HANDED_OVER as readonly string[]).includes(order.status)) {
    const unmarked = await unitsWithoutCode(code);
    if (unmarked > 0) throw new HttpError(409, 'delivery.ship.unmarked', undefined, undefined, { count: unmarked });
  }
  if (change.status === 'cancelled') {
    if (!canMove(order.status, 'cancelled')) throw new HttpError(409, 'orders.cannotMove', undefined, undefined, { from: order.status, to: 'cancelled' });
    await cancelWithRefund(order, change.note ?? 'operator');
  }
  const db = await getDb();
  let moved = false;
  await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    if (!locked) throw notFound();
    const to = change.status;
    if (to && to !== 'cancelled') {
      // Past pending only once paid: the payment, not the operator, moves an order out of pending.
      if (!canMove(locked.status, to) || !mayShip(locked.payment_status))
        throw new HttpError(409, 'orders.cannotMove', undefined, undefined, { from: locked.status, to });
      await recordStatus(tx, locked.id, to, change.note ?? '');
      moved = true;
      if (to === 'delivered') await delivered(tx, locked.id);
    }
    if (change.tracking_id !== undefined) {
      await tx.execute(sql`UPDATE orders SET tracking_id = ${change.tracking_id}, updated_at = now() WHERE id = ${locked.id}`);
      await tx.execute(sql`UPDATE order_lines SET tracking_id = ${change.tracking_id} WHERE order_id = ${locked.id}`);
    }
    if (change.event) {
      await tx.execute(sql`INSERT INTO tracking_events (order_id, status, place) VALUES (${locked.id}, ${change.event.status}, ${change.event.place})`);
    }
  });
  if (moved) {
    // A prepaid order with marked goods gets its settlement receipt when they are handed over.
    await settleOrder(code);
    void sendOrderMail(code, 'status');
  }
  return (await orderByCode(code)) ?? order;
}

/** The rules at delivery, in the delivering transaction: the customer's bonus points and the referring partner's commission. */
export async function delivered(tx: Parameters<typeof recordStatus>[0], orderId: number): Promise<void> {
  await tx.execute(sql`UPDATE orders SET delivered_at = now() WHERE id = ${orderId}`);
  // The goods kept (a partial buy-out at the door keeps some units: issue 55) at what they cost after
  // promotions (issue 56), less the points' share of them.
  const [row] = await selectRows<{ customer_id: number | null; goods: number; partner_id: number | null; commission_bp: number | null }>(
    tx,
    sql`WITH kept AS (SELECT coalesce(sum((unit_price * quantity - promo_discount)::numeric * coalesce(kept, quantity) / quantity), 0) AS value
                        FROM order_lines WHERE order_id = ${orderId})
        SELECT o.customer_id,
               round(kept.value) - CASE WHEN o.items_total - o.promo_discount > 0
                                        THEN round(o.bonus_used::numeric * kept.value / (o.items_total - o.promo_discount)) ELSE 0 END AS goods,
               p.id AS partner_id, p.commission_bp
          FROM orders o CROSS JOIN kept LEFT JOIN customers c ON c.id = o.customer_id LEFT JOIN partners p ON p.id = c.referred_by_partner_id
         WHERE o.id = ${orderId}`,
  );
  if (!row || row.customer_id === null) return;
  const points = Math.floor((Math.max(0, Number(row.goods)) * BONUS_PERCENT) / 100);
  if (points > 0)
    await tx.execute(
      sql`INSERT INTO bonus_ledger (customer_id, amount, reason, order_id, available_until)
          VALUES (${row.customer_id}, ${points}, 'order_bonus', ${orderId}, now() + make_interval(days => ${BONUS_VALID_DAYS}))`,
    );
  if (row.partner_id !== null) {
    const commission = Math.floor((Math.max(0, Number(row.goods)) * Number(row.commission_bp ?? 0)) / 10_000);
    if (commission > 0)
      await tx.execute(
        sql`INSERT INTO partner_commissions (partner_id, order_id, amount, kind) VALUES (${row.partner_id}, ${orderId}, ${commission}, 'earned')`,
      );
  }
}

/** What the carrier reported taken at the door (issue 55), as the order keeps it. */
export interface DoorResult {
  /** Units kept, by order line id; a line not named was kept whole. */
  kept: ReadonlyMap<number, number>;
  /** Marked units' codes the buyer refused: free to be packed again. */
  refusedCodes: readonly string[];
  /** Kopecks taken; undefined when the carrier did not say. */
  collected: number | undefined;
  payments: readonly { type: 'cash' | 'card'; sum: number }[];
}

/**
 * An order paid at the door is handed over (its status already moved to delivered by the caller, in the
 * same transaction): the refused units back in stock with their codes free, what was kept on each line, the
 * money taken, and paid. Points and the partner's commission follow (delivered) on what was kept.
 */
export async function handedOverAtDoor(tx: Parameters<typeof recordStatus>[0], orderId: number, result: DoorResult): Promise<void> {
  for (const [lineId, kept] of result.kept) {
    await tx.execute(
      sql`UPDATE product_variants v SET stock = v.stock + (l.quantity - ${kept}) FROM order_lines l
           WHERE l.id = ${lineId} AND l.order_id = ${orderId} AND l.variant_id = v.id AND l.quantity > ${kept}`,
    );
    await tx.execute(sql`UPDATE order_lines SET kept = ${kept} WHERE id = ${lineId} AND order_id = ${orderId}`);
  }
  if (result.refusedCodes.length > 0)
    await tx.execute(
      sql`DELETE FROM order_marks WHERE order_id = ${orderId} AND status = 'sold' AND code = ANY(${sql.param([...result.refusedCodes])}::text[])`,
    );
  const record = { collected: result.collected ?? null, payments: result.payments, at: new Date().toISOString() };
  await tx.execute(
    sql`UPDATE orders SET payment_status = 'paid', delivery_result = ${JSON.stringify(record)}::jsonb, updated_at = now() WHERE id = ${orderId}`,
  );
}

/**
 * An order paid at the door came back refused whole (issue 55): nothing was charged, its stock is back,
 * its marking codes free, and the points and balance spent on it are the customer's again.
 */
export async function refusedAtDoor(tx: Parameters<typeof recordStatus>[0], orderId: number): Promise<void> {
  await giveBackHeld(tx, orderId);
  await tx.execute(sql`UPDATE order_lines SET kept = 0 WHERE order_id = ${orderId}`);
  const record = { collected: 0, payments: [], at: new Date().toISOString() };
  await tx.execute(
    sql`UPDATE orders SET payment_status = 'refused', delivery_result = ${JSON.stringify(record)}::jsonb, updated_at = now() WHERE id = ${orderId}`,
  );
}
