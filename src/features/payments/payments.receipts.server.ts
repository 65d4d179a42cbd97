// The receipts after the payment's own (issue 39, docs/marking.md). An order holding marked goods is paid
// with a full-prepayment receipt, no codes in it: no unit is picked yet. When its goods are handed over —
// to the carrier or courier, or to the buyer (SETTLEMENT_RECEIPT_AT) — a settlement receipt (чек зачёта
// предоплаты) goes to the provider with one line per marked unit and its code. It is one row per order,
// keyed `settlement-{code}`, so whatever calls it twice, retries it or restarts in between, the provider
// is sent the same receipt with the same key and makes it once. The handover calls it at once; the
// housekeeping job finds any it missed, resends those the provider did not take, and asks after those
// still pending at the register.
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { t } from '~/lib/i18n/index.ts';
import { formatPrice } from '~/lib/format.ts';
import { logger } from '~/lib/log.ts';
import { orderCodes, packView } from '~/features/marking/marking.server.ts';
import { orderByCode, type OrderView } from '~/features/orders/orders.server.ts';
import { HANDED_OVER, ON_DELIVERY } from '~/features/orders/orders.ts';
import { ProviderUnavailable, type PaymentProvider, type ReceiptMode, type ReceiptStatus } from './provider.server.ts';
import { certificateLines, collectedAmounts, describe, receiptLines, receiptTotal, settlementLines, type ReceiptLine, type ReceiptSource } from './receipt.ts';
import { certificateUses } from '~/features/promotions/promotions.gifts.server.ts';
import { testProvider } from './test-provider.server.ts';
import { yookassaProvider } from './yookassa.server.ts';

export const providers: Record<PaymentProvider['name'], PaymentProvider> = { test: testProvider, yookassa: yookassaProvider };

/** The order as its receipts describe it: the lines (with their ids, for the codes), delivery, what points and balance paid. */
export function receiptSource(order: OrderView): ReceiptSource {
  return {
    lines: order.lines,
    delivery_price: order.delivery_price,
    delivery_label: t('ru', 'payment.deliveryLine'),
    deducted: order.bonus_used + order.balance_used + order.certificate_used,
    certificates: order.certificates.map((c) => c.amount),
    cod_fee: order.cod_fee,
    cod_fee_label: t('ru', 'payment.codFeeLine'),
  };
}

/** What a carrier collects at the door for an order paid on delivery (issue 55): the receipts' allocation. */
export const collectedFor = (order: OrderView) => collectedAmounts(receiptSource(order));

/**
 * The payment's receipt lines (the same for a whole refund). A gift certificate's purchase is one line, an
 * advance whose subject is a payment («платёж»): no goods are named until it is spent (docs/promotions.md).
 */
export const paymentReceiptLines = (order: OrderView): ReceiptLine[] =>
  order.kind === 'certificate'
    ? [{ description: t('ru', 'gift.receiptLine', { amount: formatPrice(order.total) }), quantity: 1, unit: order.total, subject: 'payment' }]
    : receiptLines(receiptSource(order));

/**
 * A prepayment receipt when the order holds marked goods (their codes come at packing), an advance for a gift
 * certificate's purchase, a full payment otherwise.
 */
export async function receiptModeFor(code: string, kind: OrderView['kind'] = 'goods'): Promise<ReceiptMode> {
  if (kind === 'certificate') return 'advance';
  const view = await packView(code);
  return view && view.lines.length > 0 ? 'full_prepayment' : 'full_payment';
}

interface PaymentRef extends Record<string, unknown> {
  provider: PaymentProvider['name'];
  provider_ref: string;
  amount: number;
  receipt_mode: ReceiptMode;
  status: string;
}

/** The order's succeeded (or since refunded) payment; null when none. */
export async function paidPayment(orderId: number): Promise<PaymentRef | null> {
  const [row] = await selectRows<PaymentRef>(
    await getDb(),
    sql`SELECT provider, provider_ref, amount, receipt_mode, status FROM payments
         WHERE order_id = ${orderId} AND status IN ('succeeded', 'refunded') AND provider_ref IS NOT NULL ORDER BY id DESC LIMIT 1`,
  );
  return row ? { ...row, amount: Number(row.amount) } : null;
}

/** Whether the order's goods count as handed over for its settlement receipt (SETTLEMENT_RECEIPT_AT). */
function handedOver(order: Pick<OrderView, 'status' | 'shipment'>): boolean {
  if (env().SETTLEMENT_RECEIPT_AT === 'delivery') return order.status === 'delivered';
  return (HANDED_OVER as readonly string[]).includes(order.status) || order.shipment?.state === 'registered';
}

