// Gift certificates in the database (issue 56, migration 0037; docs/promotions.md "Gift certificates"):
// the codes typed at checkout checked and spent under their rows' locks, given back when an order ends
// unsold or is refunded, and made active — and mailed — when their purchase is paid. Nothing here imports
// orders or payments: they call in.
import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { selectRows, type Db } from '~/lib/db/client.ts';
import { env } from '~/lib/env.ts';
import { formatPrice } from '~/lib/format.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { t, type MessageKey } from '~/lib/i18n/index.ts';
import { loggableError, logger } from '~/lib/log.ts';
import { mailLayout, sendMail } from '~/lib/mail.server.ts';
import { formatGiftCode, GIFT_CODE_LENGTH, GIFT_CODE_SIGNS, GIFT_VALID_MONTHS, normalizeGiftCode } from './promotions.gifts.ts';

type Tx = Pick<Db, 'execute'>;

/** A fresh code (31^16 ≈ 7·10^23 of them: guessing one is hopeless under the guessing limit). */
export const newGiftCode = (): string => Array.from({ length: GIFT_CODE_LENGTH }, () => GIFT_CODE_SIGNS[randomInt(GIFT_CODE_SIGNS.length)]).join('');

/** One typed code as the checkout answers it: applied (kopecks this order takes from it) or why not. */
export interface GiftAnswer {
  /** As typed, normalized (the signs only). */
  code: string;
  id: number | null;
  /** What is on it before this order. */
  balance: number;
  applied: number;
  reason: MessageKey | null;
  expires_at: string | null;
}

interface CertificateRow extends Record<string, unknown> {
  id: number;
  code: string;
  balance: number;
  status: 'pending' | 'active' | 'void';
  expired: boolean;
  expires_at: Date | string | null;
}

/**
 * The certificates typed, in the order typed (the same code twice counts once), each paying what is left of
 * `toPay` up to its balance. In placement (`lock`) their rows are locked in id order, so two orders spending
 * one certificate wait for each other and the second sees what the first left.
 */
export async function checkCertificates(
  tx: Tx,
  typed: readonly string[],
  toPay: number,
  options: { lock: boolean; onDelivery: boolean },
): Promise<GiftAnswer[]> {
  const codes = [...new Set(typed.map(normalizeGiftCode).filter(Boolean))];
  if (codes.length === 0) return [];
  const rows = await selectRows<CertificateRow>(
    tx,
    sql`SELECT id, code, balance, status, coalesce(expires_at <= now(), false) AS expired, expires_at FROM gift_certificates
         WHERE code IN (${sql.join(
           codes.map((c) => sql`${c}`),
           sql`, `,
         )}) ORDER BY id ${options.lock ? sql`FOR UPDATE` : sql``}`,
  );
  let rest = toPay;
  return codes.map((code) => {
    const row = rows.find((r) => r.code === code);
    const answer = (reason: MessageKey | null, applied = 0): GiftAnswer => ({
      code,
      id: row ? Number(row.id) : null,
      balance: row ? Number(row.balance) : 0,
      applied,
      reason,
      expires_at: row?.expires_at ? new Date(row.expires_at).toISOString() : null,
    });
    // A certificate not yet paid for is not one yet.
    if (!row || row.status === 'pending') return answer('gift.unknown');
    if (row.status === 'void') return answer('gift.void');
    if (row.expired) return answer('gift.expired');
    if (Number(row.balance) <= 0) return answer('gift.empty');
    if (options.onDelivery) return answer('gift.onlineOnly');
    if (rest <= 0) return answer('gift.notNeeded');
    const applied = Math.min(Number(row.balance), rest);
    rest -= applied;
    return answer(null, applied);
  });
}

/**
 * Spends the applied certificates on a placed order, inside its transaction (their rows locked by
 * checkCertificates): the balance falls only where it covers the use, so it never goes below 0.
 */
export async function spendCertificates(tx: Tx, orderId: number, answers: readonly GiftAnswer[]): Promise<void> {
  let position = 0;
  for (const a of answers) {
    if (a.applied <= 0 || a.id === null) continue;
    const spent = await selectRows(
      tx,
      sql`UPDATE gift_certificates SET balance = balance - ${a.applied} WHERE id = ${a.id} AND status = 'active' AND balance >= ${a.applied} RETURNING id`,
    );
    if (spent.length === 0) throw new HttpError(409, 'gift.changed');
    await tx.execute(
      sql`INSERT INTO gift_certificate_uses (certificate_id, order_id, position, amount) VALUES (${a.id}, ${orderId}, ${position}, ${a.applied})`,
    );
    position++;
  }
}

/**
 * Gives back to its certificates what an order took from them and has not yet given back (the order
 * cancelled, released unpaid, refused at the door or refunded whole): once, however often this runs —
 * `returned` rises to the use and the balance by as much, in one statement per use under its row's lock.
 */
export async function giveBackCertificates(tx: Tx, orderId: number): Promise<number> {
  const back = await selectRows<{ certificate_id: number; back: number }>(
    tx,
    sql`WITH due AS (SELECT id, certificate_id, amount - returned AS back FROM gift_certificate_uses
                      WHERE order_id = ${orderId} AND returned < amount ORDER BY id FOR UPDATE)
        UPDATE gift_certificate_uses u SET returned = u.amount, updated_at = now() FROM due WHERE u.id = due.id
        RETURNING due.certificate_id, due.back`,
  );
  for (const r of back) await tx.execute(sql`UPDATE gift_certificates SET balance = balance + ${r.back} WHERE id = ${r.certificate_id}`);
  return back.reduce((s, r) => s + Number(r.back), 0);
}

