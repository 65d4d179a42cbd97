// Shoppers' personal data on request (152-ФЗ, issue 54; docs/operations.md "Personal data"): the consents
// given and withdrawn, recorded with the policy text's version; a customer's (or, through the console, a
// guest's) data as one file; an account deleted by its owner — the person's name, contacts and addresses
// erased, the orders and ledgers kept for accounting without them, the sessions ended, the newsletter
// dropped; marketing consent withdrawn from the dashboard or a mail's footer.
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import policyText from '~/content/info/5-personal-data.md?raw';
import { selectRows, type Db } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { HttpError } from '~/lib/http/errors.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';
import { verifyPassword } from '~/features/auth/auth.passwords.server.ts';
import { audit, type Actor } from '~/features/ops/ops.audit.server.ts';
import { ENDED } from '~/features/orders/orders.ts';
import { z } from '~/lib/zod.ts';
import { t } from '~/lib/i18n/index.ts';

/** The personal data policy's text as a version: what a consent was given to (its SHA-256, 12 hex). */
export const POLICY_VERSION = `sha256:${createHash('sha256').update(policyText).digest('hex').slice(0, 12)}`;

export type ConsentPurpose = 'personal_data' | 'marketing';
export type ConsentSource = 'registration' | 'checkout' | 'buyout' | 'newsletter' | 'dashboard' | 'mail' | 'console';

type Tx = Pick<Db, 'execute'>;

/** One consent given or withdrawn, with the policy's version and the time (the row's default). */
export async function recordConsent(
  tx: Tx,
  consent: {
    purpose: ConsentPurpose;
    source: ConsentSource;
    given: boolean;
    customerId?: number | null | undefined;
    email?: string | null | undefined;
    phone?: string | null | undefined;
    /** The order it was given with (checkout), by its code. */
    orderCode?: string | undefined;
  },
): Promise<void> {
  const order = consent.orderCode ? sql`(SELECT id FROM orders WHERE code = ${consent.orderCode})` : sql`NULL`;
  await tx.execute(
    sql`INSERT INTO consents (customer_id, email, phone, purpose, source, policy_version, given, order_id)
        VALUES (${consent.customerId ?? null}, ${consent.email?.trim().toLowerCase() || null}, ${consent.phone || null}, ${consent.purpose},
                ${consent.source}, ${POLICY_VERSION}, ${consent.given}, ${order})`,
  );
}

/** Records the consent apart from any transaction (the newsletter's, a registration's): never fails its caller's work. */
export async function noteConsent(consent: Parameters<typeof recordConsent>[1]): Promise<void> {
  await recordConsent(await getDb(), consent);
}

/**
 * Placing an order (or buying a gift certificate) is consenting to the personal data policy (152-ФЗ): recorded
 * once per order, with the contact it was placed with.
 */
export const noteOrderConsent = (orderCode: string, customerId: number | null, contact: { email: string; phone: string }) =>
  noteConsent({ purpose: 'personal_data', source: 'checkout', given: true, customerId, email: contact.email, phone: contact.phone, orderCode });

// ---------------------------------------------------------------- marketing

/** Whether the address gets the shop's news and offers (its newsletter subscription). */
export async function marketingOn(email: string, tx?: Tx): Promise<boolean> {
  const rows = await selectRows(tx ?? (await getDb()), sql`SELECT 1 FROM newsletter_subscribers WHERE lower(email) = ${email.trim().toLowerCase()}`);
  return rows.length > 0;
}

/** Gives or withdraws the address's marketing consent; answers the state now. A second time changes nothing. */
export async function setMarketing(email: string, on: boolean, source: ConsentSource, customerId: number | null = null, ip = ''): Promise<boolean> {
  const address = email.trim().toLowerCase();
  const db = await getDb();
  await db.transaction(async (tx) => {
    const changed = on
      ? await selectRows(
          tx,
          sql`INSERT INTO newsletter_subscribers (email, source, ip) VALUES (${address}, ${source}, ${ip}) ON CONFLICT DO NOTHING RETURNING id`,
        )
      : await selectRows(tx, sql`DELETE FROM newsletter_subscribers WHERE lower(email) = ${address} RETURNING id`);
    if (changed.length > 0) await recordConsent(tx, { purpose: 'marketing', source, given: on, customerId, email: address });
  });
  return on;
}