interface ReceiptRow extends Record<string, unknown> {
  id: number;
  order_id: number;
  kind: 'settlement' | 'refund' | 'certificate';
  provider: PaymentProvider['name'];
  provider_ref: string | null;
  idempotence_key: string;
  amount: number;
  lines: ReceiptLine[];
  status: 'queued' | ReceiptStatus | 'sent';
}

const RECEIPT_COLUMNS = sql`id, order_id, kind, provider, provider_ref, idempotence_key, amount, lines, status`;

/** The order's settlement receipt, queued now if its goods are handed over and it has none; null when none is due. */
async function queueSettlement(order: OrderView): Promise<ReceiptRow | null> {
  const db = await getDb();
  const key = `settlement-${order.code}`;
  const [held] = await selectRows<ReceiptRow>(db, sql`SELECT ${RECEIPT_COLUMNS} FROM receipts WHERE idempotence_key = ${key}`);
  if (held) return held;
  const payment = await paidPayment(order.id);
  if (payment?.status !== 'succeeded' || payment.receipt_mode !== 'full_prepayment' || !handedOver(order)) return null;
  const lines = settlementLines(receiptSource(order), await orderCodes(order.id));
  if (receiptTotal(lines) !== payment.amount) {
    // The same money as the payment, or the register refuses it: someone must look (never a wrong receipt).
    logger.error({ order: order.code }, 'settlement receipt does not add up to the payment');
    return null;
  }
  await db.execute(
    sql`INSERT INTO receipts (order_id, kind, provider, idempotence_key, amount, lines)
        VALUES (${order.id}, 'settlement', ${payment.provider}, ${key}, ${payment.amount}, ${JSON.stringify(lines)}::jsonb)
        ON CONFLICT (idempotence_key) DO NOTHING`,
  );
  const [row] = await selectRows<ReceiptRow>(db, sql`SELECT ${RECEIPT_COLUMNS} FROM receipts WHERE idempotence_key = ${key}`);
  return row ?? null;
}

/** Sends a queued settlement receipt (the same key each time); a provider that cannot take it now leaves it queued. */
async function sendSettlement(row: ReceiptRow, order: OrderView): Promise<ReceiptRow['status']> {
  const db = await getDb();
  const payment = await paidPayment(order.id);
  if (!payment) return row.status;
  try {
    const made = await providers[row.provider].settle({
      paymentRef: payment.provider_ref,
      idempotenceKey: row.idempotence_key,
      amount: Number(row.amount),
      lines: row.lines,
      customer: { email: order.contact_email, phone: order.contact_phone },
    });
    await db.execute(
      sql`UPDATE receipts SET status = ${made.status}, provider_ref = ${made.ref}, attempts = attempts + 1, updated_at = now() WHERE id = ${row.id} AND status = 'queued'`,
    );
    return made.status;
  } catch (error) {
    if (!(error instanceof ProviderUnavailable)) throw error;
    await db.execute(sql`UPDATE receipts SET attempts = attempts + 1, updated_at = now() WHERE id = ${row.id}`);
    logger.warn({ order: order.code, reason: error.message }, 'settlement receipt not taken: queued for the next run');
    return 'queued';
  }
}

/**
 * Sends the order's settlement receipt if its goods are handed over and it has not gone yet. Called right
 * after a handover (with the order as the caller knows it now, if it does); never throws (the housekeeping job tries again). Answers the receipt's state, or null
 * when none is due.
 */
export async function settleOrder(code: string, known?: OrderView): Promise<ReceiptRow['status'] | null> {
  try {
    // A caller that has just read and changed the order passes it as it now is: it is not read again.
    const order = known ?? (await orderByCode(code));
    if (!order) return null;
    await settleCertificates(order);
    const row = await queueSettlement(order);
    if (!row) return null;
    return row.status === 'queued' ? await sendSettlement(row, order) : row.status;
  } catch (error) {
    logger.error({ order: code, err: error instanceof Error ? error.name : 'error' }, 'settlement receipt failed');
    return null;
  }
}

