// Packing marked goods (issue 39, docs/marking.md): which of an order's units need a code, the codes a
// manager scanned, checked (marking.ts) against the size's own GTIN and against every code this shop has
// sold and not taken back, and kept one per unit.
import { sql } from 'drizzle-orm';
import { isUniqueViolation, selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { HttpError, notFound } from '~/lib/http/errors.ts';
import { z } from '~/lib/zod.ts';
import { categorySlugsOf } from '~/features/catalog/catalog.categories.server.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { CODE_MAX_CHARS, gtin14, isMarked, markedPatterns, parseCode, type CodeProblem } from './marking.ts';
import { mayShip } from '~/features/orders/orders.ts';

/** The order statuses a parcel is packed in: paid, not yet handed over (and not registered: packView). */
const PACKABLE: readonly string[] = ['processing', 'purchased', 'ready_to_ship'];

let patterns: RegExp[] | undefined;
const categoryPatterns = () => (patterns ??= markedPatterns(env().MARKED_CATEGORIES));

/** One unit of a marked line and its code, once scanned. */
export interface PackUnit {
  /** `lineId:unit`, the packing form's field name. */
  field: string;
  unit: number;
  code: string | null;
}

export interface PackLine {
  lineId: number;
  name: string;
  brand: string;
  variant: string;
  /** The size's GTINs (from its barcodes); a code must carry one of them. */
  gtins: string[];
  units: PackUnit[];
}

export interface PackView {
  orderId: number;
  code: string;
  status: string;
  paid: boolean;
  /** Whether the order may be packed now (paid, not registered with the carrier or handed over, not cancelled). */
  packable: boolean;
  lines: PackLine[];
  /** Units of marked lines without a code yet. */
  missing: number;
}

/** The order's marked lines, each unit with its code; null for an order that does not exist. */
export async function packView(code: string): Promise<PackView | null> {
  const db = await getDb();
  const [order] = await selectRows<{ id: number; status: string; payment_status: string; registered: boolean }>(
    db,
    sql`SELECT id, status, payment_status, EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = orders.id) AS registered FROM orders WHERE code = ${code}`,
  );
  if (!order) return null;
  const rows = await selectRows<{
    id: number;
    name: string;
    brand: string;
    variant: string;
    quantity: number;
    barcode: string | null;
    marked: boolean | null;
    slugs: string[] | null;
  }>(
    db,
    sql`SELECT l.id, l.name, l.brand, l.variant_label AS variant, l.quantity, v.barcode, p.marked, ${categorySlugsOf(sql`l.product_id`)} AS slugs
          FROM order_lines l JOIN products p ON p.id = l.product_id LEFT JOIN product_variants v ON v.id = l.variant_id
         WHERE l.order_id = ${order.id}
         ORDER BY l.id`,
  );
  const marks = await selectRows<{ line_id: number; unit: number; code: string }>(
    db,
    sql`SELECT line_id, unit, code FROM order_marks WHERE order_id = ${order.id}`,
  );
  const lines = rows
    .filter((r) => isMarked(r.marked, r.slugs ?? [], categoryPatterns()))
    .map((r) => ({
      lineId: r.id,
      name: r.name,
      brand: r.brand,
      variant: r.variant,
      gtins: (r.barcode ?? '')
        .split(',')
        .map((b) => gtin14(b))
        .filter((g): g is string => g !== null),
      units: Array.from({ length: r.quantity }, (_, i) => ({
        field: `${r.id}:${i + 1}`,
        unit: i + 1,
        code: marks.find((m) => m.line_id === r.id && m.unit === i + 1)?.code ?? null,
      })),
    }));
  const missing = lines.reduce((n, l) => n + l.units.filter((u) => u.code === null).length, 0);
  return {
    orderId: order.id,
    code,
    status: order.status,
    paid: mayShip(order.payment_status),
    // Once registered with the carrier, the carrier's order and the settlement receipt carry the codes:
    // they change only by a return.
    packable: mayShip(order.payment_status) && PACKABLE.includes(order.status) && !order.registered,
    lines,
    missing,
  };
}

/**
 * The packing form: a field per unit (`lineId:unit`), each a scanned code or empty; or `clear` naming the
 * one unit whose wrongly scanned code is taken off (its own small form beside the fields).
 */
export const packFormSchema = z.record(z.string().regex(/^(?:_csrf|clear|\d{1,9}:\d{1,3})$/), z.string().max(CODE_MAX_CHARS * 2));

/**
 * Takes a unit's code off before the parcel leaves (issue 54): a code scanned from the wrong pair is free
 * again and the unit waits for the right one. Once handed over, a code is taken back only by a return.
 * Returns whether a code was taken off (a second click finds none and changes nothing).
 */
export async function clearPackCode(code: string, field: string, actor: Actor): Promise<boolean> {
  const view = await packView(code);
  if (!view) throw notFound();
  if (!view.packable) throw new HttpError(409, 'marking.pack.notPackable');
  const unit = view.lines.flatMap((l) => l.units.map((u) => ({ ...u, lineId: l.lineId }))).find((u) => u.field === field);
  // A unit not of this order is not this order's to clear.
  if (!unit) throw new HttpError(422, 'error.validation', { clear: ['validation.invalid'] });
  const gone = await selectRows(
    await getDb(),
    sql`DELETE FROM order_marks WHERE order_id = ${view.orderId} AND line_id = ${unit.lineId} AND unit = ${unit.unit} AND status = 'sold' RETURNING id`,
  );
  if (gone.length > 0) await audit(actor, 'order.pack.clear', 'order', code, null, { unit: field });
  return gone.length > 0;
}

/** Why one unit's code was refused (the page names the unit). */
export type PackProblem = CodeProblem | 'otherGtin' | 'noGtin' | 'sold' | 'twice';

/**
 * Keeps the scanned codes of an order's marked units: each filled field checked and kept, an empty one
 * left as it was. The first refusal is thrown (422) naming its unit and the reason; the codes that passed
 * are kept, so the manager scans again only the unit named.
 */
export async function savePackCodes(code: string, fields: Record<string, string>, actor: Actor): Promise<number> {
  const view = await packView(code);
  if (!view) throw notFound();
  if (!view.packable) throw new HttpError(409, 'marking.pack.notPackable');
  const db = await getDb();
  const refused: { line: PackLine; unit: number; problem: PackProblem }[] = [];
  const seen = new Set<string>();
  let kept = 0;
  for (const line of view.lines) {
    for (const unit of line.units) {
      const typed = fields[unit.field];
      if (typed === undefined || typed.trim() === '') continue;
      const parsed = parseCode(typed);
      const problem: PackProblem | null = !parsed.ok
        ? parsed.problem
        : line.gtins.length === 0
          ? 'noGtin'
          : !line.gtins.includes(parsed.value.gtin)
            ? 'otherGtin'
            : seen.has(parsed.value.code)
              ? 'twice'
              : null;
      if (problem || !parsed.ok) {
        refused.push({ line, unit: unit.unit, problem: problem ?? 'format' });
        continue;
      }
      seen.add(parsed.value.code);
      if (unit.code === parsed.value.code) continue;
      const { gtin, serial } = parsed.value;
      // Sold and not returned, by this order's other unit or another order: the partial unique index
      // says so even when two managers scan the same code at once.
      const taken = await selectRows(
        db,
        sql`SELECT 1 FROM order_marks WHERE gtin = ${gtin} AND serial = ${serial} AND status <> 'returned' AND NOT (line_id = ${line.lineId} AND unit = ${unit.unit})`,
      );
      if (taken.length > 0) {
        refused.push({ line, unit: unit.unit, problem: 'sold' });
        continue;
      }
      try {
        await db.execute(
          sql`INSERT INTO order_marks (order_id, line_id, unit, gtin, serial, code) VALUES (${view.orderId}, ${line.lineId}, ${unit.unit}, ${gtin}, ${serial}, ${parsed.value.code})
              ON CONFLICT (line_id, unit) DO UPDATE SET gtin = EXCLUDED.gtin, serial = EXCLUDED.serial, code = EXCLUDED.code, status = 'sold', created_at = now()`,
        );
        kept++;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        refused.push({ line, unit: unit.unit, problem: 'sold' });
      }
    }
  }
  if (kept > 0) await audit(actor, 'order.pack', 'order', code, null, { codes: kept });
  const first = refused[0];
  if (first)
    throw new HttpError(422, `marking.problem.${first.problem}`, undefined, undefined, {
      item: [first.line.brand, first.line.name, first.line.variant].filter(Boolean).join(' '),
      unit: first.unit,
      count: refused.length,
    });
  return kept;
}

/** Units of the order's marked lines still without a code (0 when none is marked). */
export async function unitsWithoutCode(code: string): Promise<number> {
  return (await packView(code))?.missing ?? 0;
}

/** Each marked unit's code by line id, in unit order: the packing slip, the carrier and the receipt take them. */
export async function orderCodes(orderId: number): Promise<Map<number, string[]>> {
  const rows = await selectRows<{ line_id: number; code: string }>(
    await getDb(),
    sql`SELECT line_id, code FROM order_marks WHERE order_id = ${orderId} AND status = 'sold' ORDER BY line_id, unit`,
  );
  const byLine = new Map<number, string[]>();
  for (const r of rows) byLine.set(r.line_id, [...(byLine.get(r.line_id) ?? []), r.code]);
  return byLine;
}

/** Whether MARKED_CATEGORIES names the product's category or one of its parents (its own flag aside). */
export async function categoryMarked(productId: number): Promise<boolean> {
  const [row] = await selectRows<{ slugs: string[] | null }>(await getDb(), sql`SELECT ${categorySlugsOf(sql`${productId}::int`)} AS slugs`);
  return isMarked(null, row?.slugs ?? [], categoryPatterns());
}
