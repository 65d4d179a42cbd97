// The managers' console's view of orders (issue 24): the list with its filters, search, counts per status
// and pages that stay fast at 100,000 orders (keyset pagination on (created_at, id), indexes of migration
// 0014). Changes to an order still go through fulfilment/fulfilment.server.ts: one rule wherever a move comes from.
import { refuseShipment, registerShipment } from '~/features/delivery/delivery.shipments.server.ts';
import { sql, type SQL } from 'drizzle-orm';
import { z } from '~/lib/zod.ts';
import { likePattern, listSearchField } from '~/features/ops/ops.ts';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { DELIVERY_METHODS } from '~/features/checkout/checkout.schema.ts';
import type { Actor } from '~/features/ops/ops.audit.server.ts';
import { addOrderNote, markRefunded, operatorUpdate } from '../fulfilment/fulfilment.server.ts';
import type { OrderView } from '../orders/orders.server.ts';
import { canMove, mayShip, ORDER_STATUSES, type OrderStatus } from '../orders/orders.ts';

export const PAYMENT_STATUSES = ['unpaid', 'paid', 'refund_due', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const CONSOLE_PAGE_SIZE = 50;
/** Beyond this many orders a search's tabs are not counted. */
export const SEARCH_COUNT_CAP = 1000;

/**
 * A row's place in the list: `<created_at in µs>.<id>`, each within its column's range (a bigint of
 * microseconds, an integer id): a cursor past them would fail in the database, not match nothing.
 */
export const cursorField = z.string().refine((text) => {
  // One check, not a pattern then a refinement: zod runs a refinement on text its pattern refused.
  const parts = /^(\d{1,19})\.(\d{1,10})$/.exec(text);
  return parts !== null && BigInt(parts[1] as string) <= 9_223_372_036_854_775_807n && Number(parts[2]) <= 2_147_483_647;
});

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)));

/**
 * The list's query string. A value that does not parse is dropped, not refused: a filter link edited by hand
 * shows the list without that filter.
 */
export const consoleOrdersQuerySchema = z.object({
  status: z.enum(ORDER_STATUSES).optional().catch(undefined),
  payment: z.enum(PAYMENT_STATUSES).optional().catch(undefined),
  delivery: z.enum(DELIVERY_METHODS).optional().catch(undefined),
  from: day.optional().catch(undefined),
  to: day.optional().catch(undefined),
  q: listSearchField(),
  // The last row of the previous page: `<created_at in µs>.<id>`.
  after: cursorField.optional().catch(undefined),
});
export type ConsoleOrdersQuery = z.infer<typeof consoleOrdersQuerySchema>;

export interface ConsoleOrderRow extends Record<string, unknown> {
  id: number;
  code: string;
  status: OrderStatus;
  payment_status: PaymentStatus;
  delivery_method: (typeof DELIVERY_METHODS)[number];
  contact_name: string;
  contact_email: string;
  contact_phone: string;
  total: number;
  lines: number;
  created_at: Date;
  cursor: string;
}

export interface ConsoleOrdersPage {
  rows: ConsoleOrderRow[];
  /** Orders per status under the other filters (the tabs' numbers); null when a search matches too many to count. */
  counts: Record<OrderStatus, number> | null;
  /** The cursor of the next page, when there is one. */
  next: string | null;
}

/** The conditions of every filter but the status (the counts are per status). */
function conditions(query: ConsoleOrdersQuery): SQL[] {
  const where: SQL[] = [];
  if (query.payment) where.push(sql`o.payment_status = ${query.payment}`);
  if (query.delivery) where.push(sql`o.delivery_method = ${query.delivery}`);
  // Days are the shop's days: Moscow time.
  if (query.from) where.push(sql`o.created_at >= (${query.from}::date)::timestamp AT TIME ZONE 'Europe/Moscow'`);
  if (query.to) where.push(sql`o.created_at < (${query.to}::date + 1)::timestamp AT TIME ZONE 'Europe/Moscow'`);
  const q = query.q?.trim();
  if (q) {
    const code = /^bs-?(\d{8})$/i.exec(q);
    const digits = q.replace(/\D/g, '');
    if (code) where.push(sql`o.code = ${`BS-${code[1]}`}`);
    else if (/^[\d\s()+-]+$/.test(q) && digits.length >= 4) where.push(sql`${ORDER_SEARCH} LIKE ${likePattern(digits)}`);
    // The trigram index (migration 0014) serves words of three letters and more.
    else where.push(sql`${ORDER_SEARCH} LIKE ${likePattern(q)}`);
  }
  return where;
}

/** What search reads: the name, e-mail and the phone's digits (a stored column, migration 0015). */
const ORDER_SEARCH = sql.raw('o.search_text');

/** Every filter of the list, the status too. */
const listConditions = (query: ConsoleOrdersQuery) => [...conditions(query), ...(query.status ? [sql`o.status = ${query.status}`] : [])];

/**
 * A cursor's row as SQL: whole microseconds both ways (extract gives a numeric, the interval an exact
 * integer count), so a row sharing its time with the cursor's is neither skipped nor shown twice.
 */