/**
 * The receipts of what gift certificates paid for an order (issue 56, docs/promotions.md "Gift certificates"):
 * one a certificate, a settlement of that certificate's own prepayment (its purchase's payment) for its share
 * of the lines, keyed `gift-{code}-{position}` so a retry is the same receipt. Due when the order is paid —
 * for marked goods at their handover, when the units are picked; their codes go on the certificate's receipt
 * only when the card paid nothing (otherwise the card's settlement carries them). Never throws; answers how
 * many went to the provider.
 */
export async function settleCertificates(order: OrderView): Promise<number> {
  if (order.certificate_used <= 0 || order.payment_status !== 'paid') return 0;
  try {
    const marked = ((await packView(order.code))?.lines.length ?? 0) > 0;
    if (marked && !handedOver(order)) return 0;
    const db = await getDb();
    const codes = marked && order.total === 0 ? await orderCodes(order.id) : undefined;
    const source = receiptSource(order);
    let sent = 0;
    for (const [index, use] of (await certificateUses(db, order.id)).entries()) {
      const key = `gift-${order.code}-${use.position}`;
      const purchase = await paidPayment(use.purchase_order_id);
      if (purchase?.status !== 'succeeded') continue;
      const lines = certificateLines(source, index, codes);
      if (receiptTotal(lines) !== use.amount) {
        logger.error({ order: order.code }, 'certificate receipt does not add up to its use');
        continue;
      }
      await db.execute(
        sql`INSERT INTO receipts (order_id, kind, provider, idempotence_key, amount, lines)
            VALUES (${order.id}, 'certificate', ${purchase.provider}, ${key}, ${use.amount}, ${JSON.stringify(lines)}::jsonb)
            ON CONFLICT (idempotence_key) DO NOTHING`,
      );
      const [row] = await selectRows<ReceiptRow>(db, sql`SELECT ${RECEIPT_COLUMNS} FROM receipts WHERE idempotence_key = ${key}`);
      if (row?.status !== 'queued') continue;
      try {
        const made = await providers[row.provider].settle({
          paymentRef: purchase.provider_ref,
          idempotenceKey: key,
          amount: use.amount,
          lines: row.lines,
          customer: { email: order.contact_email, phone: order.contact_phone },
        });
        await db.execute(
          sql`UPDATE receipts SET status = ${made.status}, provider_ref = ${made.ref}, attempts = attempts + 1, updated_at = now() WHERE id = ${row.id} AND status = 'queued'`,
        );
        sent++;
      } catch (error) {
        if (!(error instanceof ProviderUnavailable)) throw error;
        await db.execute(sql`UPDATE receipts SET attempts = attempts + 1, updated_at = now() WHERE id = ${row.id}`);
        logger.warn({ order: order.code, reason: error.message }, 'certificate receipt not taken: queued for the next run');
      }
    }
    return sent;
  } catch (error) {
    logger.error({ order: order.code, err: error instanceof Error ? error.name : 'error' }, 'certificate receipt failed');
    return 0;
  }
}

/** The certificates' receipts of an order by its code, once it is paid (placement, a payment's success). */
export async function settleCertificatesOf(code: string): Promise<number> {
  const order = await orderByCode(code);
  return order ? settleCertificates(order) : 0;
}

/**
 * Housekeeping: the settlement receipts due and not yet sent (a handover whose call was lost to a restart),
 * those the provider did not take, and those still pending at the register asked after. Answers how many
 * moved.
 */
