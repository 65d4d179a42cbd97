// Payment on delivery (issue 55, docs/payments.md "Payment on delivery"): whether an order may be paid at
// the door or the pickup point, by the owner's rules — the shop offers it (PAY_ON_DELIVERY), the delivery
// is by a carrier whose point takes payment, the total is within COD_MAX_TOTAL, and the shopper has not
// refused too many such orders (counted from the shop's own delivery results: an order paid on delivery
// that came back is one refused) — and the carrier's fee for taking the money when the shop passes it on.
import { sql } from 'drizzle-orm';
import { selectRows, type Db } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { formatPrice } from '~/lib/format.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { ON_DELIVERY } from '~/features/orders/orders.ts';
import { codFee, codReasonKey, type CodReason } from './payments.on-delivery.ts';

/** A shopper's orders paid on delivery that ended: how many, and how many were refused at the door. */
export interface CodRecord {
  ended: number;
  refused: number;
}

/** Who is ordering: a customer, or a guest known by the e-mail. */
export interface Shopper {
  customerId: number | null;
  email: string | undefined;
}

/** How the shopper's orders paid on delivery ended (a customer's own, and any placed with the same e-mail). */
export async function codRecord(who: Shopper, db: Pick<Db, 'execute'> | null = null): Promise<CodRecord> {
  if (who.customerId === null && !who.email) return { ended: 0, refused: 0 };
  const [row] = await selectRows<{ ended: number; refused: number }>(
    db ?? (await getDb()),
    sql`SELECT count(*) FILTER (WHERE status IN ('delivered', 'returned'))::int AS ended, count(*) FILTER (WHERE status = 'returned')::int AS refused
          FROM orders
         WHERE payment_method = ${ON_DELIVERY}
           AND (customer_id = ${who.customerId ?? -1} OR lower(contact_email) = ${(who.email ?? '').toLowerCase()})`,
  );
  return { ended: row?.ended ?? 0, refused: row?.refused ?? 0 };
}

/** Refused often enough to pay online only: COD_REFUSALS_LIMIT orders, or COD_REFUSALS_SHARE % of four or more. */
export function overRefusals(record: CodRecord): boolean {
  const e = env();
  return record.refused >= e.COD_REFUSALS_LIMIT || (record.ended >= 4 && record.refused * 100 >= e.COD_REFUSALS_SHARE * record.ended);
}

export interface CodAnswer {
  available: boolean;
  reason: CodReason | null;
  /** The fee added to what is collected, when the order is paid so (kopecks). */
  fee: number;
}

export interface CodQuestion {
  /** The carrier delivery chosen (null: a fixed method), and whether its point takes payment (undefined: not chosen or not known). */
  carrier: { mode: 'pickup' | 'postamat' | 'courier'; pointTakes: boolean | undefined } | null;
  /** What would be collected before the fee (kopecks). */
  amount: number;
  who: Shopper;
  /** At placement a point that cannot be checked is refused; the summary leaves it open until one is chosen. */
  strict: boolean;
}

/** Whether this order may be paid on delivery, the reason it may not, and the fee. */
export async function onDeliveryAnswer(q: CodQuestion, db: Pick<Db, 'execute'> | null = null): Promise<CodAnswer> {
  const e = env();
  const no = (reason: CodReason): CodAnswer => ({ available: false, reason, fee: 0 });
  if (!e.PAY_ON_DELIVERY) return no('off');
  if (!q.carrier) return no('notCarrier');
  if (q.carrier.pointTakes === false || (q.strict && q.carrier.pointTakes === undefined)) return no('point');
  const fee = codFee(q.amount, e.COD_FEE_PERCENT);
  if (q.amount + fee > e.COD_MAX_TOTAL * 100) return no('overLimit');
  if (overRefusals(await codRecord(q.who, db))) return no('refusals');
  return { available: true, reason: null, fee };
}

/** Placement's refusal of payment on delivery: the `payment` field's reason, in the request's language. */
export function codRefused(reason: CodReason): HttpError {
  return new HttpError(422, 'error.validation', { payment: [codReasonKey(reason)] }, undefined, { limit: formatPrice(env().COD_MAX_TOTAL * 100) });
}