// ---------------------------------------------------------------- the file

export interface PersonalData {
  generated_at: string;
  policy_version: string;
  profile: Record<string, unknown> | null;
  addresses: Record<string, unknown>[];
  orders: Record<string, unknown>[];
  balance_history: Record<string, unknown>[];
  bonus_history: Record<string, unknown>[];
  wishlist: Record<string, unknown>[];
  cart: Record<string, unknown>[];
  buyout_requests: Record<string, unknown>[];
  /** Reviews written (issue 57): what they said, their photos and where they stand. */
  reviews: Record<string, unknown>[];
  newsletter: Record<string, unknown>[];
  partner: Record<string, unknown> | null;
  consents: Record<string, unknown>[];
}

const rows = async (db: Db, query: ReturnType<typeof sql>) => selectRows<Record<string, unknown>>(db, query);

/** Orders with their lines and statuses: a customer's, or a guest's by the contact e-mail. */
async function ordersOf(db: Db, where: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  return rows(
    db,
    sql`SELECT o.code, o.created_at, o.status, o.payment_status, o.contact_name, o.contact_email, o.contact_phone, o.delivery_address,
               o.delivery_method, o.delivery_carrier, o.payment_method, o.items_total, o.discount_total, o.delivery_price, o.bonus_used,
               o.balance_used, o.total,
               (SELECT coalesce(json_agg(json_build_object('name', l.name, 'brand', l.brand, 'size', l.variant_label, 'quantity', l.quantity,
                         'unit_price', l.unit_price) ORDER BY l.id), '[]') FROM order_lines l WHERE l.order_id = o.id) AS lines,
               (SELECT coalesce(json_agg(json_build_object('status', h.status, 'at', h.created_at) ORDER BY h.created_at, h.id), '[]')
                  FROM order_status_history h WHERE h.order_id = o.id AND h.order_line_id IS NULL) AS history
          FROM orders o WHERE ${where} ORDER BY o.created_at, o.id`,
  );
}

/** Reviews matched by `where` on `reviews r`, with their product's name. */
const reviewsOf = (db: Db, where: ReturnType<typeof sql>) =>
  rows(
    db,
    sql`SELECT p.name AS product, r.author, r.rating, r.fit, r.size_label, r.liked, r.disliked, r.comment, r.photos, r.status, r.created_at
          FROM reviews r JOIN products p ON p.id = r.product_id WHERE ${where} AND r.source = 'customer' ORDER BY r.id`,
  );

