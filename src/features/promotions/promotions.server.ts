// Promotions in the database (issue 56, migration 0035): the automatic ones in force, a code's checks with
// the reason a shopper is refused, and its uses counted under locks so that a limit holds under concurrent
// checkouts and a cancelled order gives its use back once. The pricing itself is promotions.ts.
import { sql } from 'drizzle-orm';
import { selectRows, type Db } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import type { MessageKey } from '~/lib/i18n/index.ts';
import { countFailure, refuseWhileBlocked, type Limit } from '~/lib/http/rate-limit.server.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { formatPrice } from '~/lib/format.ts';
import { applies, type PricedCartLine, type Promotion, type PromotionRule, type PromotionTarget } from './promotions.ts';

type Tx = Pick<Db, 'execute'>;

/** A promotion's columns as read (the console's list adds its own). */
export interface PromotionFields {
  id: number;
  name: string;
  rule: PromotionRule;
  target: PromotionTarget;
  cap: number | null;
  needs_code: boolean;
  starts_at: string | null;
  ends_at: string | null;
  limit_total: number | null;
  limit_per_customer: number | null;
  uses: number;
}

type PromotionRow = PromotionFields & Record<string, unknown>;

const toPromotion = (row: PromotionRow): Promotion => ({
  id: Number(row.id),
  name: row.name,
  rule: row.rule,
  target: row.target,
  cap: row.cap === null ? null : Number(row.cap),
  needsCode: row.needs_code,
});

/**
 * Automatic promotions are read at most this often per process: a sale that starts or ends shows in the
 * prices within this many milliseconds (the console's own writes forget the list at once).
 */
const FRESH_MS = 2_000;
let automatic: { at: number; list: Promise<Promotion[]> } | undefined;

/**
 * The automatic promotions in force now (active, inside their dates, needing no code). Inside a transaction
 * the caller passes it: PGlite's one connection would wait for the transaction that waits for this.
 */
export function automaticPromotions(tx?: Tx): Promise<Promotion[]> {
  if (!automatic || Date.now() - automatic.at > FRESH_MS) {
    const list = (async () => readAutomaticPromotions(tx ?? (await getDb())))();
    automatic = { at: Date.now(), list };
    list.catch(() => (automatic = undefined));
  }
  return automatic.list;
}

/** The automatic promotions in force now, read from the database (the catalogue's index reads them so, with its version). */
export async function readAutomaticPromotions(tx: Tx): Promise<Promotion[]> {
  return (
    await selectRows<PromotionRow>(
      tx,
      sql`SELECT * FROM promotions
           WHERE status = 'active' AND NOT needs_code
             AND (starts_at IS NULL OR starts_at <= now()) AND (ends_at IS NULL OR ends_at > now())
             AND (limit_total IS NULL OR uses < limit_total)
           ORDER BY id`,
    )
  ).map(toPromotion);
}

/** After a promotion is written: the next price reads them again. */
export function forgetPromotions(): void {
  automatic = undefined;
}

/**
 * Codes guessed from one address: 20 unknown codes in 10 minutes, then the summary and placement answer 429
 * with Retry-After to any code from it until the window ends (docs/api.md). Only unknown codes count: a
 * shopper retyping an expired one is not guessing.
 */
export const guessLimit = (address: string): Limit => ({ key: `promo:ip:${address}`, max: 20, windowSeconds: 600 });

/** A code as it is kept: upper case, no spaces around (shoppers type «summer20» for «SUMMER20»). */
export const normalizeCode = (raw: string): string => raw.trim().toUpperCase();

/** The keys a buyer is known by for a per-customer limit: the account, or a guest's e-mail and phone. */
export function customerKeys(who: { customerId: number | null; email?: string | undefined; phone?: string | undefined }): string[] {
  if (who.customerId !== null) return [`c:${who.customerId}`];
  return [who.email ? `e:${who.email.trim().toLowerCase()}` : '', who.phone ? `p:${who.phone.replace(/\D/g, '')}` : ''].filter(Boolean);
}

export type CodeAnswer =
  | { ok: true; promotion: Promotion; codeId: number; code: string; limitPerCustomer: number | null }
  | { ok: false; reason: MessageKey; params?: Record<string, string | number> };

interface CodeRow extends PromotionRow {
  code_id: number;
  code_limit: number | null;
  code_uses: number;
  status: string;
  started: boolean;
  ended: boolean;
}

/** The goods a threshold of this rule counts: the lines it applies to. */
const eligibleGoods = (promotion: Promotion, lines: readonly PricedCartLine[]) =>
  lines.reduce((s, l) => s + (applies(promotion.target, l) ? l.unitPrice * l.quantity : 0), 0);

/**
 * Whether a code applies to these lines for this buyer now, or why not (the reason in the shopper's
 * language: unknown, not yet, expired, used up, used by this buyer, nothing in the cart, under the minimum).
 */
