// Accounts on the server (spec §7; DESIGN §4, OWASP ASVS 5.0 level 2): argon2id passwords checked
// against a list of breached ones, random session tokens kept only as SHA-256 hashes, rotated on refresh
// and revoked on logout and reset, throttles in the database so every process counts the same tries.
import { argon2, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { AstroCookies } from 'astro';
import { selectRows, type Db } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { customers, partners, passwordResets, sessions } from '~/lib/db/schema.ts';
import { env } from '~/lib/env.ts';
import { HttpError, tooManyRequests, unauthorized, validationFailed } from '~/lib/http/errors.ts';
import { countFailure, hit, refuseWhileBlocked, type Limit } from '~/lib/http/rate-limit.server.ts';
import { t, type Locale, type MessageKey } from '~/lib/i18n/index.ts';
import { mailLayout, sendMail } from '~/lib/mail.server.ts';
import { PASSWORD_MIN, type AuthAnswer, type User } from './auth.ts';

export type CustomerRow = typeof customers.$inferSelect;

// ---------------------------------------------------------------- passwords

/** ASVS 5.0 11.4.2 floors for argon2id: 19 MiB, two passes, one lane. */
const ARGON2 = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;

function derive(password: string, salt: Buffer, params: { memory: number; passes: number; parallelism: number; tagLength: number }): Promise<Buffer> {
  // Node's own argon2 (node:crypto, Node 24.7+) runs on libuv's pool: no native addon to compile.
  return new Promise((resolve, reject) =>
    argon2('argon2id', { message: password, nonce: salt, ...params }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** The PHC string `$argon2id$v=19$m=…,t=…,p=…$salt$hash`, so the parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, ARGON2);
  const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
  return `$argon2id$v=19$m=${ARGON2.memory},t=${ARGON2.passes},p=${ARGON2.parallelism}$${b64(salt)}$${b64(key)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored);
  if (!match) return false;
  const expected = Buffer.from(match[5] ?? '', 'base64');
  const key = await derive(password, Buffer.from(match[4] ?? '', 'base64'), {
    memory: Number(match[1]),
    passes: Number(match[2]),
    parallelism: Number(match[3]),
    tagLength: expected.length,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummyHash: Promise<string> | undefined;
/** A hash no password matches: an unknown e-mail is checked against it, so it takes as long as a known one. */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString('hex'));
  return dummyHash;
}

let breached: Set<string> | undefined;
/**
 * ASVS 5.0 6.2.4: the 49,000 most common passwords of public breaches (zxcvbn's list, ranked by
 * frequency), kept where they are long enough to be chosen at all, compared without case.
 */
export function isBreachedPassword(password: string): boolean {
  if (!breached) {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('@zxcvbn-ts/language-common/package.json'));
    const list = JSON.parse(readFileSync(join(dir, 'src', 'passwords.json'), 'utf8')) as string[];
    breached = new Set(list.filter((p) => p.length >= PASSWORD_MIN).map((p) => p.toLowerCase()));
  }
  return breached.has(password.toLowerCase());
}

/** How many breached passwords the check knows (docs and tests). */
export function breachedPasswordCount(): number {
  isBreachedPassword('');
  return breached?.size ?? 0;
}

// ---------------------------------------------------------------- e-mail addresses

/** Stored and compared in one form: trimmed, NFC, lower case (the database's lower() leaves Cyrillic alone). */
export function normalizeEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

/** A throttle key for an address that does not keep the address. */
function emailKey(email: string): string {
  return createHash('sha256').update(normalizeEmail(email)).digest('hex').slice(0, 32);
}

export async function findCustomerByEmail(email: string): Promise<CustomerRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(customers)
    .where(eq(customers.email, normalizeEmail(email)))
    .limit(1);
  return row;
}

export function toUser(row: CustomerRow): User {
  return { id: row.id, email: row.email, phone: row.phone, name: row.name, surname: row.surname, patronymic: row.patronymic };
}

// ---------------------------------------------------------------- throttles (DESIGN §4)

const MINUTE = 60;
/** Failed logins: per address (whoever tries it) and per IP; successful ones are not counted. */
const loginLimits = (ip: string, email: string): Limit[] => [
  { key: `login:e:${emailKey(email)}`, max: 10, windowSeconds: 15 * MINUTE },
  // Generous per IP: a mobile carrier's NAT puts many shoppers behind one address.
  { key: `login:ip:${ip}`, max: 100, windowSeconds: 15 * MINUTE },
];
const REGISTER_LIMITS = { ip: { max: 50, windowSeconds: 60 * MINUTE }, email: { max: 5, windowSeconds: 60 * MINUTE } };
const FORGOT_LIMITS = { ip: { max: 30, windowSeconds: 60 * MINUTE }, email: { max: 3, windowSeconds: 60 * MINUTE } };

/** Counts a try against every limit and refuses with 429 (the longest wait) when one is used up. */
async function enforceAll(limits: Limit[]): Promise<void> {
  let wait = 0;
  for (const limit of limits) {
    const result = await hit(limit);
    if (!result.allowed) wait = Math.max(wait, result.retryAfterSeconds);
  }
  if (wait > 0) throw tooManyRequests(wait);
}

// ---------------------------------------------------------------- sessions

/** A refresh every 5 minutes keeps a session alive; a browser closed for two weeks logs in again. */
export const SESSION_IDLE_SECONDS = 14 * 24 * 60 * 60;
/** No login lasts longer than this, however often it is refreshed (ASVS 5.0 7.3.2). */
export const SESSION_ABSOLUTE_SECONDS = 60 * 24 * 60 * 60;
/** How long a rotated-out token still works, for a request another tab sent just before the refresh. */
const rotationGraceSeconds = () => env().SESSION_GRACE_SECONDS;

export const SESSION_COOKIE = 'bs_session';

/** 256 random bits, URL-safe (DESIGN §4). */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface IssuedToken {
  token: string;
  expiresIn: number;
}

async function insertSession(customerId: number, familyId: string, familyExpiresAt: Date): Promise<IssuedToken> {
  const db = await getDb();
  const token = newToken();
  const now = Date.now();
  const expiresAt = new Date(Math.min(now + SESSION_IDLE_SECONDS * 1000, familyExpiresAt.getTime()));
  await db.insert(sessions).values({ customerId, tokenHash: tokenHash(token), familyId, expiresAt, familyExpiresAt });
  return { token, expiresIn: Math.max(0, Math.floor((expiresAt.getTime() - now) / 1000)) };
}

/** A new login: a new token in a new family. The customer's logins that ended over a day ago go. */
export async function issueSession(customerId: number): Promise<IssuedToken> {
  const db = await getDb();
  await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.customerId, customerId),
        or(lt(sessions.expiresAt, sql`now() - interval '1 day'`), lt(sessions.revokedAt, sql`now() - interval '1 day'`)),
      ),
    );
  return insertSession(customerId, randomBytes(16).toString('hex'), new Date(Date.now() + SESSION_ABSOLUTE_SECONDS * 1000));
}

export interface Authenticated {
  customer: CustomerRow;
  sessionId: number;
  familyId: string;
  familyExpiresAt: Date;
  rotated: boolean;
}

/** The customer a token belongs to, while the token is neither expired, revoked nor past its grace. */
export async function authenticate(token: string | null | undefined): Promise<Authenticated | null> {
  if (!token || token.length > 200) return null;
  const db = await getDb();
  const now = new Date();
  const [row] = await db
    .select({ customer: customers, session: sessions })
    .from(sessions)
    .innerJoin(customers, eq(customers.id, sessions.customerId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash(token)),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        gt(sessions.familyExpiresAt, now),
        or(isNull(sessions.rotatedAt), gt(sessions.graceUntil, now)),
      ),
    )
    .limit(1);
  if (!row) return null;
  return {
    customer: row.customer,
    sessionId: row.session.id,
    familyId: row.session.familyId,
    familyExpiresAt: row.session.familyExpiresAt,
    rotated: row.session.rotatedAt !== null,
  };
}

/**
 * spec §7 refresh: a new token for the same login; the old one keeps working for a minute (another tab
 * may have sent it just now) and then never again. A token already rotated out gets no new one.
 */
export async function rotateSession(token: string | null | undefined): Promise<{ auth: Authenticated; issued: IssuedToken | null } | null> {
  const auth = await authenticate(token);
  if (!auth) return null;
  if (auth.rotated) return { auth, issued: null };
  const db = await getDb();
  // Only the first refresh of a token rotates it, even when two processes are asked at once.
  const claimed = await db
    .update(sessions)
    .set({ rotatedAt: sql`now()`, graceUntil: sql`now() + make_interval(secs => ${rotationGraceSeconds()})` })
    .where(and(eq(sessions.id, auth.sessionId), isNull(sessions.rotatedAt)))
    .returning({ id: sessions.id });
  if (claimed.length === 0) return { auth, issued: null };
  const issued = await insertSession(auth.customer.id, auth.familyId, auth.familyExpiresAt);
  // A tab refreshes every 5 minutes: the tokens of this login whose grace is over are dead, so they go.
  await db.delete(sessions).where(and(eq(sessions.familyId, auth.familyId), lt(sessions.graceUntil, sql`now()`)));
  return { auth, issued };
}

/** Logout: the token, its predecessors still in grace and its successors all stop working at once. */
export async function revokeFamily(familyId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
}

/** The Bearer token of a request (spec §7); a cookie never authorises a call (DESIGN §4: no CSRF surface). */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(header.trim());
  return match?.[1] ?? null;
}

/** The signed-in customer of an API call, or 401. */
export async function requireCustomer(request: Request): Promise<Authenticated> {
  const auth = await authenticate(bearerToken(request));
  if (!auth) throw unauthorized();
  return auth;
}

/**
 * The customer of a call a guest may make too (checkout): null without an Authorization header, and 401
 * with one that does not resolve to a session — a token of the wrong shape included, which was once read
 * as no token and placed a silent guest order (docs/api.md promises 401 for an invalid token).
 */
export async function optionalCustomer(request: Request): Promise<Authenticated | null> {
  return request.headers.has('authorization') ? requireCustomer(request) : null;
}

/** The signed-in customer of a private page, from the HttpOnly cookie the API set beside the token. */
export async function pageCustomer(cookies: AstroCookies): Promise<Authenticated | null> {
  return authenticate(cookies.get(SESSION_COOKIE)?.value);
}

function secureCookies(url: URL): boolean {
  return url.protocol === 'https:' || env().SITE_URL.startsWith('https:');
}

/** The cookie that mirrors the token for the server's page guard (HttpOnly, SameSite=Lax, Secure on https). */
export function sessionCookie(url: URL, issued: IssuedToken | null): string {
  const secure = secureCookies(url) ? '; Secure' : '';
  return issued
    ? `${SESSION_COOKIE}=${issued.token}; Path=/; Max-Age=${issued.expiresIn}; HttpOnly; SameSite=Lax${secure}`
    : `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`;
}

// ---------------------------------------------------------------- the answer login, refresh and registration share

/**
 * spec §3 dashboard summary: the balance is the sum of its ledger; bonus points count while they are
 * valid, and the date shown is when the first of them lapses.
 */
export async function dashboardContent(customerId: number, within?: Pick<Db, 'execute'>): Promise<AuthAnswer['dashboard_content']> {
  // Inside a transaction (checkout spends points under a lock) the same sums are read through it.
  const db = within ?? (await getDb());
  const [row] = await selectRows<{ balance: number | string | null; bonus: number | string | null; until: Date | string | null }>(
    db,
    sql`SELECT
          (SELECT coalesce(sum(amount), 0) FROM balance_ledger WHERE customer_id = ${customerId}) AS balance,
          (SELECT coalesce(sum(amount), 0) FROM bonus_ledger WHERE customer_id = ${customerId}
             AND (available_until IS NULL OR available_until > now())) AS bonus,
          (SELECT min(available_until) FROM bonus_ledger WHERE customer_id = ${customerId}
             AND amount > 0 AND available_until > now()) AS until`,
  );
  const bonus = Math.max(0, Number(row?.bonus ?? 0));
  const until = row?.until ? new Date(row.until).toISOString() : null;
  return { balance_amount: Number(row?.balance ?? 0), bonus_amount: bonus, bonus_available_until: bonus > 0 ? until : null };
}

/** `issued` null: a refresh that made no new token (spec §7: the client keeps the one it holds). */
export async function authAnswer(customer: CustomerRow, issued: IssuedToken | null): Promise<AuthAnswer> {
  return {
    access_token: issued?.token ?? '',
    expires_in: issued?.expiresIn ?? 0,
    user: toUser(customer),
    dashboard_content: await dashboardContent(customer.id),
  };
}

// ---------------------------------------------------------------- login and registration

/**
 * spec §7 login. An unknown address and a wrong password answer alike and take alike: the password is
 * checked against a dummy hash when there is no customer, and both count as a failure.
 */
export async function login(email: string, password: string, ip: string): Promise<CustomerRow | null> {
  const limits = loginLimits(ip, email);
  await refuseWhileBlocked(limits);
  const customer = await findCustomerByEmail(email);
  const ok = await verifyPassword(password, customer?.passwordHash ?? (await dummyPasswordHash()));
  // A login an admin blocked (issue 24) is told so only after the right password: the answer says nothing
  // about an address to someone who does not know its password.
  if (customer && ok && customer.blockedAt) throw new HttpError(403, 'auth.blocked');
  if (customer && ok) return customer;
  await countFailure(limits);
  return null;
}

export async function registerCustomer(
  input: { email: string; phone: string; password: string; ref?: string | undefined },
  ip: string,
  locale: Locale,
): Promise<CustomerRow> {
  await enforceAll([
    { key: `register:ip:${ip}`, ...REGISTER_LIMITS.ip },
    { key: `register:e:${emailKey(input.email)}`, ...REGISTER_LIMITS.email },
  ]);
  if (isBreachedPassword(input.password)) throw validationFailed({ password: ['validation.passwordBreached'] });
  const db = await getDb();
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const partner = input.ref ? (await db.select({ id: partners.id }).from(partners).where(eq(partners.code, input.ref.toLowerCase())).limit(1))[0] : undefined;
  // Two registrations of one address at once: the unique index lets one through, the other is told the address is taken.
  const [customer] = await db
    .insert(customers)
    .values({ email, phone: input.phone, passwordHash, referredByPartnerId: partner?.id ?? null })
    .onConflictDoNothing()
    .returning();
  if (!customer) throw validationFailed({ email: ['auth.emailTaken'] });
  void sendWelcome(customer, locale);
  return customer;
}

// ---------------------------------------------------------------- mail (Russian, HTML and text)

async function sendWelcome(customer: CustomerRow, _locale: Locale): Promise<void> {
  // Mail goes out in Russian (the shop's language), whatever the language of the call.
  const l = (key: MessageKey) => t('ru', key);
  const body = mailLayout(l('mail.auth.welcomeTitle'), [l('mail.auth.welcomeText'), l('mail.auth.welcomeAccount')], {
    label: l('mail.auth.welcomeAction'),
    url: new URL('/dashboard', env().SITE_URL).href,
  });
  await sendMail({ to: customer.email, subject: l('mail.auth.welcomeSubject'), ...body });
}

// ---------------------------------------------------------------- password reset

/** ASVS 5.0 6.4.1: a reset link works once and for an hour. */
export const RESET_TOKEN_SECONDS = 60 * 60;

async function sendResetLink(customer: CustomerRow): Promise<void> {
  const db = await getDb();
  const token = newToken();
  await db.insert(passwordResets).values({
    customerId: customer.id,
    tokenHash: tokenHash(token),
    expiresAt: new Date(Date.now() + RESET_TOKEN_SECONDS * 1000),
  });
  const l = (key: MessageKey) => t('ru', key);
  const url = new URL('/password/reset', env().SITE_URL);
  url.searchParams.set('token', token);
  const body = mailLayout(l('mail.auth.resetTitle'), [l('mail.auth.resetText'), l('mail.auth.resetIgnore')], {
    label: l('mail.auth.resetAction'),
    url: url.href,
  });
  await sendMail({ to: customer.email, subject: l('mail.auth.resetSubject'), ...body });
}

/**
 * spec §7 forgot-password: the same answer, in the same time, whether or not the address has an
 * account — the mail is written after the answer has gone.
 */
export async function requestPasswordReset(email: string, ip: string): Promise<void> {
  await enforceAll([
    { key: `forgot:ip:${ip}`, ...FORGOT_LIMITS.ip },
    { key: `forgot:e:${emailKey(email)}`, ...FORGOT_LIMITS.email },
  ]);
  const customer = await findCustomerByEmail(email);
  if (customer) void sendResetLink(customer).catch(() => undefined);
}

/** spec §7 customer-email-reset-link: a signed-in customer asks for the link to their own address. */
export async function sendOwnResetLink(customer: CustomerRow): Promise<void> {
  await enforceAll([{ key: `forgot:c:${customer.id}`, ...FORGOT_LIMITS.email }]);
  await sendResetLink(customer);
}

/** Sets the new password, spends the link (and any other the customer holds) and ends every session. */
export async function resetPassword(token: string, password: string, ip: string): Promise<void> {
  await enforceAll([{ key: `reset:ip:${ip}`, max: 20, windowSeconds: 60 * MINUTE }]);
  if (isBreachedPassword(password)) throw validationFailed({ password: ['validation.passwordBreached'] });
  const passwordHash = await hashPassword(password);
  const db = await getDb();
  const customerId = await db.transaction(async (tx) => {
    const [spent] = await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.tokenHash, tokenHash(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
      .returning({ customerId: passwordResets.customerId });
    if (!spent) return null;
    await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.customerId, spent.customerId), isNull(passwordResets.usedAt)));
    await tx
      .update(customers)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(eq(customers.id, spent.customerId));
    await tx
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(sessions.customerId, spent.customerId), isNull(sessions.revokedAt)));
    return spent.customerId;
  });
  if (customerId === null) throw new HttpError(422, 'auth.resetInvalid', { token: ['auth.resetInvalid'] });
}

/**
 * Housekeeping: logins that ended (expired, revoked, out of their family's time, or rotated out past
 * their grace) and reset links used or expired, over a day ago — the day keeps them for a question
 * about a login that just ended.
 */
export async function deleteSpentCredentials(): Promise<number> {
  const db = await getDb();
  const sessionsGone = await selectRows(
    db,
    sql`DELETE FROM sessions WHERE expires_at < now() - interval '1 day' OR revoked_at < now() - interval '1 day'
          OR family_expires_at < now() - interval '1 day' OR grace_until < now() - interval '1 day' RETURNING id`,
  );
  const resetsGone = await selectRows(
    db,
    sql`DELETE FROM password_resets WHERE used_at < now() - interval '1 day' OR expires_at < now() - interval '1 day' RETURNING id`,
  );
  return sessionsGone.length + resetsGone.length;
}