export async function settleReceipts(limit = 50): Promise<number> {
  const db = await getDb();
  const handed =
    env().SETTLEMENT_RECEIPT_AT === 'delivery'
      ? sql`o.status = 'delivered'`
      : sql`(o.status = ANY(${sql.param([...HANDED_OVER])}::text[]) OR EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.id AND s.state = 'registered'))`;
  const due = await selectRows<{ code: string }>(
    db,
    sql`SELECT o.code FROM orders o JOIN payments p ON p.order_id = o.id AND p.status = 'succeeded' AND p.receipt_mode = 'full_prepayment'
         WHERE ${handed} AND NOT EXISTS (SELECT 1 FROM receipts r WHERE r.order_id = o.id AND r.kind = 'settlement')
         ORDER BY o.id LIMIT ${limit}`,
  );
  let moved = 0;
  for (const { code } of due) if ((await settleOrder(code)) !== null) moved++;
  // Paid with gift certificates: their receipts not all sent yet (one a use).
  const gifted = await selectRows<{ code: string }>(
    db,
    sql`SELECT o.code FROM orders o WHERE o.certificate_used > 0 AND o.payment_status = 'paid'
          AND (SELECT count(*) FROM gift_certificate_uses u WHERE u.order_id = o.id)
            > (SELECT count(*) FROM receipts r WHERE r.order_id = o.id AND r.kind = 'certificate' AND r.status <> 'queued')
         ORDER BY o.id LIMIT ${limit}`,
  );
  for (const { code } of gifted) {
    const order = await orderByCode(code);
    if (order) moved += await settleCertificates(order);
  }
  const open = await selectRows<ReceiptRow & { code: string }>(
    db,
    sql`SELECT r.id, r.order_id, r.kind, r.provider, r.provider_ref, r.idempotence_key, r.amount, r.lines, r.status, o.code
          FROM receipts r JOIN orders o ON o.id = r.order_id
         WHERE r.kind = 'settlement' AND r.status IN ('queued', 'pending')
         ORDER BY r.updated_at LIMIT ${limit}`,
  );
  for (const row of open) {
    if (row.status === 'queued') {
      const order = await orderByCode(row.code);
      if (order && (await sendSettlement(row, order)) !== 'queued') moved++;
      continue;
    }
    try {
      const status = row.provider_ref ? await providers[row.provider].receiptStatus(row.provider_ref) : null;
      if (status && status !== 'pending') {
        await db.execute(sql`UPDATE receipts SET status = ${status}, updated_at = now() WHERE id = ${row.id} AND status = 'pending'`);
        if (status === 'canceled') logger.error({ order: row.code }, 'settlement receipt canceled by the register: issue it by hand');
        moved++;
      } else await db.execute(sql`UPDATE receipts SET updated_at = now() WHERE id = ${row.id}`);
    } catch (error) {
      if (!(error instanceof ProviderUnavailable)) throw error;
    }
  }
  return moved;
}

/** One of an order's receipts as its pages show it. */
export interface ReceiptEntry {
  /** door, door_refund: the carrier's register's, for money taken at the door (issue 55). */
  kind: 'payment' | 'prepayment' | 'settlement' | 'refund' | 'door' | 'door_refund' | 'certificate' | 'advance';
  amount: number;
  /** sent: went with the payment or refund; waiting: due when the goods are handed over. */
  status: 'sent' | 'waiting' | 'queued' | 'door' | ReceiptStatus;
  /** Marked units whose codes it carries. */
  codes: number;
  at: string | null;
  /** A carrier's receipt's fiscal numbers (ФН, ФД, ФП), as read back. */
  fiscal?: { storage: string; document: string; sign: string } | undefined;
}

const fiscalOf = (ref: string | null) => {
  const [storage, document, sign] = (ref ?? '').split('/');
  return storage && document && sign ? { storage, document, sign } : undefined;
};

/** A receipt the carrier's register issued at the door, as read back (delivery's DoorReceipt). */
export interface CarrierReceipt {
  kind: 'sale' | 'refund';
  at: string;
  fiscal: { storage: string; document: string; sign: string };
  sum: number;
}

/**
 * The lines a receipt of money taken at the door covers (issue 55): what the buyer kept, at the amounts
 * the carrier collected for each unit (the receipts' allocation), a marked unit with its code, and the
 * delivery with the fee when anything was kept — the carrier's receipt is made of the same positions.
 */
export function doorReceiptLines(order: OrderView, codes: ReadonlyMap<number, readonly string[]>): ReceiptLine[] {
  const collected = collectedFor(order);
  const lines: ReceiptLine[] = [];
  order.lines.forEach((line, i) => {
    const units = (collected.lines[i] ?? []).flatMap((g) => Array.from({ length: g.quantity }, () => g.unit)).slice(0, line.kept ?? line.quantity);
    const marks = codes.get(line.id) ?? [];
    const description = describe(line.brand, line.name, line.variant);
    units.forEach((unit, u) => {
      const mark = marks[u];
      const last = lines.at(-1);
      if (mark) lines.push({ description, quantity: 1, unit, subject: 'marked', mark });
      else if (last && last.description === description && last.unit === unit && !last.mark) last.quantity++;
      else lines.push({ description, quantity: 1, unit, subject: 'commodity' });
    });
  });
  if (lines.length > 0 && collected.delivery > 0)
    lines.push({ description: t('ru', 'payment.deliveryLine'), quantity: 1, unit: collected.delivery, subject: 'service' });
  return lines;
}

