// The built-in test provider (issue 9, DESIGN §6): it behaves like a hosted payment page — the shop
// creates a payment and sends the shopper to /test-payment/{id}; the page takes one of the test cards
// (TEST_CARDS: success, declined, 3-D Secure) and settles the payment on the provider's side (the
// test_payments table), then sends the shopper back. The shop learns the outcome only by fetch().
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { cardDigits, cardScheme, expiryValid, luhnValid, TEST_3DS_CODE, TEST_CARDS } from './payments.ts';
import { receiptTotal } from './receipt.ts';
import { ProviderUnavailable, type CreatePayment, type PaymentProvider, type ProviderPayment, type ProviderStatus } from './provider.server.ts';

interface TestPaymentRow extends Record<string, unknown> {
  id: string;
  amount: number;
  description: string;
  return_url: string;
  status: string;
  reason: string | null;
}

function view(row: TestPaymentRow): ProviderPayment {
  // The shop sees a 3-D Secure step as still pending, as a real provider shows it.
  const status: ProviderStatus = row.status === 'succeeded' || row.status === 'canceled' ? row.status : 'pending';
  return { ref: row.id, status, amount: Number(row.amount), confirmationUrl: status === 'pending' ? `/test-payment/${row.id}` : null, reason: row.reason };
}

async function row(id: string): Promise<TestPaymentRow | null> {
  const db = await getDb();
  const [found] = await selectRows<TestPaymentRow>(db, sql`SELECT id, amount, description, return_url, status, reason FROM test_payments WHERE id = ${id}`);
  return found ?? null;
}

export const testProvider: PaymentProvider = {
  name: 'test',
  async create(request: CreatePayment) {
    const db = await getDb();
    const id = `tp_${randomBytes(12).toString('hex')}`;
    await db.execute(
      sql`INSERT INTO test_payments (id, idempotence_key, amount, description, return_url)
          VALUES (${id}, ${request.idempotenceKey}, ${request.amount}, ${request.description}, ${request.returnPath})
          ON CONFLICT (idempotence_key) DO NOTHING`,
    );
    const [made] = await selectRows<TestPaymentRow>(
      db,
      sql`SELECT id, amount, description, return_url, status, reason FROM test_payments WHERE idempotence_key = ${request.idempotenceKey}`,
    );
    if (!made) throw new Error('test payment missing');
    return view(made);
  },
  async fetch(ref: string) {
    const found = await row(ref);
    return found ? view(found) : null;
  },
  async refund({ ref, amount, idempotenceKey, receipt: lines }) {
    const db = await getDb();
    return db.transaction(async (tx) => {
      const [known] = await selectRows<{ id: string }>(tx, sql`SELECT id FROM test_receipts WHERE idempotence_key = ${idempotenceKey}`);
      if (known) return { ref: known.id };
      const [payment] = await selectRows<TestPaymentRow>(
        tx,
        sql`SELECT id, amount, description, return_url, status, reason FROM test_payments WHERE id = ${ref} FOR UPDATE`,
      );
      const [done] = await selectRows<{ sum: number | null }>(
        tx,
        sql`SELECT sum(amount)::int AS sum FROM test_receipts WHERE payment_id = ${ref} AND kind = 'refund'`,
      );
      // A succeeded payment's money, in one refund or in parts, never more than was paid; the receipt
      // adds up to the refund, as a real provider checks.
      const left = Number(payment?.amount ?? 0) - Number(done?.sum ?? 0);
      if (payment?.status !== 'succeeded' || amount <= 0 || amount > left || receiptTotal(lines) !== amount) throw new ProviderUnavailable('refund refused');
      const id = `tr_${randomBytes(12).toString('hex')}`;
      await tx.execute(
        sql`INSERT INTO test_receipts (id, payment_id, idempotence_key, kind, amount, items) VALUES (${id}, ${ref}, ${idempotenceKey}, 'refund', ${amount}, ${JSON.stringify(lines)}::jsonb)`,
      );
      if (amount === left) await tx.execute(sql`UPDATE test_payments SET reason = 'refunded', updated_at = now() WHERE id = ${ref}`);
      return { ref: id };
    });
  },
  async settle({ paymentRef, idempotenceKey, amount, lines }) {
    const db = await getDb();
    const [known] = await selectRows<{ id: string }>(db, sql`SELECT id FROM test_receipts WHERE idempotence_key = ${idempotenceKey}`);
    if (known) return { ref: known.id, status: 'succeeded' };
    const payment = await row(paymentRef);
    // A prepayment is settled whole, or an advance (a gift certificate) in parts: never more than was paid.
    const [settled] = await selectRows<{ sum: number | null }>(
      db,
      sql`SELECT sum(amount)::int AS sum FROM test_receipts WHERE payment_id = ${paymentRef} AND kind = 'settlement'`,
    );
    if (payment?.status !== 'succeeded' || receiptTotal(lines) !== amount || amount <= 0 || amount + Number(settled?.sum ?? 0) > Number(payment.amount))
      throw new ProviderUnavailable('receipt refused');
    const id = `trc_${randomBytes(12).toString('hex')}`;
    await db.execute(
      sql`INSERT INTO test_receipts (id, payment_id, idempotence_key, kind, amount, items) VALUES (${id}, ${paymentRef}, ${idempotenceKey}, 'settlement', ${amount}, ${JSON.stringify(lines)}::jsonb)
          ON CONFLICT (idempotence_key) DO NOTHING`,
    );
    const [made] = await selectRows<{ id: string }>(db, sql`SELECT id FROM test_receipts WHERE idempotence_key = ${idempotenceKey}`);
    if (!made) throw new Error('test receipt missing');
    // The test register registers at once.
    return { ref: made.id, status: 'succeeded' };
  },
  async receiptStatus(ref: string) {
    const [found] = await selectRows<{ id: string }>(await getDb(), sql`SELECT id FROM test_receipts WHERE id = ${ref}`);
    return found ? 'succeeded' : null;
  },
};

