// The console's gift certificates (issue 56, managers): every certificate with its balance, state and the
// orders it paid; the nominal values the purchase page offers; voiding one (a lost or disputed code).
// Each change is audited (object 'gift').
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import type { z } from '~/lib/zod.ts';
import { normalizeGiftCode } from './promotions.gifts.ts';
import type { giftNominalActionSchema } from './promotions.gifts.schema.ts';

export const GIFTS_PAGE_SIZE = 50;

/** The audit log's object of every change here: the console's one page shows them all. */
export const GIFTS_AUDIT_ID = 'certificates';

export interface ConsoleCertificate extends Record<string, unknown> {
  id: number;
  code: string;
  nominal: number;
  balance: number;
  status: 'pending' | 'active' | 'void';
  expired: boolean;
  expires_at: Date | string | null;
  created_at: Date | string;
  recipient_email: string;
  buyer_email: string;
  purchase_code: string;
  uses: { order_code: string; amount: number; returned: number }[];
}

/** Certificates, newest first, found by code (as typed, with or without dashes) or an e-mail; and the totals. */
export async function consoleCertificates(q: string, page: number) {
  const db = await getDb();
  const code = normalizeGiftCode(q);
  const email = q.trim().toLowerCase();
  const where = q.trim()
    ? sql`WHERE c.code = ${code} OR c.recipient_email = ${email} OR o.contact_email = ${email} OR o.code = ${q.trim().toUpperCase()}`
    : sql``;
  const rows = await selectRows<ConsoleCertificate>(
    db,
    sql`SELECT c.id, c.code, c.nominal, c.balance, c.status, coalesce(c.expires_at <= now(), false) AS expired, c.expires_at, c.created_at,
               c.recipient_email, o.contact_email AS buyer_email, o.code AS purchase_code,
               coalesce((SELECT json_agg(json_build_object('order_code', g.code, 'amount', u.amount, 'returned', u.returned) ORDER BY u.id)
                           FROM gift_certificate_uses u JOIN orders g ON g.id = u.order_id WHERE u.certificate_id = c.id), '[]'::json) AS uses
          FROM gift_certificates c JOIN orders o ON o.id = c.order_id ${where}
         ORDER BY c.id DESC LIMIT ${GIFTS_PAGE_SIZE + 1} OFFSET ${(page - 1) * GIFTS_PAGE_SIZE}`,
  );
  const [totals] = await selectRows<{ sold: number; left: number }>(
    db,
    sql`SELECT coalesce(sum(nominal), 0)::bigint AS sold, coalesce(sum(balance) FILTER (WHERE status = 'active' AND (expires_at IS NULL OR expires_at > now())), 0)::bigint AS left
          FROM gift_certificates WHERE status <> 'pending'`,
  );
  return {
    rows: rows.slice(0, GIFTS_PAGE_SIZE).map((r) => ({ ...r, id: Number(r.id), nominal: Number(r.nominal), balance: Number(r.balance) })),
    more: rows.length > GIFTS_PAGE_SIZE,
    sold: Number(totals?.sold ?? 0),
    left: Number(totals?.left ?? 0),
  };
}

/** Adds or removes a nominal value on sale, or voids a certificate. Answers the confirmation's key part. */
export async function giftAction(action: z.output<typeof giftNominalActionSchema>, actor: Actor): Promise<string> {
  const db = await getDb();
  if (action.action === 'add') {
    const amount = action.roubles * 100;
    await db.execute(sql`INSERT INTO gift_nominals (amount) VALUES (${amount}) ON CONFLICT (amount) DO NOTHING`);
    await audit(actor, 'gift.nominal.add', 'gift', GIFTS_AUDIT_ID, null, { amount });
    return 'saved';
  }
  if (action.action === 'remove') {
    await db.execute(sql`DELETE FROM gift_nominals WHERE amount = ${action.amount}`);
    await audit(actor, 'gift.nominal.remove', 'gift', GIFTS_AUDIT_ID, { amount: action.amount }, null);
    return 'saved';
  }
  // Voided: nothing more may be spent (its balance stays on record; orders already paid keep their uses).
  const [voided] = await selectRows<{ code: string; balance: number }>(
    db,
    sql`UPDATE gift_certificates SET status = 'void' WHERE id = ${action.id} AND status = 'active' RETURNING code, balance`,
  );
  if (!voided) throw new HttpError(409, 'gift.void');
  await audit(
    actor,
    'gift.void',
    'gift',
    GIFTS_AUDIT_ID,
    { id: action.id, status: 'active' },
    { id: action.id, status: 'void', balance: Number(voided.balance) },
  );
  return 'voided';
}
