// Buying a gift certificate (issue 56): an order of its own kind — no goods, no delivery — whose payment is
// an advance (54-FZ); the certificate waits 'pending' until that payment succeeds (orders' markPaid makes it
// active and it is mailed). A repeated Idempotency-Key answers the first purchase.
import { sql } from 'drizzle-orm';
import { selectRows, type Db } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { newOrderCode } from '~/features/orders/orders.server.ts';
import type { GiftPurchaseInput } from '../promotions/promotions.gifts.schema.ts';
import { newGiftCode } from '../promotions/promotions.gifts.server.ts';

/** The nominal values on sale (kopecks, ascending): the console keeps them. */
export async function giftNominals(tx?: Pick<Db, 'execute'>): Promise<number[]> {
  const rows = await selectRows<{ amount: number }>(tx ?? (await getDb()), sql`SELECT amount FROM gift_nominals ORDER BY amount`);
  return rows.map((r) => Number(r.amount));
}

/** Places a certificate's purchase; its payment is the caller's to start (as an order's is). */
export async function buyCertificate(input: GiftPurchaseInput, customerId: number | null, idempotencyKey: string): Promise<{ code: string; created: boolean }> {
  const db = await getDb();
  const [known] = await selectRows<{ code: string; customer_id: number | null }>(
    db,
    sql`SELECT code, customer_id FROM orders WHERE idempotency_key = ${idempotencyKey}`,
  );
  if (known) {
    if (known.customer_id !== customerId) throw new HttpError(409, 'checkout.keyInUse');
    return { code: known.code, created: false };
  }
  const code = newOrderCode();
  const seconds = Math.round(env().PAYMENT_TIMEOUT_MINUTES * 60);
  await db.transaction(async (tx) => {
    if (!(await giftNominals(tx)).includes(input.nominal)) throw new HttpError(422, 'error.validation', { nominal: ['gift.nominalUnknown'] });
    const [order] = await selectRows<{ id: number }>(
      tx,
      sql`INSERT INTO orders (code, customer_id, status, kind, contact_name, contact_phone, contact_email, delivery_address, items_total, total,
                              payment_status, delivery_method, payment_method, reserved_until, idempotency_key)
          VALUES (${code}, ${customerId}, 'pending', 'certificate', ${input.contact.name}, ${input.contact.phone}, ${input.contact.email.toLowerCase()},
                  ${JSON.stringify({ city: '', address: '', postcode: '', comment: '' })}::jsonb, ${input.nominal}, ${input.nominal},
                  'unpaid', 'email', ${input.payment}, now() + make_interval(secs => ${seconds}), ${idempotencyKey})
          RETURNING id`,
    );
    if (!order) throw new Error('order row missing');
    await tx.execute(
      sql`INSERT INTO gift_certificates (code, order_id, nominal, balance, recipient_email, recipient_name, sender_name, message)
          VALUES (${newGiftCode()}, ${order.id}, ${input.nominal}, ${input.nominal}, ${input.recipient.email.toLowerCase()}, ${input.recipient.name},
                  ${input.from}, ${input.message})`,
    );
    await tx.execute(sql`INSERT INTO order_status_history (order_id, status) VALUES (${order.id}, 'pending')`);
  });
  return { code, created: true };
}