/** What the shop holds about a customer: everything the file gives them (spec: the dashboard's "Мои данные"). */
export async function customerData(customerId: number): Promise<PersonalData> {
  const db = await getDb();
  const [profile] = await rows(
    db,
    sql`SELECT email, phone, name, surname, patronymic, created_at FROM customers WHERE id = ${customerId} AND deleted_at IS NULL`,
  );
  if (!profile) throw new HttpError(401, 'error.unauthorized');
  const email = String(profile['email']);
  const [partner] = await rows(
    db,
    sql`SELECT p.code, p.created_at, (SELECT count(*)::int FROM partner_visits v WHERE v.partner_id = p.id) AS visits,
               (SELECT coalesce(json_agg(json_build_object('amount', c.amount, 'kind', c.kind, 'at', c.created_at) ORDER BY c.id), '[]')
                  FROM partner_commissions c WHERE c.partner_id = p.id) AS commissions
          FROM partners p WHERE p.customer_id = ${customerId}`,
  );
  return {
    generated_at: new Date().toISOString(),
    policy_version: POLICY_VERSION,
    profile,
    addresses: await rows(
      db,
      sql`SELECT recipient, phone, city, street, house, apartment, postcode, comment, is_default, created_at FROM customer_addresses WHERE customer_id = ${customerId} ORDER BY id`,
    ),
    orders: await ordersOf(db, sql`o.customer_id = ${customerId}`),
    balance_history: await rows(
      db,
      sql`SELECT l.amount, l.reason, l.created_at, o.code AS order_code FROM balance_ledger l LEFT JOIN orders o ON o.id = l.order_id WHERE l.customer_id = ${customerId} ORDER BY l.id`,
    ),
    bonus_history: await rows(
      db,
      sql`SELECT l.amount, l.reason, l.available_until, l.created_at, o.code AS order_code FROM bonus_ledger l LEFT JOIN orders o ON o.id = l.order_id WHERE l.customer_id = ${customerId} ORDER BY l.id`,
    ),
    wishlist: await rows(
      db,
      sql`SELECT p.name, w.created_at FROM wishlist_items w JOIN products p ON p.id = w.product_id WHERE w.customer_id = ${customerId} ORDER BY w.created_at`,
    ),
    cart: await rows(
      db,
      sql`SELECT p.name, l.quantity, l.created_at FROM cart_lines l JOIN carts c ON c.id = l.cart_id JOIN products p ON p.id = l.product_id WHERE c.customer_id = ${customerId} ORDER BY l.id`,
    ),
    buyout_requests: await rows(
      db,
      sql`SELECT name, phone, messenger, description, product_url, status, created_at FROM buyout_requests WHERE customer_id = ${customerId} ORDER BY id`,
    ),
    reviews: await reviewsOf(db, sql`r.customer_id = ${customerId}`),
    newsletter: await rows(db, sql`SELECT email, source, created_at FROM newsletter_subscribers WHERE lower(email) = ${email.toLowerCase()}`),
    partner: partner ?? null,
    consents: await rows(
      db,
      sql`SELECT purpose, source, policy_version, given, at FROM consents WHERE customer_id = ${customerId} OR lower(email) = ${email.toLowerCase()} ORDER BY at, id`,
    ),
  };
}

/** A phone as its digits: how a guest's buyout requests and consents are matched whatever way it was typed. */
const phoneDigits = (column: SQL) => sql`regexp_replace(coalesce(${column}, ''), '\\D', '', 'g')`;
/** A guest's buyout requests: by the phone's digits (the request names no e-mail); none without a phone. */
const guestBuyout = (digits: string) => sql`customer_id IS NULL AND ${digits ? sql`${phoneDigits(sql`phone`)} = ${digits}` : sql`false`}`;
/** A guest's consents: by the e-mail, or the phone's digits. */
const guestConsents = (address: string, digits: string) =>
  sql`customer_id IS NULL AND (lower(email) = ${address}${digits ? sql` OR ${phoneDigits(sql`phone`)} = ${digits}` : sql``})`;

/** What the shop holds about a guest known by an e-mail (and a phone, which the buyout request names): the console's answer to a request. */
export async function guestData(email: string, phone = ''): Promise<PersonalData> {
  const db = await getDb();
  const address = email.trim().toLowerCase();
  const digits = phone.replace(/\D/g, '');
  return {
    generated_at: new Date().toISOString(),
    policy_version: POLICY_VERSION,
    profile: null,
    addresses: [],
    orders: await ordersOf(db, sql`o.customer_id IS NULL AND lower(o.contact_email) = ${address}`),
    balance_history: [],
    bonus_history: [],
    wishlist: [],
    cart: [],
    buyout_requests: await rows(
      db,
      sql`SELECT name, phone, messenger, description, product_url, status, created_at FROM buyout_requests WHERE ${guestBuyout(digits)} ORDER BY id`,
    ),
    reviews: await reviewsOf(db, sql`r.customer_id IS NULL AND lower(r.email) = ${address}`),
    newsletter: await rows(db, sql`SELECT email, source, created_at FROM newsletter_subscribers WHERE lower(email) = ${address}`),
    partner: null,
    consents: await rows(db, sql`SELECT purpose, source, policy_version, given, at FROM consents WHERE ${guestConsents(address, digits)} ORDER BY at, id`),
  };
}

// ---------------------------------------------------------------- erasing

/** Orders not yet at their end: their delivery and receipts still need the person's contacts. */
const OPEN = sql`NOT (status = ANY(${sql.param([...ENDED])}::text[]))`;