function cursorRow(cursor: string): SQL {
  const [micros, id] = cursor.split('.');
  return sql`('epoch'::timestamptz + ${micros}::bigint * interval '1 microsecond', ${Number(id)})`;
}

const joined = (parts: SQL[]) => (parts.length === 0 ? sql`TRUE` : sql.join(parts, sql` AND `));

export async function consoleOrders(query: ConsoleOrdersQuery): Promise<ConsoleOrdersPage> {
  const db = await getDb();
  const shared = conditions(query);
  const listed = listConditions(query);
  if (query.after) listed.push(sql`(o.created_at, o.id) < ${cursorRow(query.after)}`);
  const [rows, counted] = await Promise.all([
    selectRows<ConsoleOrderRow>(
      db,
      sql`SELECT o.id, o.code, o.status, o.payment_status, o.delivery_method, o.contact_name, o.contact_email, o.contact_phone, o.total, o.created_at,
            (SELECT count(*)::int FROM order_lines l WHERE l.order_id = o.id) AS lines,
            (extract(epoch FROM o.created_at) * 1000000)::bigint::text || '.' || o.id AS cursor
          FROM orders o WHERE ${joined(listed)}
          ORDER BY o.created_at DESC, o.id DESC LIMIT ${CONSOLE_PAGE_SIZE + 1}`,
    ),
    // A search that matches thousands (a first name, a common surname) is not counted through: the tabs
    // say "more than" and the manager narrows it (docs/performance.md, "The console's order list").
    query.q
      ? selectRows<{ status: OrderStatus; n: number }>(
          db,
          sql`SELECT s.status, count(*)::int AS n FROM (SELECT o.status FROM orders o WHERE ${joined(shared)} LIMIT ${SEARCH_COUNT_CAP + 1}) s GROUP BY s.status`,
        )
      : selectRows<{ status: OrderStatus; n: number }>(db, sql`SELECT o.status, count(*)::int AS n FROM orders o WHERE ${joined(shared)} GROUP BY o.status`),
  ]);
  let counts: Record<OrderStatus, number> | null = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  for (const row of counted) counts[row.status] = Number(row.n);
  if (Object.values(counts).reduce((a, b) => a + b, 0) > SEARCH_COUNT_CAP) counts = null;
  const more = rows.length > CONSOLE_PAGE_SIZE;
  const page = rows.slice(0, CONSOLE_PAGE_SIZE);
  return { rows: page, counts, next: more ? (page.at(-1)?.cursor ?? null) : null };
}

/** How many orders under these filters came after the one a cursor names (the list's "new orders" notice). */
export async function newerOrders(query: ConsoleOrdersQuery, since: string): Promise<number> {
  const where = [...listConditions(query), sql`(o.created_at, o.id) > ${cursorRow(since)}`];
  const [row] = await selectRows<{ n: number }>(await getDb(), sql`SELECT count(*)::int AS n FROM orders o WHERE ${joined(where)}`);
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------- an order's page

const textLine = (max: number) => z.string().trim().min(1, 'validation.required').max(max, 'validation.invalid');

/** The order page's forms: one action each, through the same rules as the operator's calls. */
export const consoleOrderActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('move'), status: z.enum(ORDER_STATUSES), note: z.string().trim().max(200).default('') }),
  z.object({
    action: z.literal('tracking'),
    tracking_id: z
      .string()
      .trim()
      .regex(/^[\w-]{4,40}$/, 'ops.order.trackingInvalid'),
  }),
  z.object({ action: z.literal('event'), event_status: textLine(200), place: z.string().trim().max(200).default('') }),
  z.object({ action: z.literal('note'), note: textLine(2000) }),
  z.object({ action: z.literal('refunded') }),
  z.object({ action: z.literal('ship') }),
  z.object({ action: z.literal('refuse') }),
]);
export type ConsoleOrderAction = z.infer<typeof consoleOrderActionSchema>;

/** Carries out one of the page's actions; what the page confirms ('update', 'note', 'refunded'). */
export async function consoleOrderAction(
  code: string,
  action: ConsoleOrderAction,
  actor: Actor,
): Promise<'update' | 'note' | 'refunded' | 'shipped' | 'refused'> {
  switch (action.action) {
    case 'move':
      await operatorUpdate(code, { status: action.status, ...(action.note ? { note: action.note } : {}) }, actor);
      return 'update';
    case 'tracking':
      await operatorUpdate(code, { tracking_id: action.tracking_id }, actor);
      return 'update';
    case 'event':
      await operatorUpdate(code, { event: { status: action.event_status, place: action.place } }, actor);
      return 'update';
    case 'note':
      await addOrderNote(code, action.note, actor);
      return 'note';
    case 'refunded':
      await markRefunded(code, actor);
      return 'refunded';
    case 'ship':
      await registerShipment(code, actor);
      return 'shipped';
    case 'refuse':
      await refuseShipment(code, actor);
      return 'refused';
  }
}

/** The statuses an operator may move this order to now (orders.ts canMove; forward moves only once paid). */
export function consoleMoves(order: Pick<OrderView, 'status' | 'payment_status'>): OrderStatus[] {
  return ORDER_STATUSES.filter((to) => canMove(order.status, to) && (to === 'cancelled' || mayShip(order.payment_status)));
}
