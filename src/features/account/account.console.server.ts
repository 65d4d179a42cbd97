// The console's customers (issue 24): search by e-mail, phone or name; a customer's page with their orders,
// balance and bonus with both ledgers, addresses and partner statistics; an admin's credit or debit (a new
// ledger line with the admin's reason, never an edit of one) and block or unblock of the login. Every
// change is a line of the audit log.
import { sql, type SQL } from 'drizzle-orm';
import { z } from '~/lib/zod.ts';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { formatPrice } from '~/lib/format.ts';
import { dashboardContent } from '~/features/auth/auth.server.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { likePattern, listCursorField, listSearchField, roleAllows, roublesField, type OperatorRole } from '~/features/ops/ops.ts';
import { BONUS_VALID_DAYS, type OrderStatus } from '~/features/orders/orders.ts';
import { partnerProgramme, type PartnerProgramme } from '~/features/partners/partners.server.ts';
import { listAddresses, type SavedAddress } from './account.server.ts';

export const CUSTOMERS_PAGE_SIZE = 50;

export const consoleCustomersQuerySchema = z.object({
  q: listSearchField(),
  after: listCursorField(),
});
export type ConsoleCustomersQuery = z.infer<typeof consoleCustomersQuerySchema>;

export interface ConsoleCustomerRow extends Record<string, unknown> {
  id: number;
  email: string;
  phone: string;
  name: string;
  surname: string;
  blocked_at: Date | null;
  created_at: Date;
  orders: number;
}

function searchCondition(q: string | undefined): SQL | null {
  const text = q?.trim();
  if (!text) return null;
  const number = /^#\s*(\d{1,9})$/.exec(text);
  if (number) return sql`c.id = ${Number(number[1])}`;
  const digits = text.replace(/\D/g, '');
  if (/^[\d\s()+-]+$/.test(text) && digits.length >= 4) return sql`c.search_text LIKE ${likePattern(digits)}`;
  return sql`c.search_text LIKE ${likePattern(text)}`;
}

export async function consoleCustomers(query: ConsoleCustomersQuery) {
  const where = [searchCondition(query.q), query.after ? sql`c.id < ${query.after}` : null].filter((c): c is SQL => c !== null);
  const rows = await selectRows<ConsoleCustomerRow>(
    await getDb(),
    sql`SELECT c.id, c.email, c.phone, c.name, c.surname, c.blocked_at, c.created_at,
               (SELECT count(*)::int FROM orders o WHERE o.customer_id = c.id) AS orders
          FROM customers c WHERE ${where.length ? sql.join(where, sql` AND `) : sql`TRUE`}
          ORDER BY c.id DESC LIMIT ${CUSTOMERS_PAGE_SIZE + 1}`,
  );
  const more = rows.length > CUSTOMERS_PAGE_SIZE;
  const page = rows.slice(0, CUSTOMERS_PAGE_SIZE);
  return { rows: page, next: more ? (page.at(-1)?.id ?? null) : null };
}

export interface ConsoleLedgerLine extends Record<string, unknown> {
  id: number;
  kind: 'balance' | 'bonus';
  amount: number;
  reason: string;
  note: string;
  order_code: string | null;
  available_until: Date | null;
  created_at: Date;
}

export interface ConsoleCustomer {
  customer: ConsoleCustomerRow & { patronymic: string; referred_by_partner_id: number | null };
  money: Awaited<ReturnType<typeof dashboardContent>>;
  ledger: ConsoleLedgerLine[];
  orders: { code: string; status: OrderStatus; payment_status: string; total: number; created_at: Date }[];
  addresses: SavedAddress[];
  partner: PartnerProgramme | null;
}

/** Everything the customer's page shows; null when there is no such customer. */
export async function consoleCustomer(id: number): Promise<ConsoleCustomer | null> {
  const db = await getDb();
  const [customer] = await selectRows<ConsoleCustomer['customer']>(
    db,
    sql`SELECT c.id, c.email, c.phone, c.name, c.surname, c.patronymic, c.referred_by_partner_id, c.blocked_at, c.created_at,
               (SELECT count(*)::int FROM orders o WHERE o.customer_id = c.id) AS orders
          FROM customers c WHERE c.id = ${id}`,
  );
  if (!customer) return null;
  const [money, ledger, orders, addresses, hasPartner] = await Promise.all([
    dashboardContent(id),
    selectRows<ConsoleLedgerLine>(
      db,
      sql`SELECT * FROM (
            SELECT b.id, 'balance' AS kind, b.amount, b.reason, b.note, o.code AS order_code, NULL::timestamptz AS available_until, b.created_at
              FROM balance_ledger b LEFT JOIN orders o ON o.id = b.order_id WHERE b.customer_id = ${id}
            UNION ALL
            SELECT b.id, 'bonus', b.amount, b.reason, b.note, o.code, b.available_until, b.created_at
              FROM bonus_ledger b LEFT JOIN orders o ON o.id = b.order_id WHERE b.customer_id = ${id}
          ) l ORDER BY created_at DESC, id DESC LIMIT 200`,
    ),
    selectRows<ConsoleCustomer['orders'][number]>(
      db,
      sql`SELECT code, status, payment_status, total, created_at FROM orders WHERE customer_id = ${id} ORDER BY created_at DESC, id DESC LIMIT 100`,
    ),
    listAddresses(id),
    selectRows<{ id: number }>(db, sql`SELECT id FROM partners WHERE customer_id = ${id}`),
  ]);
  // Only a customer who opened the partner programme has statistics: looking must not enrol anyone.
  const partner = hasPartner.length > 0 ? await partnerProgramme(id) : null;
  return { customer, money, ledger, orders, addresses, partner };
}

