// A return of some of an order's units (issue 39, docs/marking.md "Returns"): a manager scans the codes of
// the marked units that came back and counts the unmarked ones; each is refunded what the card paid for it
// (its share of the receipt to the kopeck), with a refund receipt whose marked lines carry their codes, and
// a returned code may be sold again. A code that is not one of the order's sold units is refused.
//
// The order of steps makes a crash or a second press harmless: the return is written first ('refunding',
// its units' codes held as 'returning' so no one else returns them), then the provider is asked with the
// return's own key, then everything is marked done in one transaction. A refusal undoes the first step; a
// crash between leaves a 'refunding' row that the housekeeping job finishes with the same key.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { HttpError, notFound } from '~/lib/http/errors.ts';
import type { MessageKey } from '~/lib/i18n/index.ts';
import { logger } from '~/lib/log.ts';
import { z } from '~/lib/zod.ts';
import { parseCode } from '~/features/marking/marking.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { lockOrder, orderByCode, recordNote, type OrderView } from '~/features/orders/orders.server.ts';
import { ProviderUnavailable } from './provider.server.ts';
import { paidPayment, providers, receiptSource, settleOrder } from './payments.receipts.server.ts';
import { apportion, certificateShares, describe, paidAmounts, receiptTotal, type ReceiptLine } from './receipt.ts';
import { giveBackShare } from '~/features/promotions/promotions.gifts.server.ts';

/** Orders whose goods may come back: delivered, or sent back to the shop by the carrier. */
const RETURNABLE = ['delivered', 'returned'];

/** The return form: the scanned codes, one a line; a count per unmarked line (`qty_{lineId}`); the form's own key. */
export const returnFormSchema = z.record(z.string().regex(/^(?:_csrf|codes|return_key|qty_\d{1,9})$/), z.string().max(20_000));

/** A fresh key for one return form: the same form sent twice is one return. */
export const returnKey = () => randomBytes(12).toString('hex');

/** One unit (or a count of an unmarked line's units) in a return. */
interface ReturnUnit {
  line_id: number;
  quantity: number;
  /** The marked unit's code (canonical) and its row. */
  code?: string;
  mark_id?: number;
  amount: number;
  /** What each gift certificate paid for these units (by the use's position), given back to it (issue 56). */
  gift?: number[];
  description: string;
}

interface MarkRow extends Record<string, unknown> {
  id: number;
  line_id: number;
  unit: number;
  code: string;
  status: string;
}

export interface ReturnLine {
  lineId: number;
  description: string;
  quantity: number;
  /** Units already returned. */
  returned: number;
  /** Marked: returned by code only. */
  marked: boolean;
}

export interface ReturnView {
  order: OrderView;
  returnable: boolean;
  lines: ReturnLine[];
  /** Marked units sold and not yet returned. */
  codesLeft: number;
  returns: { amount: number; units: number; status: string; created_at: string }[];
}

/** Each unit's card-paid share, by line id, in unit order (the first units take the remainder kopecks). */
function unitAmounts(order: OrderView, paid = paidAmounts(receiptSource(order))): Map<number, number[]> {
  return new Map(
    order.lines.map((l, i) => [
      l.id,
      apportion(
        paid.goods[i] ?? 0,
        Array.from({ length: l.quantity }, () => 1),
      ),
    ]),
  );
}

async function marksOf(orderId: number): Promise<MarkRow[]> {
  return selectRows<MarkRow>(await getDb(), sql`SELECT id, line_id, unit, code, status FROM order_marks WHERE order_id = ${orderId} ORDER BY line_id, unit`);
}

/** How many of each line's units earlier returns took back (refunded or still being refunded). */
async function returnedCounts(orderId: number): Promise<Map<number, number>> {
  const rows = await selectRows<{ units: ReturnUnit[] }>(await getDb(), sql`SELECT units FROM order_returns WHERE order_id = ${orderId}`);
  const counts = new Map<number, number>();
  for (const u of rows.flatMap((r) => r.units)) counts.set(u.line_id, (counts.get(u.line_id) ?? 0) + u.quantity);
  return counts;
}

