// The signed-in customer's own data (spec §3, §7; DESIGN §4 "data-level access"): every read and
// write names the customer from the session, so another customer's address or ledger is simply not found.
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { z } from '~/lib/zod.ts';
import { isUniqueViolation, selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { customerAddresses, customers, orders } from '~/lib/db/schema.ts';
import { notFound, validationFailed } from '~/lib/http/errors.ts';
import { t, type Locale, type MessageKey } from '~/lib/i18n/index.ts';
import { normalizeEmail, toUser } from '~/features/auth/auth.server.ts';
import type { User } from '~/features/auth/auth.ts';
import { statusLabelKey } from '~/features/orders/orders.ts';
import type { AddressFields, ledgerEntrySchema, savedAddressSchema } from './account.schema.ts';

// ---------------------------------------------------------------- profile

/** spec §7 update-customer-basic-info: the session says whose profile; an address in use by another account is refused. */
export async function updateProfile(
  customerId: number,
  input: { name: string; surname: string; patronymic: string; email: string; phone: string },
): Promise<User> {
  const db = await getDb();
  const email = normalizeEmail(input.email);
  const [taken] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.email, email), ne(customers.id, customerId)))
    .limit(1);
  if (taken) throw validationFailed({ email: ['auth.emailTaken'] });
  try {
    const [row] = await db
      .update(customers)
      .set({ name: input.name, surname: input.surname, patronymic: input.patronymic, email, phone: input.phone, updatedAt: sql`now()` })
      .where(eq(customers.id, customerId))
      .returning();
    if (!row) throw notFound();
    return toUser(row);
  } catch (error) {
    // Another account took the address between the check and the write.
    if (isUniqueViolation(error)) throw validationFailed({ email: ['auth.emailTaken'] });
    throw error;
  }
}

// ---------------------------------------------------------------- recent orders (the cart issue fills them)

export interface RecentOrder {
  code: string;
  status: string;
  status_label: string;
  total: number;
  created_at: string;
}

export async function recentOrders(customerId: number, locale: Locale, limit = 5): Promise<RecentOrder[]> {
  const db = await getDb();
  const rows = await db
    .select({ code: orders.code, status: orders.status, total: orders.total, createdAt: orders.createdAt })
    .from(orders)
    .where(eq(orders.customerId, customerId))
    .orderBy(desc(orders.createdAt))
    .limit(limit);
  return rows.map((r) => ({
    code: r.code,
    status: r.status,
    status_label: t(locale, statusLabelKey(r.status)),
    total: r.total,
    created_at: r.createdAt.toISOString(),
  }));
}

// ---------------------------------------------------------------- balance and bonus ledger

export type LedgerEntry = z.output<typeof ledgerEntrySchema>;

const REASONS: Record<string, MessageKey> = {
  order_payment: 'account.reason.orderPayment',
  order_bonus: 'account.reason.orderBonus',
  refund: 'account.reason.refund',
  top_up: 'account.reason.topUp',
  withdrawal: 'account.reason.withdrawal',
  expired: 'account.reason.expired',
  welcome: 'account.reason.welcome',
  review: 'account.reason.review',
  manual: 'account.reason.manual',
  correction: 'account.reason.correction',
};

export const LEDGER_PAGE_SIZE = 20;

/** Both ledgers, newest first, one page at a time. */
export async function ledger(
  customerId: number,
  options: { kind?: 'balance' | 'bonus' | undefined; page: number },
  locale: Locale,
): Promise<{ entries: LedgerEntry[]; total: number; page: number; last_page: number }> {
  const db = await getDb();
  const kinds = options.kind ? [options.kind] : ['balance', 'bonus'];
  const offset = (options.page - 1) * LEDGER_PAGE_SIZE;
  const rows = await selectRows<{
    id: number;
    kind: 'balance' | 'bonus';
    amount: number;
    reason: string;
    order_code: string | null;
    available_until: Date | string | null;
    created_at: Date | string;
    total: number | string;
  }>(
    db,
    sql`WITH entries AS (
          SELECT b.id, 'balance' AS kind, b.amount, b.reason, o.code AS order_code, NULL::timestamptz AS available_until, b.created_at
            FROM balance_ledger b LEFT JOIN orders o ON o.id = b.order_id WHERE b.customer_id = ${customerId}
          UNION ALL
          SELECT b.id, 'bonus' AS kind, b.amount, b.reason, o.code, b.available_until, b.created_at
            FROM bonus_ledger b LEFT JOIN orders o ON o.id = b.order_id WHERE b.customer_id = ${customerId}
        )
        SELECT *, count(*) OVER () AS total FROM entries
        WHERE kind IN (${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )})
        ORDER BY created_at DESC, id DESC LIMIT ${LEDGER_PAGE_SIZE} OFFSET ${offset}`,
  );
  const total = Number(rows[0]?.total ?? 0);
  return {
    entries: rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      amount: Number(r.amount),
      reason: r.reason,
      reason_label: t(locale, REASONS[r.reason] ?? 'account.reason.manual'),
      order_code: r.order_code,
      available_until: r.available_until ? new Date(r.available_until).toISOString() : null,
      created_at: new Date(r.created_at).toISOString(),
    })),
    total,
    page: options.page,
    last_page: Math.max(1, Math.ceil(total / LEDGER_PAGE_SIZE)),
  };
}

