// The shop's side of payments (DESIGN §6): one payment per order, created with an idempotence key made
// from the order, so a retried placement or a double click never charges twice; its state read from the
// provider and applied forward only — pending → succeeded | canceled, in one transaction with the order
// locked — so a notification or a return that arrives twice, late or out of order changes nothing.
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { t } from '~/lib/i18n/index.ts';
import { logger } from '~/lib/log.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { metrics } from '~/lib/metrics.ts';
import { cancelOrder, lockOrder, markPaid, orderByCode, recordNote, resultPath, sendOrderMail, type OrderView } from '~/features/orders/orders.server.ts';
import { ProviderUnavailable, type PaymentProvider, type ProviderPayment, type ReceiptMode } from './provider.server.ts';
import { paymentReceiptLines, providers, receiptModeFor, settleCertificatesOf } from './payments.receipts.server.ts';
import { receiptTotal } from './receipt.ts';

export { ProviderUnavailable } from './provider.server.ts';

/** The provider new payments go to (PAYMENT_PROVIDER); a payment already made stays with its own. */
function currentProvider(): PaymentProvider {
  return providers[env().PAYMENT_PROVIDER];
}

interface PaymentRow extends Record<string, unknown> {
  id: number;
  order_id: number;
  provider: PaymentProvider['name'];
  provider_ref: string | null;
  amount: number;
  status: string;
  confirmation_url: string | null;
  receipt_mode: ReceiptMode;
}

const COLUMNS = sql`id, order_id, provider, provider_ref, amount, status, confirmation_url, receipt_mode`;

/**
 * The provider's page for an unpaid order, creating the payment on first call. Null when the order has
 * nothing to pay (paid with points and balance, cancelled, unknown).
 */
export async function startPayment(code: string, device: 'mobile' | 'desktop' = 'desktop'): Promise<string | null> {
  const order = await orderByCode(code);
  if (!order || order.status !== 'pending' || order.payment_status !== 'unpaid' || order.total <= 0) return null;
  const db = await getDb();
  const provider = currentProvider();
  // One payment per order: the key the provider sees is the order's.
  const key = `order-${order.code}`;
  // Decided once, with the payment: its receipt and the settlement's must agree whatever changes later.
  const mode = await receiptModeFor(order.code, order.kind);
  await db.execute(
    sql`INSERT INTO payments (order_id, provider, amount, status, idempotence_key, receipt_mode)
        VALUES (${order.id}, ${provider.name}, ${order.total}, 'pending', ${key}, ${mode})
        ON CONFLICT (idempotence_key) DO NOTHING`,
  );
  const [row] = await selectRows<PaymentRow>(db, sql`SELECT ${COLUMNS} FROM payments WHERE idempotence_key = ${key}`);
  if (!row) throw new Error('payment row missing');
  if (row.status !== 'pending') return null;
  if (row.confirmation_url) return row.confirmation_url;
  const made = await providers[row.provider].create({
    idempotenceKey: key,
    amount: Number(row.amount),
    description: t('ru', 'payment.description', { code: order.code }),
    returnPath: await resultPath(order.code),
    method: order.payment_method === 'sbp' || order.payment_method === 'sber_pay' ? order.payment_method : 'card',
    device,
    orderCode: order.code,
    customer: { email: order.contact_email, phone: order.contact_phone },
    receipt: paymentReceiptLines(order),
    receiptMode: row.receipt_mode,
  });
  await db.execute(sql`UPDATE payments SET provider_ref = ${made.ref}, confirmation_url = ${made.confirmationUrl}, updated_at = now() WHERE id = ${row.id}`);
  if (made.status !== 'pending') await settle(row, made);
  return made.confirmationUrl;
}

/** The device a browser names itself as: SberPay confirms in the bank's app on a phone (issue 55). */
export const deviceOf = (userAgent: string | null): 'mobile' | 'desktop' => (/Mobi|Android|iPhone|iPad/i.test(userAgent ?? '') ? 'mobile' : 'desktop');

/**
 * The payment page for a shopper's new order (startPayment, for the request's device); 502 when the provider
 * cannot be reached — the order stands, and the same Idempotency-Key again retries the payment.
 */