/** A receipt the test provider was sent, as its page lists it. */
export interface TestReceiptView {
  kind: 'settlement' | 'refund';
  amount: number;
  created_at: string;
  items: { description: string; quantity: number; unit: number; subject: string; mark?: string }[];
}

/** What the test payment page shows. */
export interface TestPaymentPage {
  id: string;
  amount: number;
  description: string;
  status: string;
  returnUrl: string;
  receipts: TestReceiptView[];
}

export async function testPaymentPage(id: string): Promise<TestPaymentPage | null> {
  const found = await row(id);
  if (!found) return null;
  const receipts = await selectRows<TestReceiptView & Record<string, unknown>>(
    await getDb(),
    sql`SELECT kind, amount, items, created_at FROM test_receipts WHERE payment_id = ${id} ORDER BY created_at, id`,
  );
  return {
    id: found.id,
    amount: Number(found.amount),
    description: found.description,
    status: found.status,
    returnUrl: found.return_url,
    receipts: receipts.map((r) => ({ ...r, amount: Number(r.amount), created_at: new Date(r.created_at).toISOString() })),
  };
}

export type PayAction =
  | { action: 'card'; card_number: string; expiry: string; cvc: string }
  | { action: 'code'; code: string }
  | { action: 'sbp' | 'sber_pay' | 'sber_pay_decline' | 'expire' | 'decline' };

/**
 * Settles a test payment as a bank would: a listed success card pays, the declined card and unknown
 * cards are refused, the 3-D Secure card asks for a code first. Answers the payment's status after.
 */
export async function payTestPayment(id: string, input: PayAction): Promise<{ status: string; returnUrl: string }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [found] = await selectRows<TestPaymentRow>(
      tx,
      sql`SELECT id, amount, description, return_url, status, reason FROM test_payments WHERE id = ${id} FOR UPDATE`,
    );
    if (!found) throw new HttpError(404, 'error.notFound');
    // Settled once: a second press of the button changes nothing.
    if (found.status === 'succeeded' || found.status === 'canceled') return { status: found.status, returnUrl: found.return_url };
    let next: { status: string; reason?: string; last4?: string };
    if (input.action === 'card') {
      const digits = cardDigits(input.card_number);
      if (!luhnValid(digits) || !cardScheme(digits)) throw new HttpError(422, 'error.validation', { card_number: ['payment.cardInvalid'] });
      if (!expiryValid(input.expiry)) throw new HttpError(422, 'error.validation', { expiry: ['payment.expiryInvalid'] });
      if (!/^\d{3}$/.test(input.cvc)) throw new HttpError(422, 'error.validation', { cvc: ['payment.cvcInvalid'] });
      const card = TEST_CARDS.find((c) => c.number === digits);
      const last4 = digits.slice(-4);
      if (card?.outcome === 'success') next = { status: 'succeeded', last4 };
      else if (card?.outcome === '3ds') next = { status: 'challenge', last4 };
      else next = { status: 'canceled', reason: card ? 'insufficient_funds' : 'card_not_supported', last4 };
    } else if (input.action === 'code') {
      if (found.status !== 'challenge') throw new HttpError(409, 'payment.noChallenge');
      next = input.code === TEST_3DS_CODE ? { status: 'succeeded' } : { status: 'canceled', reason: '3d_secure_failed' };
    } else if (input.action === 'sbp' || input.action === 'sber_pay') next = { status: 'succeeded' };
    // SberPay's outcomes as YooKassa reports them: refused in the bank's app, or not confirmed in its hour.
    else if (input.action === 'sber_pay_decline') next = { status: 'canceled', reason: 'canceled_by_payer' };
    else if (input.action === 'expire') next = { status: 'canceled', reason: 'expired_on_confirmation' };
    else next = { status: 'canceled', reason: 'canceled_by_payer' };
    await tx.execute(
      sql`UPDATE test_payments SET status = ${next.status}, reason = ${next.reason ?? null}, card_last4 = coalesce(${next.last4 ?? null}, card_last4),
                 updated_at = now() WHERE id = ${id}`,
    );
    return { status: next.status, returnUrl: found.return_url };
  });
}