export async function returnView(code: string): Promise<ReturnView | null> {
  const order = await orderByCode(code);
  if (!order) return null;
  const marks = await marksOf(order.id);
  const counts = await returnedCounts(order.id);
  const payment = await paidPayment(order.id);
  const rows = await selectRows<{ amount: number; units: ReturnUnit[]; status: string; created_at: Date | string }>(
    await getDb(),
    sql`SELECT amount, units, status, created_at FROM order_returns WHERE order_id = ${order.id} ORDER BY id`,
  );
  return {
    order,
    returnable: RETURNABLE.includes(order.status) && paidFor(order, payment),
    lines: order.lines.map((l) => ({
      lineId: l.id,
      description: describe(l.brand, l.name, l.variant),
      quantity: l.quantity,
      returned: counts.get(l.id) ?? 0,
      marked: marks.some((m) => m.line_id === l.id),
    })),
    codesLeft: marks.filter((m) => m.status === 'sold').length,
    returns: rows.map((r) => ({
      amount: Number(r.amount),
      units: r.units.reduce((n, u) => n + u.quantity, 0),
      status: r.status,
      created_at: new Date(r.created_at).toISOString(),
    })),
  };
}

/** Paid by card, or wholly by gift certificates (issue 56: no payment of its own; their shares go back to them). */
const paidFor = (order: OrderView, payment: Awaited<ReturnType<typeof paidPayment>>) =>
  payment?.status === 'succeeded' || (payment === null && order.certificate_used > 0 && order.payment_status === 'paid');

const refuse = (field: string, key: MessageKey, params?: Record<string, string | number>) => new HttpError(422, key, { [field]: [key] }, undefined, params);

/** Each gift certificate's share of each unit, by line id (issue 56): per certificate, as unitAmounts. */
function giftUnitAmounts(order: OrderView): Map<number, number[]>[] {
  const source = receiptSource(order);
  return order.certificates.map((_, i) => unitAmounts(order, certificateShares(source, i)));
}

/** What the certificates paid for the units at these positions of a line (0-based, in unit order). */
const giftOf = (gifts: Map<number, number[]>[], lineId: number, from: number, to: number): number[] =>
  gifts.map((g) => (g.get(lineId) ?? []).slice(from, to).reduce((s, x) => s + x, 0));

/** The units the form names, checked against the order: codes its own and sold, counts within what is left. */
function chosenUnits(order: OrderView, fields: Record<string, string>, marks: MarkRow[], counts: Map<number, number>): ReturnUnit[] {
  const amounts = unitAmounts(order);
  const gifts = giftUnitAmounts(order);
  const units: ReturnUnit[] = [];
  const seen = new Set<string>();
  const typed = (fields['codes'] ?? '').split(/\r\n|\r|\n/).filter((s) => s.trim() !== '');
  if (typed.length > 200) throw refuse('codes', 'returns.tooMany');
  for (const [i, raw] of typed.entries()) {
    const parsed = parseCode(raw);
    if (!parsed.ok) throw refuse('codes', 'returns.codeInvalid', { row: i + 1 });
    const code = parsed.value.code;
    if (seen.has(code)) continue;
    seen.add(code);
    const mark = marks.find((m) => m.code === code);
    if (!mark) throw refuse('codes', 'returns.codeNotInOrder', { row: i + 1 });
    if (mark.status !== 'sold') throw refuse('codes', 'returns.codeReturned', { row: i + 1 });
    const line = order.lines.find((l) => l.id === mark.line_id);
    if (!line) throw refuse('codes', 'returns.codeNotInOrder', { row: i + 1 });
    units.push({
      line_id: line.id,
      quantity: 1,
      code,
      mark_id: mark.id,
      amount: amounts.get(line.id)?.[mark.unit - 1] ?? 0,
      gift: giftOf(gifts, line.id, mark.unit - 1, mark.unit),
      description: describe(line.brand, line.name, line.variant),
    });
  }
  for (const [name, value] of Object.entries(fields)) {
    const id = /^qty_(\d+)$/.exec(name)?.[1];
    if (id === undefined || value.trim() === '' || value.trim() === '0') continue;
    const line = order.lines.find((l) => l.id === Number(id));
    if (!line) throw refuse(name, 'returns.lineUnknown');
    if (marks.some((m) => m.line_id === line.id)) throw refuse(name, 'returns.markedByCode');
    const quantity = /^\d{1,3}$/.test(value.trim()) ? Number(value.trim()) : NaN;
    const left = line.quantity - (counts.get(line.id) ?? 0);
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > left) throw refuse(name, 'returns.quantityInvalid', { max: left });
    // The last units not yet returned: the first ones took the remainder kopecks and may have gone back earlier.
    const from = line.quantity - (counts.get(line.id) ?? 0) - quantity;
    const to = line.quantity - (counts.get(line.id) ?? 0);
    const shares = (amounts.get(line.id) ?? []).slice(from, to);
    units.push({
      line_id: line.id,
      quantity,
      amount: shares.reduce((s, x) => s + x, 0),
      gift: giftOf(gifts, line.id, from, to),
      description: describe(line.brand, line.name, line.variant),
    });
  }
  if (units.length === 0) throw refuse('codes', 'returns.nothing');
  return units;
}