export async function paymentPageFor(code: string, userAgent: string | null): Promise<string | null> {
  try {
    return await startPayment(code, deviceOf(userAgent));
  } catch (error) {
    if (error instanceof ProviderUnavailable) throw new HttpError(502, 'payment.unavailable');
    throw error;
  }
}

/**
 * Returns a paid order's card money through its provider (one refund per order: the key is the order's).
 * False when no payment of it succeeded. The provider is asked before anything here changes, so a refusal
 * leaves the order as it was.
 */
export async function refundOrderPayment(order: OrderView): Promise<boolean> {
  const db = await getDb();
  const [row] = await selectRows<PaymentRow>(
    db,
    sql`SELECT ${COLUMNS} FROM payments WHERE order_id = ${order.id} AND status IN ('succeeded', 'refunded') ORDER BY id DESC LIMIT 1`,
  );
  if (!row?.provider_ref) return false;
  if (row.status === 'succeeded') {
    // The refund's receipt mirrors the payment's: a prepayment returned before the goods left is a prepayment's return.
    const receipt = paymentReceiptLines(order);
    const key = `refund-${order.code}`;
    const made = await providers[row.provider].refund({
      ref: row.provider_ref,
      amount: Number(row.amount),
      idempotenceKey: key,
      receipt,
      receiptMode: row.receipt_mode,
      customer: { email: order.contact_email, phone: order.contact_phone },
    });
    await db.execute(sql`UPDATE payments SET status = 'refunded', updated_at = now() WHERE id = ${row.id} AND status = 'succeeded'`);
    await db.execute(
      sql`INSERT INTO receipts (order_id, kind, provider, provider_ref, idempotence_key, amount, lines, status)
          VALUES (${order.id}, 'refund', ${row.provider}, ${made.ref}, ${key}, ${receiptTotal(receipt)}, ${JSON.stringify(receipt)}::jsonb, 'sent')
          ON CONFLICT (idempotence_key) DO NOTHING`,
    );
  }
  return true;
}

/** Applies what the provider says about a payment, forward only. Answers the payment's state after. */
async function settle(payment: Pick<PaymentRow, 'id' | 'order_id'>, state: ProviderPayment): Promise<string> {
  const paymentId = payment.id;
  const db = await getDb();
  const outcome = await db.transaction(async (tx) => {
    // The order first, then its payment: the same order of locks as the payment timeout's.
    const order = await lockOrder(tx, payment.order_id);
    const [locked] = await selectRows<PaymentRow>(tx, sql`SELECT ${COLUMNS} FROM payments WHERE id = ${paymentId} FOR UPDATE`);
    if (!order || !locked || locked.status !== 'pending' || state.status === 'pending') return { status: locked?.status ?? 'unknown', mail: null };
    if (state.status === 'succeeded') {
      if (state.amount !== Number(locked.amount)) {
        // Not the payment the shop asked for: nothing is trusted, someone must look.
        logger.error({ payment: paymentId }, 'payment amount differs from the order');
        return { status: 'pending', mail: null };
      }
      await tx.execute(sql`UPDATE payments SET status = 'succeeded', updated_at = now() WHERE id = ${paymentId}`);
      if (order.status === 'pending' && order.payment_status === 'unpaid') {
        await markPaid(tx, order);
        return { status: 'succeeded', mail: order.code };
      }
      // Paid after the order was cancelled (its time ran out first): the money must go back.
      await tx.execute(sql`UPDATE orders SET payment_status = 'refund_due', updated_at = now() WHERE id = ${order.id}`);
      await recordNote(tx, order.id, order.status, 'paid_after_cancel');
      logger.warn({ payment: paymentId }, 'payment succeeded for a cancelled order: refund due');
      return { status: 'succeeded', mail: null };
    }
    await tx.execute(
      sql`UPDATE payments SET status = 'canceled', payload = ${JSON.stringify({ reason: state.reason })}::jsonb, updated_at = now() WHERE id = ${paymentId}`,
    );
    // A declined payment cancels its order at once: stock, points and balance return, the cart was never emptied.
    if (order.status === 'pending' && order.payment_status === 'unpaid') await cancelOrder(tx, order, 'payment_declined');
    return { status: 'canceled', mail: null };
  });
  if (outcome.mail) {
    metrics().orders.inc({ event: 'paid' });
    void sendOrderMail(outcome.mail, 'paid');
    // The gift certificates' part of it (issue 56): its receipts, now that the order is paid.
    void settleCertificatesOf(outcome.mail);
  }
  return outcome.status;
}