/** Keeps the carrier's receipts for an order paid at the door (once each, by its fiscal document number). */
export async function recordDoorReceipts(order: OrderView, carrier: string, receipts: readonly CarrierReceipt[]): Promise<number> {
  const db = await getDb();
  const lines = doorReceiptLines(order, await orderCodes(order.id));
  let added = 0;
  for (const r of receipts) {
    // ФН/ФД/ФП as provider_ref: the receipt's own address at the tax service.
    const fiscal = `${r.fiscal.storage}/${r.fiscal.document}/${r.fiscal.sign}`;
    const made = await selectRows(
      db,
      sql`INSERT INTO receipts (order_id, kind, provider, provider_ref, idempotence_key, amount, lines, status, created_at)
          VALUES (${order.id}, ${r.kind === 'sale' ? 'door' : 'door_refund'}, ${carrier}, ${fiscal}, ${`door-${order.code}-${r.fiscal.document}`}, ${r.sum},
                  ${JSON.stringify(r.kind === 'sale' ? lines : [])}::jsonb, 'succeeded', ${r.at})
          ON CONFLICT (idempotence_key) DO NOTHING RETURNING id`,
    );
    added += made.length;
  }
  return added;
}

/** The order's receipts, oldest first: the payment's, then the settlement (sent or still due) and the returns'. */
export async function orderReceipts(orderId: number): Promise<ReceiptEntry[]> {
  const db = await getDb();
  const [door] = await selectRows<{ payment_method: string; payment_status: string; status: string }>(
    db,
    sql`SELECT payment_method, payment_status, status FROM orders WHERE id = ${orderId}`,
  );
  // Paid at the door (issue 55): the carrier's register's receipts, read back — or the one it will issue.
  if (door?.payment_method === ON_DELIVERY) {
    const rows = await selectRows<{
      kind: 'door' | 'door_refund';
      amount: number;
      lines: ReceiptLine[];
      provider_ref: string | null;
      created_at: Date | string;
    }>(
      db,
      sql`SELECT kind, amount, lines, provider_ref, created_at FROM receipts WHERE order_id = ${orderId} AND kind IN ('door', 'door_refund') ORDER BY created_at, id`,
    );
    const entries: ReceiptEntry[] = rows.map((r) => ({
      kind: r.kind,
      amount: Number(r.amount),
      status: 'door',
      codes: r.lines.filter((l) => l.mark !== undefined).length,
      at: new Date(r.created_at).toISOString(),
      fiscal: fiscalOf(r.provider_ref),
    }));
    if (entries.length === 0 && door.payment_status === ON_DELIVERY) entries.push({ kind: 'door', amount: 0, status: 'waiting', codes: 0, at: null });
    return entries;
  }
  const [payment] = await selectRows<{ amount: number; receipt_mode: ReceiptMode; status: string; updated_at: Date | string }>(
    db,
    sql`SELECT amount, receipt_mode, status, updated_at FROM payments WHERE order_id = ${orderId} AND status IN ('succeeded', 'refunded') ORDER BY id DESC LIMIT 1`,
  );
  const rows = await selectRows<{
    kind: 'settlement' | 'refund' | 'certificate';
    amount: number;
    status: ReceiptEntry['status'];
    lines: ReceiptLine[];
    created_at: Date | string;
  }>(db, sql`SELECT kind, amount, status, lines, created_at FROM receipts WHERE order_id = ${orderId} ORDER BY id`);
  // An order paid wholly with gift certificates has no payment of its own: only their receipts (issue 56).
  if (!payment && rows.length === 0) return [];
  const entries: ReceiptEntry[] = payment
    ? [
        {
          kind: payment.receipt_mode === 'full_prepayment' ? 'prepayment' : payment.receipt_mode === 'advance' ? 'advance' : 'payment',
          amount: Number(payment.amount),
          status: 'sent',
          codes: 0,
          at: new Date(payment.updated_at).toISOString(),
        },
      ]
    : [];
  // Due while the money is held for goods not yet handed over; a prepayment refunded whole needs none.
  if (payment && payment.receipt_mode === 'full_prepayment' && payment.status === 'succeeded' && !rows.some((r) => r.kind === 'settlement'))
    entries.push({ kind: 'settlement', amount: Number(payment.amount), status: 'waiting', codes: 0, at: null });
  for (const r of rows)
    entries.push({
      kind: r.kind,
      amount: Number(r.amount),
      status: r.status,
      codes: r.lines.filter((l) => l.mark !== undefined).length,
      at: new Date(r.created_at).toISOString(),
    });
  return entries;
}
