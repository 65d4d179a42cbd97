// The console's inbox of buyout requests (issue 24): a request goes new → in progress → offer sent →
// bought or declined, one operator works on it ("took it"), colleagues leave notes. Every change is one
// conditional UPDATE (two managers pressing at once: one wins, the other is told) and a line of the audit log.
import { sql, type SQL } from 'drizzle-orm';
import { z } from '~/lib/zod.ts';
import { likePattern, listCursorField, listSearchField } from '~/features/ops/ops.ts';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { BUYOUT_MOVES, BUYOUT_STATUSES, type BuyoutStatus, type Messenger } from './buyout.ts';

export const BUYOUT_PAGE_SIZE = 50;

/** The inbox's query string; a value that does not parse is dropped (a hand-edited link still shows the inbox). */
export const consoleBuyoutsQuerySchema = z.object({
  status: z.enum(BUYOUT_STATUSES).optional().catch(undefined),
  mine: z.literal('1').optional().catch(undefined),
  q: listSearchField(),
  after: listCursorField(),
});
export type ConsoleBuyoutsQuery = z.infer<typeof consoleBuyoutsQuerySchema>;

export interface ConsoleBuyout extends Record<string, unknown> {
  id: number;
  name: string;
  phone: string;
  messenger: Messenger;
  description: string;
  product_url: string;
  images: { url: string }[];
  status: BuyoutStatus;
  taken_by: number | null;
  taken_by_email: string | null;
  customer_id: number | null;
  customer_email: string | null;
  agreement_promo: boolean;
  created_at: Date;
  updated_at: Date;
}

const SELECT = sql`SELECT b.id, b.name, b.phone, b.messenger, b.description, b.product_url, b.images, b.status, b.taken_by,
    o.email AS taken_by_email, b.customer_id, c.email AS customer_email, b.agreement_promo, b.created_at, b.updated_at
  FROM buyout_requests b LEFT JOIN operators o ON o.id = b.taken_by LEFT JOIN customers c ON c.id = b.customer_id`;

function conditions(query: ConsoleBuyoutsQuery, operatorId: number): SQL[] {
  const where: SQL[] = [];
  if (query.mine) where.push(sql`b.taken_by = ${operatorId}`);
  const q = query.q?.trim();
  if (q) {
    const number = /^№?\s*(\d{1,9})$/.exec(q);
    const digits = q.replace(/\D/g, '');
    if (number) where.push(sql`b.id = ${Number(number[1])}`);
    else if (/^[\d\s()+-]+$/.test(q) && digits.length >= 4) where.push(sql`regexp_replace(b.phone, '\\D', '', 'g') LIKE ${likePattern(digits)}`);
    else where.push(sql`lower(b.name || ' ' || b.description || ' ' || b.product_url) LIKE ${likePattern(q)}`);
  }
  return where;
}

const joined = (parts: SQL[]) => (parts.length === 0 ? sql`TRUE` : sql.join(parts, sql` AND `));

export async function consoleBuyouts(query: ConsoleBuyoutsQuery, operatorId: number) {
  const db = await getDb();
  const shared = conditions(query, operatorId);
  const listed = [...shared, ...(query.status ? [sql`b.status = ${query.status}`] : []), ...(query.after ? [sql`b.id < ${query.after}`] : [])];
  const [rows, counted] = await Promise.all([
    selectRows<ConsoleBuyout>(db, sql`${SELECT} WHERE ${joined(listed)} ORDER BY b.id DESC LIMIT ${BUYOUT_PAGE_SIZE + 1}`),
    selectRows<{ status: BuyoutStatus; n: number }>(
      db,
      sql`SELECT b.status, count(*)::int AS n FROM buyout_requests b WHERE ${joined(shared)} GROUP BY b.status`,
    ),
  ]);
  const counts = Object.fromEntries(BUYOUT_STATUSES.map((s) => [s, 0])) as Record<BuyoutStatus, number>;
  for (const row of counted) if (row.status in counts) counts[row.status] = Number(row.n);
  const more = rows.length > BUYOUT_PAGE_SIZE;
  const page = rows.slice(0, BUYOUT_PAGE_SIZE);
  return { rows: page, counts, next: more ? (page.at(-1)?.id ?? null) : null };
}

export async function buyoutById(id: number): Promise<ConsoleBuyout | null> {
  const [row] = await selectRows<ConsoleBuyout>(await getDb(), sql`${SELECT} WHERE b.id = ${id}`);
  return row ?? null;
}

export const buyoutActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('take') }),
  z.object({ action: z.literal('move'), status: z.enum(BUYOUT_STATUSES) }),
  z.object({ action: z.literal('note'), note: z.string().trim().min(1, 'validation.required').max(2000, 'validation.tooLong') }),
]);
export type BuyoutAction = z.infer<typeof buyoutActionSchema>;

/** Carries out one of the request page's actions; what the page confirms. */
export async function buyoutAction(id: number, action: BuyoutAction, actor: Actor): Promise<'taken' | 'moved' | 'note'> {
  const before = await buyoutById(id);
  if (!before) throw new HttpError(404, 'error.notFound');
  const db = await getDb();
  const key = String(id);
  if (action.action === 'note') {
    await audit(actor, 'buyout.note', 'buyout', key, null, { note: action.note });
    return 'note';
  }
  if (action.action === 'take') {
    if (BUYOUT_MOVES[before.status].length === 0) throw new HttpError(409, 'ops.buyout.closed');
    // Taking a new request starts the work on it.
    const status: BuyoutStatus = before.status === 'new' ? 'in_progress' : before.status;
    const [row] = await selectRows<{ id: number }>(
      db,
      sql`UPDATE buyout_requests SET taken_by = ${actor.operatorId}, status = ${status}, updated_at = now()
          WHERE id = ${id} AND status = ${before.status} AND taken_by IS NOT DISTINCT FROM ${before.taken_by} RETURNING id`,
    );
    if (!row) throw new HttpError(409, 'ops.buyout.changed');
    await audit(actor, 'buyout.take', 'buyout', key, { status: before.status, taken_by: before.taken_by_email }, { status, taken_by: actor.name });
    return 'taken';
  }
  const to = action.status;
  if (!BUYOUT_MOVES[before.status].includes(to)) throw new HttpError(409, 'ops.buyout.cannotMove', undefined, undefined, { from: before.status, to });
  // Whoever moves a request nobody took has taken it.
  const [row] = await selectRows<{ id: number }>(
    db,
    sql`UPDATE buyout_requests SET status = ${to}, taken_by = coalesce(taken_by, ${actor.operatorId}), updated_at = now()
        WHERE id = ${id} AND status = ${before.status} RETURNING id`,
  );
  if (!row) throw new HttpError(409, 'ops.buyout.changed');
  await audit(actor, 'buyout.status', 'buyout', key, { status: before.status }, { status: to });
  return 'moved';
}