export async function checkCode(tx: Tx, raw: string, keys: readonly string[], lines: readonly PricedCartLine[]): Promise<CodeAnswer> {
  const [row] = await selectRows<CodeRow>(
    tx,
    sql`SELECT p.*, c.id AS code_id, c.limit_total AS code_limit, c.uses AS code_uses,
               (p.starts_at IS NULL OR p.starts_at <= now()) AS started, (p.ends_at IS NOT NULL AND p.ends_at <= now()) AS ended
          FROM promotion_codes c JOIN promotions p ON p.id = c.promotion_id
         WHERE c.code = ${normalizeCode(raw)}`,
  );
  if (!row || row.status !== 'active') return { ok: false, reason: 'promo.unknown' };
  if (!row.started) return { ok: false, reason: 'promo.notYet', params: { date: new Date(row.starts_at ?? 0).toLocaleDateString('ru-RU') } };
  if (row.ended) return { ok: false, reason: 'promo.expired' };
  if ((row.code_limit !== null && row.code_uses >= row.code_limit) || (row.limit_total !== null && row.uses >= row.limit_total))
    return { ok: false, reason: 'promo.limit' };
  if (row.limit_per_customer !== null && keys.length > 0 && (await usesBy(tx, Number(row.id), keys)) >= row.limit_per_customer)
    return { ok: false, reason: 'promo.perCustomer' };
  const promotion = toPromotion(row);
  if (!lines.some((l) => applies(promotion.target, l))) return { ok: false, reason: 'promo.nothingApplies' };
  const { rule } = promotion;
  const threshold = rule.kind === 'order_percent' || rule.kind === 'order_amount' || rule.kind === 'delivery' ? rule.threshold : 0;
  if (eligibleGoods(promotion, lines) < threshold) return { ok: false, reason: 'promo.minimum', params: { amount: formatPrice(threshold) } };
  return { ok: true, promotion, codeId: Number(row.code_id), code: normalizeCode(raw), limitPerCustomer: row.limit_per_customer };
}

async function usesBy(tx: Tx, promotionId: number, keys: readonly string[]): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM promotion_uses
         WHERE promotion_id = ${promotionId} AND released_at IS NULL
           AND customer_keys && ARRAY[${sql.join(
             keys.map((k) => sql`${k}`),
             sql`, `,
           )}]::text[]`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Takes one use of an accepted code for an order, inside the order's transaction: the code's and the
 * promotion's counters rise only while under their limits (a row lock each, so 200 checkouts at once make
 * exactly the allowed number of orders), and a per-customer limit is counted under a lock on the buyer's
 * keys. Answers the reason when the last use went to another order meanwhile.
 */
export async function claimCode(tx: Tx, answer: Extract<CodeAnswer, { ok: true }>, orderId: number, keys: readonly string[]): Promise<MessageKey | null> {
  if (answer.limitPerCustomer !== null) {
    // In a fixed order, so two checkouts by one buyer never wait on each other in a circle.
    for (const key of [...keys].sort()) await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`promo:${answer.promotion.id}:${key}`}))`);
    if (keys.length > 0 && (await usesBy(tx, answer.promotion.id, keys)) >= answer.limitPerCustomer) return 'promo.perCustomer';
  }
  const [code] = await selectRows<{ id: number }>(
    tx,
    sql`UPDATE promotion_codes SET uses = uses + 1 WHERE id = ${answer.codeId} AND (limit_total IS NULL OR uses < limit_total) RETURNING id`,
  );
  if (!code) return 'promo.limit';
  const [promotion] = await selectRows<{ id: number }>(
    tx,
    sql`UPDATE promotions SET uses = uses + 1 WHERE id = ${answer.promotion.id} AND (limit_total IS NULL OR uses < limit_total) RETURNING id`,
  );
  if (!promotion) return 'promo.limit';
  await tx.execute(
    sql`INSERT INTO promotion_uses (promotion_id, code_id, order_id, customer_keys)
        VALUES (${answer.promotion.id}, ${answer.codeId}, ${orderId}, ARRAY[${sql.join(
          [...keys, ''].filter(Boolean).map((k) => sql`${k}`),
          sql`, `,
        )}]::text[])`,
  );
  return null;
}

/**
 * Gives an order's uses back (a cancelled or unpaid order), once: the uses not yet released are marked
 * and only those counted back, under the order's lock held by the caller.
 */
export async function releaseUses(tx: Tx, orderId: number): Promise<number> {
  const released = await selectRows<{ promotion_id: number; code_id: number | null }>(
    tx,
    sql`UPDATE promotion_uses SET released_at = now() WHERE order_id = ${orderId} AND released_at IS NULL RETURNING promotion_id, code_id`,
  );
  for (const use of released) {
    await tx.execute(sql`UPDATE promotions SET uses = uses - 1 WHERE id = ${use.promotion_id} AND uses > 0`);
    if (use.code_id !== null) await tx.execute(sql`UPDATE promotion_codes SET uses = uses - 1 WHERE id = ${use.code_id} AND uses > 0`);
  }
  return released.length;
}

/**
 * Looks at the clock of the promotions' starts and ends (migration 0036): when an automatic promotion
 * started or ended since the last look, the catalogue's version moves and the CDN is purged, so the prices
 * shown follow within seconds though nothing was written at that moment. The promotions that passed one.
 */
export async function promotionsTick(): Promise<number> {
  const [row] = await selectRows<{ n: number }>(await getDb(), sql`SELECT promotions_tick() AS n`);
  const passed = Number(row?.n ?? 0);
  if (passed > 0) forgetPromotions();
  return passed;
}

/**
 * Prices with a shopper's code under the guessing limit (`guessLimit`): refused with 429 while the address is
 * blocked, and an unknown code counted — whether the pricing answers it (`wasUnknown`, the summary) or throws
 * it (placement's 409). Without a code, `run` alone.
 */
export async function underGuessLimit<T>(
  address: string,
  code: string | undefined,
  run: () => Promise<T>,
  wasUnknown: (value: T) => boolean = () => false,
): Promise<T> {
  if (!code) return run();
  const limit = guessLimit(address);
  await refuseWhileBlocked([limit]);
  try {
    const value = await run();
    if (wasUnknown(value)) await countFailure([limit]);
    return value;
  } catch (error) {
    // A gift certificate's unknown code counts the same (issue 56): one limit for guessing either.
    if (error instanceof HttpError && (error.messageKey === 'promo.unknown' || error.messageKey === 'gift.unknown')) await countFailure([limit]);
    throw error;
  }
}
