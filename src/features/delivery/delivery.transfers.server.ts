// Money taken at the door, reconciled (issue 55, docs/payments.md "Reconciling the money"): the carriers'
// registers of what they transferred to the shop are read day by day (CDEK's GET /v2/registries), each
// order's money marked received once — a register read again, or listed twice, marks nothing twice — and
// the console lists what each carrier still owes, by order, and what is overdue (COD_TRANSFER_DAYS after
// the delivery).
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { logger } from '~/lib/log.ts';
import { z } from '~/lib/zod.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { ON_DELIVERY } from '~/features/orders/orders.ts';
import { CarrierRefused, CarrierUnavailable, type Carrier } from './carrier.server.ts';
import { configuredCarriers } from './carriers.server.ts';
import { keep, noteCarrierError } from './delivery.errors.server.ts';
import type { CarrierId } from './delivery.ts';

/** How far back a first read goes. */
const FIRST_DAYS = 14;
const READ_KEY = (id: CarrierId) => `cod-registries:${id}`;
const DAY_MS = 86_400_000;

/** YYYY-MM-DD in Moscow, the carriers' day. */
const moscowDay = (at: Date) => new Date(at.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);

async function lastRead(id: CarrierId): Promise<string | null> {
  const [row] = await selectRows<{ value: string }>(await getDb(), sql`SELECT value FROM app_meta WHERE key = ${READ_KEY(id)}`);
  return typeof row?.value === 'string' ? row.value : null;
}

/** One carrier's registers for the days from its last read (that day again: a register may come later) to today. */
async function reconcileCarrier(carrier: Carrier & { transfers: NonNullable<Carrier['transfers']> }, now: Date): Promise<number> {
  const db = await getDb();
  const today = moscowDay(now);
  const from = (await lastRead(carrier.id)) ?? moscowDay(new Date(now.getTime() - FIRST_DAYS * DAY_MS));
  let marked = 0;
  for (let day = from; day <= today; day = moscowDay(new Date(Date.parse(`${day}T12:00:00+03:00`) + DAY_MS))) {
    for (const t of await carrier.transfers(day)) {
      const made = await selectRows(
        db,
        sql`INSERT INTO cod_transfers (order_id, carrier, registry, paid_on, payment_order, collected, commission, transferred)
            SELECT s.order_id, ${carrier.id}, ${t.registry}, ${t.paidOn}::date, ${t.paymentOrder}, ${t.collected}, ${t.commission}, ${t.transferred}
              FROM shipments s JOIN orders o ON o.id = s.order_id
             WHERE s.carrier = ${carrier.id} AND s.number = ${t.carrierNumber} AND o.payment_method = ${ON_DELIVERY}
            ON CONFLICT (order_id) DO NOTHING RETURNING id`,
      );
      if (made.length === 0 && !(await known(carrier.id, t.carrierNumber)))
        // A register's line the shop cannot match: logged by the carrier's number (never a person).
        logger.warn(
          { carrier: carrier.id, registry: t.registry, number: t.carrierNumber },
          'a carrier register names an order the shop did not send paid at the door',
        );
      marked += made.length;
    }
    await keep(READ_KEY(carrier.id), day);
  }
  return marked;
}

async function known(id: CarrierId, number: string): Promise<boolean> {
  const [row] = await selectRows(await getDb(), sql`SELECT 1 FROM shipments WHERE carrier = ${id} AND number = ${number}`);
  return Boolean(row);
}

/**
 * Reads every carrier's registers since its last read: how many orders' money was newly marked received.
 * With no money taken at the door still awaited, no carrier is asked.
 */
export async function reconcileTransfers(now = new Date()): Promise<number> {
  const [awaited] = await selectRows(
    await getDb(),
    sql`SELECT 1 FROM orders o WHERE o.payment_method = ${ON_DELIVERY} AND o.payment_status = 'paid'
          AND NOT EXISTS (SELECT 1 FROM cod_transfers t WHERE t.order_id = o.id) LIMIT 1`,
  );
  if (!awaited) return 0;
  let marked = 0;
  for (const carrier of configuredCarriers()) {
    if (!carrier.transfers) continue;
    try {
      marked += await reconcileCarrier(carrier as Carrier & { transfers: NonNullable<Carrier['transfers']> }, now);
    } catch (error) {
      if (!(error instanceof CarrierUnavailable) && !(error instanceof CarrierRefused)) throw error;
      // Read again from the last day read, next round.
      noteCarrierError(carrier.id, 'registries', error);
    }
  }
  return marked;
}

export interface CodLine {
  code: string;
  carrier: string;
  deliveredAt: string;
  /** Kopecks the carrier took at the door. */
  collected: number;
  transfer: { registry: string; paidOn: string | null; paymentOrder: string | null; commission: number; transferred: number } | null;
  state: 'transferred' | 'owed' | 'overdue';
}

export interface CodLedger {
  lines: CodLine[];
  owed: number;
  overdue: number;
  transferred: number;
  days: number;
}

/** Orders paid at the door and delivered in the last 90 days, newest first: what each carrier transferred and still owes. */
export async function codLedger(now = new Date()): Promise<CodLedger> {
  const days = env().COD_TRANSFER_DAYS;
  const rows = await selectRows<{
    code: string;
    carrier: string;
    delivered_at: Date | string;
    collected: number | null;
    total: number;
    registry: string | null;
    paid_on: string | null;
    payment_order: string | null;
    commission: number | null;
    transferred: number | null;
  }>(
    await getDb(),
    sql`SELECT o.code, s.carrier, o.delivered_at, (o.delivery_result->>'collected')::int AS collected, o.total,
               t.registry, t.paid_on::text AS paid_on, t.payment_order, t.commission, t.transferred
          FROM orders o JOIN shipments s ON s.order_id = o.id LEFT JOIN cod_transfers t ON t.order_id = o.id
         WHERE o.payment_method = ${ON_DELIVERY} AND o.payment_status = 'paid' AND o.delivered_at > ${new Date(now.getTime() - 90 * DAY_MS)}
         ORDER BY o.delivered_at DESC LIMIT 500`,
  );
  const lines = rows.map((r): CodLine => {
    const deliveredAt = new Date(r.delivered_at);
    const transfer =
      r.registry === null
        ? null
        : { registry: r.registry, paidOn: r.paid_on, paymentOrder: r.payment_order, commission: Number(r.commission), transferred: Number(r.transferred) };
    const overdue = now.getTime() - deliveredAt.getTime() > days * DAY_MS;
    return {
      code: r.code,
      carrier: r.carrier,
      deliveredAt: deliveredAt.toISOString(),
      collected: Number(r.collected ?? r.total),
      transfer,
      state: transfer ? 'transferred' : overdue ? 'overdue' : 'owed',
    };
  });
  const sum = (state: CodLine['state']) => lines.filter((l) => l.state === state).reduce((s, l) => s + l.collected, 0);
  return {
    lines,
    owed: sum('owed') + sum('overdue'),
    overdue: sum('overdue'),
    transferred: lines.reduce((s, l) => s + (l.transfer?.transferred ?? 0), 0),
    days,
  };
}

export const codActionSchema = z.object({ action: z.literal('reconcile') });

/** The console's «Сверить сейчас»: every carrier's registers read at once, audited; the confirmation's key. */
export async function reconcileNow(actor: Actor): Promise<string> {
  const marked = await reconcileTransfers();
  await audit(actor, 'cod.reconcile', 'delivery', 'registries', null, { marked });
  return 'reconciled';
}