/** Gives back part of one use (a partial return's share of it): never more than is left of the use. */
export async function giveBackShare(tx: Tx, orderId: number, position: number, amount: number): Promise<number> {
  if (amount <= 0) return 0;
  const [row] = await selectRows<{ certificate_id: number; back: number }>(
    tx,
    sql`WITH due AS (SELECT id, certificate_id, least(${amount}, amount - returned) AS back FROM gift_certificate_uses
                      WHERE order_id = ${orderId} AND position = ${position} AND returned < amount FOR UPDATE)
        UPDATE gift_certificate_uses u SET returned = u.returned + due.back, updated_at = now() FROM due WHERE u.id = due.id
        RETURNING due.certificate_id, due.back`,
  );
  if (!row) return 0;
  await tx.execute(sql`UPDATE gift_certificates SET balance = balance + ${row.back} WHERE id = ${row.certificate_id}`);
  return Number(row.back);
}

/** An order's certificate uses, in the order applied: what receipts and pages show. */
export interface CertificateUse extends Record<string, unknown> {
  position: number;
  certificate_id: number;
  code: string;
  amount: number;
  returned: number;
  /** The order the certificate was bought with (its payment is the prepayment the goods' receipt settles). */
  purchase_order_id: number;
}

export async function certificateUses(tx: Tx, orderId: number): Promise<CertificateUse[]> {
  const rows = await selectRows<CertificateUse>(
    tx,
    sql`SELECT u.position, u.certificate_id, c.code, u.amount, u.returned, c.order_id AS purchase_order_id
          FROM gift_certificate_uses u JOIN gift_certificates c ON c.id = u.certificate_id
         WHERE u.order_id = ${orderId} ORDER BY u.position`,
  );
  return rows.map((r) => ({ ...r, position: Number(r.position), amount: Number(r.amount), returned: Number(r.returned) }));
}

/** The code as a page shows it to anyone but its holder's mail: the last four signs. */
export const maskedGiftCode = (code: string): string => `•••• ${code.slice(-4)}`;

/**
 * A certificate purchase is paid: its certificate becomes active with its balance, for GIFT_VALID_MONTHS.
 * Answers whether the order was a purchase (its certificate made active now or before).
 */
export async function activateCertificates(tx: Tx, orderId: number): Promise<boolean> {
  const rows = await selectRows(
    tx,
    sql`UPDATE gift_certificates SET status = 'active', activated_at = now(), expires_at = now() + make_interval(months => ${GIFT_VALID_MONTHS})
         WHERE order_id = ${orderId} AND status = 'pending' RETURNING id`,
  );
  return rows.length > 0;
}

interface PurchaseRow extends Record<string, unknown> {
  code: string;
  nominal: number;
  balance: number;
  status: string;
  recipient_email: string;
  recipient_name: string;
  sender_name: string;
  message: string;
  expires_at: Date | string | null;
  buyer_email: string;
}

/** The certificate a purchase order made; null for another order. */
export async function purchasedCertificate(
  tx: Tx,
  orderId: number,
): Promise<{ code: string; nominal: number; recipient_email: string; status: string } | null> {
  const [row] = await selectRows<PurchaseRow>(
    tx,
    sql`SELECT c.code, c.nominal, c.balance, c.status, c.recipient_email, c.recipient_name, c.sender_name, c.message, c.expires_at, o.contact_email AS buyer_email
          FROM gift_certificates c JOIN orders o ON o.id = c.order_id WHERE c.order_id = ${orderId}`,
  );
  return row ? { code: row.code, nominal: Number(row.nominal), recipient_email: row.recipient_email, status: row.status } : null;
}

const moscowDate = (at: Date | string) => new Intl.DateTimeFormat('ru-RU', { timeZone: 'Europe/Moscow', dateStyle: 'long' }).format(new Date(at));

/**
 * Mails a paid certificate: to its recipient the code, balance, expiry and the giver's words; to the buyer
 * the same code (they may print it) and where it went. In Russian; logged, never thrown.
 */
export async function mailCertificate(tx: Tx, orderId: number): Promise<void> {
  try {
    const [row] = await selectRows<PurchaseRow>(
      tx,
      sql`SELECT c.code, c.nominal, c.balance, c.status, c.recipient_email, c.recipient_name, c.sender_name, c.message, c.expires_at, o.contact_email AS buyer_email
            FROM gift_certificates c JOIN orders o ON o.id = c.order_id WHERE c.order_id = ${orderId} AND c.status = 'active'`,
    );
    if (!row) return;
    const l = (key: MessageKey, params?: Record<string, string | number>) => t('ru', key, params);
    const amount = formatPrice(Number(row.nominal));
    const facts = [
      l('mail.gift.code', { code: formatGiftCode(row.code) }),
      l('mail.gift.balance', { amount, date: row.expires_at ? moscowDate(row.expires_at) : '' }),
      l('mail.gift.howTo'),
    ];
    const action = { label: l('mail.gift.action'), url: new URL('/', env().SITE_URL).href };
    const title = l('mail.gift.title', { amount });
    const from = row.sender_name ? l('mail.gift.from', { name: row.sender_name }) : l('mail.gift.fromSomeone');
    const greeting = row.recipient_name ? l('mail.gift.hello', { name: row.recipient_name }) : '';
    const words = row.message ? [l('mail.gift.message', { message: row.message })] : [];
    await sendMail({ to: row.recipient_email, subject: title, ...mailLayout(title, [greeting, from, ...words, ...facts].filter(Boolean), action) });
    const paidTitle = l('mail.gift.paidTitle', { amount });
    await sendMail({
      to: row.buyer_email,
      subject: paidTitle,
      ...mailLayout(paidTitle, [l('mail.gift.paidText', { email: row.recipient_email }), ...facts], action),
    });
  } catch (error) {
    logger.error({ err: loggableError(error) }, 'certificate mail failed');
  }
}