/** Blanks the person in orders matched by `where` (accounting keeps the order, its lines and sums). */
async function anonymiseOrders(tx: Tx, where: ReturnType<typeof sql>): Promise<number> {
  const changed = await selectRows(
    tx,
    sql`UPDATE orders SET contact_name = '', contact_email = '', contact_phone = '',
               delivery_address = jsonb_build_object('city', '', 'address', '', 'postcode', '', 'comment', ''), updated_at = now()
         WHERE ${where} RETURNING id`,
  );
  return changed.length;
}

/**
 * The customer deletes the account after entering the password again (issue 54). Refused while an order is
 * on its way (its delivery and receipt need the contacts: 409) and for a wrong password (422, counted: five
 * in 15 minutes and the next is a 429). Everything is done in one transaction; afterwards the account's
 * tokens are gone, so a replayed request is a 401.
 */
export async function deleteAccount(customerId: number, password: string): Promise<void> {
  await enforce({ key: `delete-account:${customerId}`, max: 5, windowSeconds: 15 * 60 });
  const db = await getDb();
  const [customer] = await selectRows<{ email: string; password_hash: string }>(
    db,
    sql`SELECT email, password_hash FROM customers WHERE id = ${customerId} AND deleted_at IS NULL`,
  );
  if (!customer) throw new HttpError(401, 'error.unauthorized');
  if (!(await verifyPassword(password, customer.password_hash))) throw new HttpError(422, 'error.validation', { password: ['account.delete.wrongPassword'] });
  await db.transaction(async (tx) => {
    const [locked] = await selectRows<{ email: string }>(tx, sql`SELECT email FROM customers WHERE id = ${customerId} AND deleted_at IS NULL FOR UPDATE`);
    if (!locked) return;
    // Asked under the customer's lock: an order being placed holds the customer's row (its foreign key's
    // share lock) until it commits, so it is either counted here or placed after the erasure — never lost
    // between a check and the erasure (issue 54's note).
    const open = await selectRows(tx, sql`SELECT 1 FROM orders WHERE customer_id = ${customerId} AND ${OPEN} LIMIT 1`);
    if (open.length > 0) throw new HttpError(409, 'account.delete.ordersOpen');
    await erasePerson(tx, { customerId, email: locked.email });
    await tx.execute(
      sql`UPDATE customers SET email = ${`deleted-${customerId}@deleted.invalid`}, phone = '', name = '', surname = '', patronymic = '',
               password_hash = '!', deleted_at = now(), updated_at = now() WHERE id = ${customerId}`,
    );
  });
}