// ---------------------------------------------------------------- saved addresses

export type SavedAddress = z.output<typeof savedAddressSchema>;
/** Enough for home, work, parents and a few pickup friends; a bound keeps one account from filling the table. */
export const MAX_ADDRESSES = 20;

function toAddress(row: typeof customerAddresses.$inferSelect): SavedAddress {
  return {
    id: row.id,
    recipient: row.recipient,
    phone: row.phone,
    city: row.city,
    street: row.street,
    house: row.house,
    apartment: row.apartment,
    postcode: row.postcode,
    comment: row.comment,
    is_default: row.isDefault,
  };
}

export async function listAddresses(customerId: number): Promise<SavedAddress[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(customerAddresses)
    .where(eq(customerAddresses.customerId, customerId))
    .orderBy(desc(customerAddresses.isDefault), customerAddresses.id);
  return rows.map(toAddress);
}

const fields = (input: AddressFields) => ({
  recipient: input.recipient,
  phone: input.phone,
  city: input.city,
  street: input.street,
  house: input.house,
  apartment: input.apartment,
  postcode: input.postcode,
  comment: input.comment,
});

/**
 * Creates or edits an address. One default at most: the first address becomes it, and marking another
 * moves the mark, in one transaction.
 */
export async function saveAddress(customerId: number, input: AddressFields, id?: number): Promise<SavedAddress | 'limit'> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    // Serialises one customer's address writes, so two tabs cannot both pass the bound or both set a default.
    await tx.execute(sql`SELECT id FROM customers WHERE id = ${customerId} FOR UPDATE`);
    const existing = await tx.select({ id: customerAddresses.id }).from(customerAddresses).where(eq(customerAddresses.customerId, customerId));
    if (id === undefined && existing.length >= MAX_ADDRESSES) return 'limit' as const;
    if (id !== undefined && !existing.some((a) => a.id === id)) throw notFound();
    const makeDefault = input.is_default || existing.length === 0 || (id !== undefined && existing.length === 1);
    if (makeDefault) await tx.update(customerAddresses).set({ isDefault: false }).where(eq(customerAddresses.customerId, customerId));
    const [row] =
      id === undefined
        ? await tx
            .insert(customerAddresses)
            .values({ customerId, ...fields(input), isDefault: makeDefault })
            .returning()
        : await tx
            .update(customerAddresses)
            .set({ ...fields(input), ...(makeDefault ? { isDefault: true } : {}) })
            .where(and(eq(customerAddresses.id, id), eq(customerAddresses.customerId, customerId)))
            .returning();
    if (!row) throw notFound();
    return toAddress(row);
  });
}

/** Removes an address; when it was the default, the oldest remaining one takes the mark. */
export async function deleteAddress(customerId: number, id: number): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id FROM customers WHERE id = ${customerId} FOR UPDATE`);
    const [gone] = await tx
      .delete(customerAddresses)
      .where(and(eq(customerAddresses.id, id), eq(customerAddresses.customerId, customerId)))
      .returning({ isDefault: customerAddresses.isDefault });
    if (!gone) throw notFound();
    if (gone.isDefault) {
      await tx.execute(
        sql`UPDATE customer_addresses SET is_default = true WHERE id = (SELECT min(id) FROM customer_addresses WHERE customer_id = ${customerId})`,
      );
    }
  });
}

export async function setDefaultAddress(customerId: number, id: number): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id FROM customers WHERE id = ${customerId} FOR UPDATE`);
    const [found] = await tx
      .select({ id: customerAddresses.id })
      .from(customerAddresses)
      .where(and(eq(customerAddresses.id, id), eq(customerAddresses.customerId, customerId)));
    if (!found) throw notFound();
    await tx
      .update(customerAddresses)
      .set({ isDefault: sql`(${customerAddresses.id} = ${id})` })
      .where(eq(customerAddresses.customerId, customerId));
  });
}