async function sync(row: PaymentRow): Promise<string> {
  if (row.status !== 'pending' || !row.provider_ref) return row.status;
  const state = await providers[row.provider].fetch(row.provider_ref);
  return state ? settle(row, state) : row.status;
}

/**
 * A provider's notification names a payment; the shop reads that payment back from the provider and
 * applies it. False when the shop never made such a payment (a forged or foreign notification).
 */
export async function notified(provider: PaymentProvider['name'], ref: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await selectRows<PaymentRow>(db, sql`SELECT ${COLUMNS} FROM payments WHERE provider = ${provider} AND provider_ref = ${ref}`);
  if (!row) return false;
  await sync(row);
  return true;
}

/** The order's payment state, asked of the provider when still open (the shopper's return). */
export async function refreshOrderPayment(orderId: number): Promise<string | null> {
  const db = await getDb();
  const [row] = await selectRows<PaymentRow>(db, sql`SELECT ${COLUMNS} FROM payments WHERE order_id = ${orderId} ORDER BY id DESC LIMIT 1`);
  return row ? sync(row) : null;
}

/**
 * Housekeeping: payments still pending two minutes after they were made (or half the order's reservation,
 * when that is shorter) — the shopper never came back and the provider's notification did not arrive or
 * was lost — are read back from the provider and applied as a notification would be. Payments older than
 * a week are left alone: the provider cancels unconfirmed payments long before. Answers how many moved.
 */
export async function pollPendingPayments(limit = 100): Promise<number> {
  const db = await getDb();
  const after = Math.min(120, (env().PAYMENT_TIMEOUT_MINUTES * 60) / 2);
  const rows = await selectRows<PaymentRow>(
    db,
    sql`SELECT ${COLUMNS} FROM payments WHERE status = 'pending' AND provider_ref IS NOT NULL
          AND created_at < now() - make_interval(secs => ${after}) AND created_at > now() - interval '7 days' ORDER BY updated_at LIMIT ${limit}`,
  );
  let moved = 0;
  for (const row of rows) {
    try {
      if ((await sync(row)) !== 'pending') moved++;
      else await db.execute(sql`UPDATE payments SET updated_at = now() WHERE id = ${row.id} AND status = 'pending'`);
    } catch (error) {
      // One provider failure does not stop the others; the next run asks again.
      if (!(error instanceof ProviderUnavailable)) throw error;
    }
  }
  return moved;
}

/**
 * Housekeeping: orders paid after they were cancelled (their time ran out first) get their money back
 * through the provider. One the provider refuses stays `refund_due`, listed for a manager in the console
 * (Orders, payment "Нужен возврат"), who refunds it by hand and marks it. Answers how many were refunded.
 */
export async function refundDuePayments(limit = 50): Promise<number> {
  const db = await getDb();
  const due = await selectRows<{ code: string }>(db, sql`SELECT code FROM orders WHERE payment_status = 'refund_due' ORDER BY id LIMIT ${limit}`);
  let refunded = 0;
  for (const { code } of due) {
    const order = await orderByCode(code);
    if (!order || order.payment_status !== 'refund_due') continue;
    try {
      if (!(await refundOrderPayment(order))) continue;
    } catch (error) {
      if (!(error instanceof ProviderUnavailable)) throw error;
      logger.warn({ order: code }, 'refund refused by the provider: left for a manager');
      continue;
    }
    await db.transaction(async (tx) => {
      const locked = await lockOrder(tx, order.id);
      if (locked?.payment_status !== 'refund_due') return;
      await tx.execute(sql`UPDATE orders SET payment_status = 'refunded', updated_at = now() WHERE id = ${order.id}`);
      await recordNote(tx, order.id, locked.status, 'refunded_automatically');
    });
    refunded++;
  }
  return refunded;
}