/** The refund receipt: a marked unit a line with its code, an unmarked line's units as one line when they cost the same. */
function refundLines(units: readonly ReturnUnit[], settled: boolean): ReceiptLine[] {
  return units.flatMap<ReceiptLine>((u) => {
    if (u.amount <= 0) return [];
    if (u.code !== undefined)
      return [{ description: u.description, quantity: 1, unit: u.amount, subject: settled ? 'marked' : 'commodity', ...(settled ? { mark: u.code } : {}) }];
    const unit = Math.floor(u.amount / u.quantity);
    const rest = u.amount - unit * u.quantity;
    if (rest === 0) return [{ description: u.description, quantity: u.quantity, unit, subject: 'commodity' }];
    return [
      ...(u.quantity > 1 ? [{ description: u.description, quantity: u.quantity - 1, unit, subject: 'commodity' as const }] : []),
      { description: u.description, quantity: 1, unit: unit + rest, subject: 'commodity' },
    ];
  });
}

interface ReturnRow extends Record<string, unknown> {
  id: number;
  order_id: number;
  idempotence_key: string;
  amount: number;
  units: ReturnUnit[];
  lines: ReceiptLine[];
  status: string;
}

/**
 * Takes back the units a manager scanned and counted and refunds what the card paid for them. Answers the
 * amount refunded. 409 for an order not delivered (or not sent back) or not paid by card, 422 naming the
 * field for a code not among the order's sold units, a count beyond what is left, nothing chosen; 502 when
 * the provider refuses (nothing changes).
 */
export async function returnUnits(code: string, fields: Record<string, string>, actor: Actor): Promise<number> {
  const key = /^[0-9a-f]{24}$/.test(fields['return_key'] ?? '') ? `return-${code}-${fields['return_key']}` : null;
  if (!key) throw new HttpError(400, 'error.badRequest');
  const order = await orderByCode(code);
  if (!order) throw notFound();
  const db = await getDb();
  const [done] = await selectRows<ReturnRow>(
    db,
    sql`SELECT id, order_id, idempotence_key, amount, units, lines, status FROM order_returns WHERE idempotence_key = ${key}`,
  );
  if (done?.order_id === order.id) {
    // The same form again (a double press, a reload): the same return, finished if it was not.
    if (done.status === 'refunding') await finishReturn(done, order);
    return Number(done.amount);
  }
  const payment = await paidPayment(order.id);
  if (!RETURNABLE.includes(order.status) || !paidFor(order, payment)) throw new HttpError(409, 'returns.notReturnable');
  // Goods handed over on a prepayment are returned as sold: the settlement receipt must be at the register first.
  let settled = !payment || payment.receipt_mode === 'full_payment';
  if (!settled) {
    const state = await settleOrder(code);
    settled = state === 'succeeded' || state === 'pending';
    if (state === 'queued') throw new HttpError(409, 'returns.settlementFirst');
  }
  const units = chosenUnits(order, fields, await marksOf(order.id), await returnedCounts(order.id));
  const amount = units.reduce((s, u) => s + u.amount, 0);
  const lines = refundLines(units, settled);
  const marks = units.flatMap((u) => (u.mark_id === undefined ? [] : [u.mark_id]));
  const row = await db.transaction(async (tx) => {
    await lockOrder(tx, order.id);
    // Held for this return: a second manager returning the same unit at the same moment finds it taken.
    if (marks.length > 0) {
      const held = await selectRows(
        tx,
        sql`UPDATE order_marks SET status = 'returning' WHERE id = ANY(${sql.param(marks)}::int[]) AND status = 'sold' RETURNING id`,
      );
      if (held.length !== marks.length) throw refuse('codes', 'returns.codeReturned', { row: 1 });
    }
    const [made] = await selectRows<ReturnRow>(
      tx,
      sql`INSERT INTO order_returns (order_id, idempotence_key, amount, units, lines)
          VALUES (${order.id}, ${key}, ${amount}, ${JSON.stringify(units)}::jsonb, ${JSON.stringify(lines)}::jsonb)
          RETURNING id, order_id, idempotence_key, amount, units, lines, status`,
    );
    return made;
  });
  if (!row) throw new Error('return row missing');
  await finishReturn(row, order, true);
  await audit(actor, 'order.return', 'order', code, null, { amount, units: units.reduce((n, u) => n + u.quantity, 0), codes: marks.length });
  return amount;
}

