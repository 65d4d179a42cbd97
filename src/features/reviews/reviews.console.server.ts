// The console's reviews (issue 57, managers): the queue, newest first; approve, reject with a reason the
// author sees, hide one already shown, reply under it. Each change is one conditional UPDATE (two managers at
// once: one wins, the other is told), a line of the audit log (object 'review'), and a mail to the author.
// Approving, hiding or replying to a shown review moves the product's figures and page (migration 0038).
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { t, type MessageKey } from '~/lib/i18n/index.ts';
import { loggableError, logger } from '~/lib/log.ts';
import { mailLayout, sendMail } from '~/lib/mail.server.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { reviewPath } from '~/features/orders/orders.server.ts';
import type { ReviewAction, ReviewTab } from './reviews.schema.ts';
import type { ReviewText } from './reviews.server.ts';

export const REVIEWS_QUEUE_SIZE = 30;

export interface ConsoleReview extends ReviewText, Record<string, unknown> {
  product_id: number;
  product_name: string;
  email: string;
  source: string;
  order_code: string | null;
  status: ReviewTab;
  reject_reason: string;
  created_at: Date;
}

/** One tab of the queue, newest first, with each tab's count. */
export async function reviewQueue(tab: ReviewTab, page: number) {
  const db = await getDb();
  const rows = await selectRows<ConsoleReview>(
    db,
    sql`SELECT r.id, r.product_id, p.name AS product_name, r.author, r.email, r.source, o.code AS order_code, r.rating, r.fit, r.size_label,
               r.liked, r.disliked, r.comment, r.photos, r.status, r.reject_reason, r.reply, r.created_at
          FROM reviews r JOIN products p ON p.id = r.product_id
          LEFT JOIN order_lines l ON l.id = r.order_line_id LEFT JOIN orders o ON o.id = l.order_id
         WHERE r.status = ${tab} AND r.source = 'customer'
         ORDER BY r.created_at DESC, r.id DESC LIMIT ${REVIEWS_QUEUE_SIZE + 1} OFFSET ${(page - 1) * REVIEWS_QUEUE_SIZE}`,
  );
  const counts = await selectRows<{ status: ReviewTab; n: number }>(
    db,
    sql`SELECT status, count(*) AS n FROM reviews WHERE source = 'customer' GROUP BY status`,
  );
  return {
    rows: rows.slice(0, REVIEWS_QUEUE_SIZE),
    more: rows.length > REVIEWS_QUEUE_SIZE,
    counts: Object.fromEntries(counts.map((c) => [c.status, Number(c.n)])) as Partial<Record<ReviewTab, number>>,
  };
}

/** Which statuses each action moves a review from, and to. */
const MOVES: Record<Exclude<ReviewAction['action'], 'reply'>, { from: ReviewTab[]; to: ReviewTab }> = {
  approve: { from: ['pending', 'rejected', 'hidden'], to: 'approved' },
  reject: { from: ['pending'], to: 'rejected' },
  hide: { from: ['approved'], to: 'hidden' },
};

/** Carries out a manager's action; answers the confirmation's key part. 409 when the review moved meanwhile. */
export async function moderateReview(action: ReviewAction, actor: Actor): Promise<string> {
  const db = await getDb();
  if (action.action === 'reply') {
    const done = await selectRows<{ id: number }>(
      db,
      sql`UPDATE reviews SET reply = ${action.reply}, updated_at = now() WHERE id = ${action.id} AND source = 'customer' RETURNING id`,
    );
    if (done.length === 0) throw new HttpError(404, 'error.notFound');
    await audit(actor, 'review.reply', 'review', String(action.id), null, { reply: action.reply });
    if (action.reply) void tellAuthor(action.id, 'reviews.mail.replied');
    return 'replied';
  }
  const move = MOVES[action.action];
  const reason = action.action === 'reject' ? action.reason : '';
  const done = await selectRows<{ id: number }>(
    db,
    sql`UPDATE reviews SET status = ${move.to}, reject_reason = ${reason}, updated_at = now(),
               published_at = CASE WHEN ${move.to} = 'approved' THEN coalesce(published_at, now()) ELSE published_at END
         WHERE id = ${action.id} AND source = 'customer' AND status = ANY(${sql.param(move.from)}::text[]) RETURNING id`,
  );
  if (done.length === 0) throw new HttpError(409, 'reviews.ops.moved');
  await audit(actor, `review.${action.action}`, 'review', String(action.id), null, { status: move.to, ...(reason ? { reason } : {}) });
  if (action.action !== 'hide') void tellAuthor(action.id, action.action === 'approve' ? 'reviews.mail.approved' : 'reviews.mail.rejected');
  return action.action === 'approve' ? 'approved' : action.action === 'reject' ? 'rejected' : 'hidden';
}

/** The author is told (in Russian) what became of their review; logged, never thrown. */
async function tellAuthor(id: number, key: MessageKey): Promise<void> {
  try {
    const [row] = await selectRows<{
      email: string;
      product_name: string;
      product_id: number;
      reject_reason: string;
      reply: string;
      order_code: string | null;
      line_id: number | null;
    }>(
      await getDb(),
      sql`SELECT r.email, p.name AS product_name, p.id AS product_id, r.reject_reason, r.reply, o.code AS order_code, r.order_line_id AS line_id
            FROM reviews r JOIN products p ON p.id = r.product_id
            LEFT JOIN order_lines l ON l.id = r.order_line_id LEFT JOIN orders o ON o.id = l.order_id WHERE r.id = ${id}`,
    );
    if (!row?.email) return;
    const title = t('ru', key, { product: row.product_name });
    const body = [
      key === 'reviews.mail.rejected' ? t('ru', 'reviews.mail.reason', { reason: row.reject_reason }) : '',
      key === 'reviews.mail.replied' ? row.reply : '',
    ].filter(Boolean);
    await sendMail({
      to: row.email,
      subject: title,
      // A rejected review is fixed on its order's review page; the others are seen on the product's.
      ...mailLayout(
        title,
        body.length > 0 ? body : [title],
        key === 'reviews.mail.rejected' && row.order_code
          ? { label: t('ru', 'reviews.write.edit'), url: new URL(await reviewPath(row.order_code, Number(row.line_id)), env().SITE_URL).href }
          : { label: t('ru', 'reviews.mail.action'), url: new URL(`/p/${row.product_id}/reviews`, env().SITE_URL).href },
      ),
    });
  } catch (error) {
    logger.error({ err: loggableError(error) }, 'review mail failed');
  }
}