/** Roubles as a manager types them ("1500", "1 500,50"), in kopecks; at most a million roubles at once. */
const roubles = roublesField('ops.customer.amountInvalid', { digits: 7, min: 1, max: 100_000_000 });

const reasonText = z.string().trim().min(3, 'ops.customer.reasonRequired').max(500, 'validation.tooLong');

export const customerActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('credit'), kind: z.enum(['balance', 'bonus']), amount: roubles, reason: reasonText }),
  z.object({ action: z.literal('debit'), kind: z.enum(['balance', 'bonus']), amount: roubles, reason: reasonText }),
  z.object({ action: z.literal('block'), reason: reasonText }),
  z.object({ action: z.literal('unblock') }),
  z.object({ action: z.literal('note'), note: z.string().trim().min(1, 'validation.required').max(2000, 'validation.tooLong') }),
]);
export type CustomerAction = z.infer<typeof customerActionSchema>;

/** Carries out one of the customer page's actions as this operator; what the page confirms. */
export async function customerAction(id: number, action: CustomerAction, actor: Actor, role: OperatorRole): Promise<string> {
  if (action.action !== 'note' && !roleAllows(role, 'admin')) throw new HttpError(403, 'ops.adminOnly');
  const db = await getDb();
  const key = String(id);
  const [exists] = await selectRows<{ id: number; blocked_at: Date | null }>(db, sql`SELECT id, blocked_at FROM customers WHERE id = ${id}`);
  if (!exists) throw new HttpError(404, 'error.notFound');
  switch (action.action) {
    case 'note':
      await audit(actor, 'customer.note', 'customer', key, null, { note: action.note });
      return 'note';
    case 'block': {
      if (exists.blocked_at) return 'blocked';
      await db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE customers SET blocked_at = now() WHERE id = ${id}`);
        // Signed-in devices lose the session at once: the block is not "from the next login".
        await tx.execute(sql`UPDATE sessions SET revoked_at = now() WHERE customer_id = ${id} AND revoked_at IS NULL`);
      });
      await audit(actor, 'customer.block', 'customer', key, { blocked: false }, { blocked: true, reason: action.reason });
      return 'blocked';
    }
    case 'unblock':
      if (!exists.blocked_at) return 'unblocked';
      await db.execute(sql`UPDATE customers SET blocked_at = NULL WHERE id = ${id}`);
      await audit(actor, 'customer.unblock', 'customer', key, { blocked: true }, { blocked: false });
      return 'unblocked';
    case 'credit':
    case 'debit': {
      const signed = action.action === 'credit' ? action.amount : -action.amount;
      const { before, after } = await db.transaction(async (tx) => {
        // The same lock checkout takes before it spends points or balance: neither can race this debit.
        await tx.execute(sql`SELECT id FROM customers WHERE id = ${id} FOR UPDATE`);
        const now = await dashboardContent(id, tx);
        const held = action.kind === 'balance' ? now.balance_amount : now.bonus_amount;
        if (signed < 0 && held + signed < 0)
          throw new HttpError(409, 'ops.customer.notEnough', undefined, undefined, { available: formatPrice(Math.max(0, held)) });
        const reason = signed > 0 ? 'manual' : 'correction';
        if (action.kind === 'balance')
          await tx.execute(sql`INSERT INTO balance_ledger (customer_id, amount, reason, note) VALUES (${id}, ${signed}, ${reason}, ${action.reason})`);
        else
          await tx.execute(
            sql`INSERT INTO bonus_ledger (customer_id, amount, reason, note, available_until)
                VALUES (${id}, ${signed}, ${reason}, ${action.reason}, ${signed > 0 ? sql`now() + make_interval(days => ${BONUS_VALID_DAYS})` : sql`NULL`})`,
          );
        return { before: held, after: held + signed };
      });
      await audit(actor, `customer.${action.action}`, 'customer', key, { [action.kind]: before }, { [action.kind]: after, reason: action.reason });
      return action.action;
    }
  }
}