/** Asks the provider for a written return's refund (its own key) and marks it done; `undo` takes it back when refused. */
async function finishReturn(row: ReturnRow, order: OrderView, undo = false): Promise<void> {
  const db = await getDb();
  const payment = await paidPayment(order.id);
  const { units, lines } = row;
  const marks = units.flatMap((u) => (u.mark_id === undefined ? [] : [u.mark_id]));
  let ref: string | null = null;
  try {
    // Nothing of it paid by card (all by certificates): no refund to ask for, only their shares to give back.
    if (Number(row.amount) > 0) {
      if (!payment) throw new ProviderUnavailable('no payment');
      ({ ref } = await providers[payment.provider].refund({
        ref: payment.provider_ref,
        amount: Number(row.amount),
        idempotenceKey: row.idempotence_key,
        receipt: lines,
        receiptMode: lines.some((l) => l.mark !== undefined) || payment.receipt_mode === 'full_payment' ? 'full_payment' : 'full_prepayment',
        customer: { email: order.contact_email, phone: order.contact_phone },
      }));
    }
  } catch (error) {
    if (!(error instanceof ProviderUnavailable)) throw error;
    if (undo) {
      await db.transaction(async (tx) => {
        if (marks.length > 0) await tx.execute(sql`UPDATE order_marks SET status = 'sold' WHERE id = ANY(${sql.param(marks)}::int[]) AND status = 'returning'`);
        await tx.execute(sql`DELETE FROM order_returns WHERE id = ${row.id} AND status = 'refunding'`);
      });
    }
    logger.warn({ order: order.code, reason: error.message }, 'return refund refused by the provider');
    throw new HttpError(502, 'payment.unavailable');
  }
  await db.transaction(async (tx) => {
    const locked = await lockOrder(tx, order.id);
    const changed = await selectRows(
      tx,
      sql`UPDATE order_returns SET status = 'refunded', updated_at = now() WHERE id = ${row.id} AND status = 'refunding' RETURNING id`,
    );
    if (changed.length === 0 || !locked) return;
    if (marks.length > 0) await tx.execute(sql`UPDATE order_marks SET status = 'returned', returned_at = now() WHERE id = ANY(${sql.param(marks)}::int[])`);
    if (ref !== null)
      await tx.execute(
        sql`INSERT INTO receipts (order_id, kind, provider, provider_ref, idempotence_key, amount, lines, status)
            VALUES (${order.id}, 'refund', ${payment?.provider ?? 'test'}, ${ref}, ${row.idempotence_key}, ${receiptTotal(lines)}, ${JSON.stringify(lines)}::jsonb, 'sent')
            ON CONFLICT (idempotence_key) DO NOTHING`,
      );
    // What certificates paid for these units goes back onto them (once: this runs only with the row's first change).
    const back = units.reduce<number[]>((sums, u) => (u.gift ?? []).map((x, i) => x + (sums[i] ?? 0)), []);
    for (const [position, amount] of back.entries()) await giveBackShare(tx, order.id, position, amount);
    // All the card paid is back: the payment is refunded as a whole.
    const [sum] = await selectRows<{ refunded: number }>(
      tx,
      sql`SELECT coalesce(sum(amount), 0)::int AS refunded FROM order_returns WHERE order_id = ${order.id} AND status = 'refunded'`,
    );
    if (payment && Number(sum?.refunded ?? 0) >= payment.amount) {
      await tx.execute(sql`UPDATE payments SET status = 'refunded', updated_at = now() WHERE order_id = ${order.id} AND status = 'succeeded'`);
      await tx.execute(sql`UPDATE orders SET payment_status = 'refunded', updated_at = now() WHERE id = ${order.id}`);
    }
    // Changed for 1C too: the returned units' codes leave the next orders document.
    await tx.execute(sql`UPDATE orders SET updated_at = now() WHERE id = ${order.id}`);
    await recordNote(tx, order.id, locked.status, 'return_refunded');
  });
}

/** Housekeeping: returns a crash left between the provider's refund and the shop's record, finished with their own keys. */
export async function finishStaleReturns(limit = 20): Promise<number> {
  const rows = await selectRows<ReturnRow & { code: string }>(
    await getDb(),
    sql`SELECT r.id, r.order_id, r.idempotence_key, r.amount, r.units, r.lines, r.status, o.code FROM order_returns r JOIN orders o ON o.id = r.order_id
         WHERE r.status = 'refunding' AND r.updated_at < now() - interval '2 minutes' ORDER BY r.id LIMIT ${limit}`,
  );
  let finished = 0;
  for (const row of rows) {
    const order = await orderByCode(row.code);
    if (!order) continue;
    try {
      await finishReturn(row, order);
      finished++;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
    }
  }
  return finished;
}