/** What erasing a person does to the rows that name them: a customer's (by id) and their e-mail's. */
async function erasePerson(
  tx: Tx,
  person: { customerId: number | null; email: string; phone?: string | undefined },
): Promise<{ orders: number; buyout: number }> {
  const address = person.email.trim().toLowerCase();
  const { customerId } = person;
  // The consents stay as proof they were given and withdrawn, without the address or phone.
  await recordConsent(tx, { purpose: 'personal_data', source: customerId ? 'dashboard' : 'console', given: false, customerId });
  if (await marketingOn(address, tx)) await recordConsent(tx, { purpose: 'marketing', source: customerId ? 'dashboard' : 'console', given: false, customerId });
  await tx.execute(sql`DELETE FROM newsletter_subscribers WHERE lower(email) = ${address}`);
  await tx.execute(sql`DELETE FROM mail_outbox WHERE lower("to") = ${address}`);
  const digits = (person.phone ?? '').replace(/\D/g, '');
  const blankBuyout = async (where: SQL) =>
    (
      await selectRows(
        tx,
        sql`UPDATE buyout_requests SET name = '', phone = '', ip = '', description = '', product_url = '', images = '[]'::jsonb, updated_at = now()
             WHERE ${where} RETURNING id`,
      )
    ).length;
  // Reviews stay (what they say is about the goods, and the product's rating counts them) without who wrote
  // them: no e-mail, a name of no one, no photos (they may show the person).
  await tx.execute(
    sql`UPDATE reviews SET email = '', author = ${t('ru', 'reviews.anonymous')}, photos = '[]'::jsonb, updated_at = now()
         WHERE source = 'customer' AND ${customerId ? sql`(customer_id = ${customerId} OR (customer_id IS NULL AND lower(email) = ${address}))` : sql`customer_id IS NULL AND lower(email) = ${address}`}`,
  );
  if (!customerId) {
    const orders = await anonymiseOrders(tx, sql`customer_id IS NULL AND lower(contact_email) = ${address}`);
    await tx.execute(sql`UPDATE consents SET email = NULL, phone = NULL WHERE ${guestConsents(address, digits)}`);
    return { orders, buyout: await blankBuyout(guestBuyout(digits)) };
  }
  const orders = await anonymiseOrders(tx, sql`customer_id = ${customerId}`);
  await tx.execute(sql`UPDATE consents SET email = NULL, phone = NULL WHERE customer_id = ${customerId} OR lower(email) = ${address}`);
  for (const table of ['customer_addresses', 'sessions', 'password_resets', 'carts', 'wishlist_items'])
    await tx.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE customer_id = ${customerId}`);
  return { orders, buyout: await blankBuyout(sql`customer_id = ${customerId}`) };
}

/**
 * A guest's data erased on request through the console (an admin, audited): orders kept without the name,
 * contacts and address, the newsletter dropped, buyout requests by the phone blanked. An e-mail that is a
 * customer's is refused (409): the customer deletes the account from the dashboard. Refused while one of
 * the guest's orders is on its way.
 */
export async function eraseGuest(email: string, phone: string, actor: Actor): Promise<{ orders: number; buyout: number }> {
  const address = email.trim().toLowerCase();
  const db = await getDb();
  const customer = await selectRows(db, sql`SELECT 1 FROM customers WHERE lower(email) = ${address} AND deleted_at IS NULL`);
  if (customer.length > 0) throw new HttpError(409, 'ops.privacy.isCustomer');
  const open = await selectRows(db, sql`SELECT 1 FROM orders WHERE customer_id IS NULL AND lower(contact_email) = ${address} AND ${OPEN} LIMIT 1`);
  if (open.length > 0) throw new HttpError(409, 'account.delete.ordersOpen');
  const done = await db.transaction((tx) => erasePerson(tx, { customerId: null, email: address, phone }));
  // The audit keeps what was done, not to whom: the address itself would be personal data kept on.
  await audit(actor, 'privacy.erase', 'privacy', createHash('sha256').update(address).digest('hex').slice(0, 16), null, done);
  return done;
}

// ---------------------------------------------------------------- the console (a guest's request)

/** A guest's request as the console's form reads it: the e-mail, and the phone a buyout request names. */
export const privacyLookupSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()).optional().catch(undefined),
  phone: z
    .string()
    .trim()
    .max(40)
    .regex(/^[\d\s()+-]*$/)
    .optional()
    .catch(undefined),
});

/** The console's erase: the address typed again, as a confirmation. */
export const privacyEraseSchema = z.object({
  action: z.literal('erase'),
  email: z.string().trim().toLowerCase().pipe(z.email()),
  phone: z
    .string()
    .trim()
    .max(40)
    .regex(/^[\d\s()+-]*$/)
    .default(''),
  confirm: z.string().trim().toLowerCase(),
});

export interface PrivacyLookup {
  email: string;
  phone: string;
  /** A registered customer's id, when the address is one (the customer deletes the account themselves). */
  customerId: number | null;
  counts: { orders: number; open: number; buyout: number; reviews: number; newsletter: number; consents: number };
}

export async function privacyLookup(email: string, phone = ''): Promise<PrivacyLookup> {
  const data = await guestData(email, phone);
  const [customer] = await selectRows<{ id: number }>(await getDb(), sql`SELECT id FROM customers WHERE lower(email) = ${email} AND deleted_at IS NULL`);
  return {
    email,
    phone,
    customerId: customer?.id ?? null,
    counts: {
      orders: data.orders.length,
      open: data.orders.filter((o) => !(ENDED as readonly string[]).includes(String(o['status']))).length,
      buyout: data.buyout_requests.length,
      reviews: data.reviews.length,
      newsletter: data.newsletter.length,
      consents: data.consents.length,
    },
  };
}

/** A guest's data as a file for the console (audited without the address, as the erase is). */
export async function guestExport(email: string, phone: string, actor: Actor): Promise<PersonalData> {
  await audit(actor, 'privacy.export', 'privacy', createHash('sha256').update(email).digest('hex').slice(0, 16), null, null);
  return guestData(email, phone);
}
