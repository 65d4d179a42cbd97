// The managers' console's accounts (issue 24, docs/decisions/019): operators, their one-time set-up
// links, password + TOTP sign-in with recovery codes, sessions with a CSRF token, and the audit log.
// Operators are not customers: their own table, their own cookie (Path=/ops, SameSite=Strict), and a
// customer's session has no power here, nor an operator's in the storefront.
import { randomBytes } from 'node:crypto';
import type { AstroCookies } from 'astro';
import { sql } from 'drizzle-orm';
import { dummyPasswordHash, hashPassword, isBreachedPassword, tokenHash, verifyPassword } from '~/features/auth/auth.passwords.server.ts';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { logger } from '~/lib/log.ts';
import { openWithKnownKeys, sealingKey, sealTotpSecret, TotpKeyError } from '~/lib/totp-secrets.ts';
import { HttpError, notFound } from '~/lib/http/errors.ts';
import { hasControlCharacters } from '~/lib/http/text.ts';
import { FORM_MAX_BYTES, readFormData } from '~/lib/http/limits.ts';
import { sameSecret } from '~/lib/same-secret.ts';
import type { z } from '~/lib/zod.ts';
import { fieldErrors } from '~/lib/http/endpoint.ts';
import { t, type Locale } from '~/lib/i18n/index.ts';
import { countFailure, refuseWhileBlocked, type Limit } from '~/lib/http/rate-limit.server.ts';
import { roleAllows, type OperatorRole } from './ops.ts';
import { audit, type Actor } from './ops.audit.server.ts';
import { newTotpSecret, otpauthUri, verifyTotp } from './totp.server.ts';

export type { Actor } from './ops.audit.server.ts';

export const OPS_SESSION_COOKIE = 'ops_session';
/** A session ends 12 hours after sign-in, or after 30 minutes without a request (issue 24). */
export const OPS_SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;
export const OPS_SESSION_IDLE_SECONDS = 30 * 60;
/** How long a set-up link works. */
export const OPS_SETUP_SECONDS = 24 * 60 * 60;
const RECOVERY_CODES = 10;
/** The issuer authenticator apps show beside the account. */
const ISSUER = 'Brandshop ops';

export interface OperatorRow extends Record<string, unknown> {
  id: number;
  email: string;
  role: OperatorRole;
  password_hash: string | null;
  /** Sealed with OPS_TOTP_KEY (src/lib/totp-secrets.ts): read it through totpSecretOf. */
  totp_secret: string;
  totp_confirmed_at: Date | null;
  totp_last_step: number;
  recovery_codes: string[];
  disabled_at: Date | null;
  created_at: Date;
}

const newToken = () => randomBytes(32).toString('base64url');

/** A new TOTP secret, and the same sealed for the database; 503 when the shop has no key to seal it with. */
function newSealedSecret(): { secret: string; sealed: string } {
  const secret = newTotpSecret();
  try {
    return { secret, sealed: sealTotpSecret(secret, sealingKey()) };
  } catch (error) {
    if (error instanceof TotpKeyError) throw new HttpError(503, 'ops.totpKeyMissing');
    throw error;
  }
}

/**
 * An operator's TOTP secret, opened; null when this process's keys do not open it (a row changed in the
 * database, or sealed with a key the start has not yet seen), or when it was voided (emptied after a lost
 * key, docs/operations.md): that operator's codes are refused.
 */
function totpSecretOf(operator: OperatorRow): string | null {
  try {
    return openWithKnownKeys(operator.totp_secret) || null;
  } catch (error) {
    if (!(error instanceof TotpKeyError)) throw error;
    logger.warn({ operatorId: operator.id, reason: error.message }, 'TOTP secret not opened');
    return null;
  }
}

async function operatorByEmail(email: string): Promise<OperatorRow | undefined> {
  const db = await getDb();
  const [row] = await selectRows<OperatorRow>(db, sql`SELECT * FROM operators WHERE email = ${email.trim().toLowerCase()}`);
  return row;
}

async function issueSetupLink(operatorId: number): Promise<string> {
  const db = await getDb();
  const token = newToken();
  await db.execute(sql`UPDATE operator_setup_tokens SET used_at = now() WHERE operator_id = ${operatorId} AND used_at IS NULL`);
  await db.execute(
    sql`INSERT INTO operator_setup_tokens (token_hash, operator_id, expires_at)
        VALUES (${tokenHash(token)}, ${operatorId}, now() + make_interval(secs => ${OPS_SETUP_SECONDS}))`,
  );
  return new URL(`/ops/setup?token=${token}`, env().SITE_URL).href;
}

export interface Enrolment {
  operator: OperatorRow;
  /** The one-time link to set the password and confirm the authenticator. */
  setupUrl: string;
  /** The TOTP secret as an otpauth:// URI (the QR code's content), for scripts that enrol an operator. */
  otpauth: string;
}

/** `npm run operator -- add`: a new operator with a new TOTP secret and a one-time set-up link. */
export async function addOperator(email: string, role: OperatorRole, actor: Actor): Promise<Enrolment> {
  const db = await getDb();
  const { secret, sealed } = newSealedSecret();
  const normalized = email.trim().toLowerCase();
  const [operator] = await selectRows<OperatorRow>(
    db,
    sql`INSERT INTO operators (email, role, totp_secret) VALUES (${normalized}, ${role}, ${sealed})
        ON CONFLICT (email) DO NOTHING RETURNING *`,
  );
  if (!operator) throw new HttpError(409, 'ops.operatorExists');
  await audit(actor, 'operator.add', 'operator', String(operator.id), null, { email: normalized, role });
  return { operator, setupUrl: await issueSetupLink(operator.id), otpauth: otpauthUri(ISSUER, normalized, secret) };
}

/** What a list of operators shows: never a secret. */
export type OperatorSummary = Pick<OperatorRow, 'id' | 'email' | 'role' | 'totp_confirmed_at' | 'totp_last_step' | 'disabled_at' | 'created_at'>;

export async function listOperators(): Promise<OperatorSummary[]> {
  const db = await getDb();
  return selectRows(db, sql`SELECT id, email, role, totp_confirmed_at, totp_last_step, disabled_at, created_at FROM operators ORDER BY id`);
}

/** Blocks an operator's sign-in and ends their sessions. */
export async function disableOperator(email: string, actor: Actor): Promise<OperatorRow> {
  const operator = await operatorByEmail(email);
  if (!operator) throw notFound('ops.operatorUnknown');
  const db = await getDb();
  const [disabled] = await selectRows<OperatorRow>(
    db,
    sql`UPDATE operators SET disabled_at = coalesce(disabled_at, now()) WHERE id = ${operator.id} RETURNING *`,
  );
  await db.execute(sql`UPDATE operator_sessions SET ended_at = now() WHERE operator_id = ${operator.id} AND ended_at IS NULL`);
  await audit(actor, 'operator.disable', 'operator', String(operator.id), { disabled: operator.disabled_at !== null }, { disabled: true });
  return disabled ?? operator;
}

/**
 * A lost phone: a new TOTP secret, the recovery codes void, sessions ended, and a new set-up link (which sets
 * the password again too: whoever has the link must also prove the new authenticator).
 */
export async function resetTwoFactor(email: string, actor: Actor): Promise<Enrolment> {
  const operator = await operatorByEmail(email);
  if (!operator) throw notFound('ops.operatorUnknown');
  const db = await getDb();
  const { secret, sealed } = newSealedSecret();
  const [updated] = await selectRows<OperatorRow>(
    db,
    sql`UPDATE operators SET totp_secret = ${sealed}, totp_confirmed_at = NULL, totp_last_step = 0, recovery_codes = '{}'
        WHERE id = ${operator.id} RETURNING *`,
  );
  await db.execute(sql`UPDATE operator_sessions SET ended_at = now() WHERE operator_id = ${operator.id} AND ended_at IS NULL`);
  await audit(actor, 'operator.reset2fa', 'operator', String(operator.id), { totpConfirmed: operator.totp_confirmed_at !== null }, { totpConfirmed: false });
  return { operator: updated ?? operator, setupUrl: await issueSetupLink(operator.id), otpauth: otpauthUri(ISSUER, operator.email, secret) };
}

/** The operator a set-up link belongs to, while it works; null otherwise. */
export async function setupTarget(token: string): Promise<{ operator: OperatorRow; secret: string; otpauth: string } | null> {
  const db = await getDb();
  const [operator] = await selectRows<OperatorRow>(
    db,
    sql`SELECT o.* FROM operator_setup_tokens t JOIN operators o ON o.id = t.operator_id
        WHERE t.token_hash = ${tokenHash(token)} AND t.used_at IS NULL AND t.expires_at > now() AND o.disabled_at IS NULL`,
  );
  const secret = operator ? totpSecretOf(operator) : null;
  return operator && secret ? { operator, secret, otpauth: otpauthUri(ISSUER, operator.email, secret) } : null;
}

const recoveryCode = () => {
  const raw = randomBytes(8).toString('hex').slice(0, 10);
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
};
const recoveryHash = (code: string) => tokenHash(code.replace(/[\s-]/g, '').toLowerCase());

/**
 * A set-up link used: the password set, the authenticator confirmed by its first code, recovery codes made.
 * Returns the recovery codes, shown once and never kept in the clear.
 */
export async function completeSetup(input: { token: string; password: string; code: string }, ip: string): Promise<string[]> {
  const target = await setupTarget(input.token);
  if (!target) throw new HttpError(410, 'ops.setupExpired');
  if (isBreachedPassword(input.password)) throw new HttpError(422, 'error.validation', { password: ['validation.passwordBreached'] });
  const step = verifyTotp(target.secret, input.code, 0);
  if (step === null) throw new HttpError(422, 'error.validation', { code: ['ops.codeWrong'] });
  const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
  const hash = await hashPassword(input.password);
  const db = await getDb();
  await db.transaction(async (tx) => {
    const used = await selectRows<{ operator_id: number }>(
      tx,
      sql`UPDATE operator_setup_tokens SET used_at = now() WHERE token_hash = ${tokenHash(input.token)} AND used_at IS NULL RETURNING operator_id`,
    );
    // Two tabs submitting the same link: the second finds it used.
    if (used.length === 0) throw new HttpError(410, 'ops.setupExpired');
    await tx.execute(
      sql`UPDATE operators SET password_hash = ${hash}, totp_confirmed_at = now(), totp_last_step = ${step},
            recovery_codes = ${sql.param(codes.map(recoveryHash))}::text[] WHERE id = ${target.operator.id}`,
    );
    await tx.execute(sql`UPDATE operator_sessions SET ended_at = now() WHERE operator_id = ${target.operator.id} AND ended_at IS NULL`);
  });
  await audit({ operatorId: target.operator.id, name: target.operator.email, ip }, 'operator.setup', 'operator', String(target.operator.id), null, {
    totpConfirmed: true,
  });
  return codes;
}

// Failures counted per address and per e-mail (DESIGN §4): a guessed password or code costs the same.
const loginLimits = (email: string, ip: string): Limit[] => [
  { key: `ops-login-ip:${ip}`, max: 20, windowSeconds: 15 * 60 },
  { key: `ops-login:${email.trim().toLowerCase()}`, max: 5, windowSeconds: 15 * 60 },
];

export interface IssuedOpsSession {
  token: string;
  csrf: string;
  operator: OperatorRow;
}

/**
 * Sign-in: the password and a code from the authenticator (each code once) or an unused recovery code.
 * Any failure — unknown e-mail, wrong password, wrong or replayed code, a disabled or unconfirmed operator —
 * gives the same answer, after the same password work, and counts against the address and the e-mail.
 */
export async function opsLogin(input: { email: string; password: string; code: string }, ip: string): Promise<IssuedOpsSession> {
  const limits = loginLimits(input.email, ip);
  await refuseWhileBlocked(limits);
  const operator = await operatorByEmail(input.email);
  const passwordOk = await verifyPassword(input.password, operator?.password_hash ?? (await dummyPasswordHash()));
  const fail = async (): Promise<never> => {
    await countFailure(limits);
    throw new HttpError(401, 'ops.loginFailed');
  };
  if (!operator || !passwordOk || operator.disabled_at || !operator.totp_confirmed_at || !operator.password_hash) return fail();
  const db = await getDb();
  if (/^\d{6}$/.test(input.code)) {
    const secret = totpSecretOf(operator);
    const step = secret === null ? null : verifyTotp(secret, input.code, operator.totp_last_step);
    // The step is kept only if no other sign-in used it meanwhile: a code works once, across processes.
    const kept =
      step !== null &&
      (await selectRows(db, sql`UPDATE operators SET totp_last_step = ${step} WHERE id = ${operator.id} AND totp_last_step < ${step} RETURNING id`)).length ===
        1;
    if (!kept) return fail();
  } else {
    const hash = recoveryHash(input.code);
    const used = await selectRows(
      db,
      sql`UPDATE operators SET recovery_codes = array_remove(recovery_codes, ${hash}) WHERE id = ${operator.id} AND ${hash} = ANY(recovery_codes) RETURNING id`,
    );
    if (used.length === 0) return fail();
    await audit({ operatorId: operator.id, name: operator.email, ip }, 'operator.recoveryCodeUsed', 'operator', String(operator.id), null, null);
  }
  const token = newToken();
  const csrf = newToken();
  await db.execute(sql`INSERT INTO operator_sessions (token_hash, operator_id, csrf, ip) VALUES (${tokenHash(token)}, ${operator.id}, ${csrf}, ${ip})`);
  // Sessions that ended over a day ago go.
  await db.execute(
    sql`DELETE FROM operator_sessions WHERE operator_id = ${operator.id}
          AND (ended_at < now() - interval '1 day' OR created_at < now() - make_interval(secs => ${OPS_SESSION_ABSOLUTE_SECONDS + 86_400}))`,
  );
  await audit({ operatorId: operator.id, name: operator.email, ip }, 'operator.login', 'operator', String(operator.id), null, null);
  return { token, csrf, operator };
}

export interface OpsSession {
  operator: Pick<OperatorRow, 'id' | 'email' | 'role'>;
  csrf: string;
  tokenHash: string;
}

/** The session a cookie names, while it lives (12 h from sign-in, 30 min idle); its idle clock restarts. */
export async function opsSession(token: string | undefined | null): Promise<OpsSession | null> {
  if (!token || token.length > 100) return null;
  const db = await getDb();
  const hash = tokenHash(token);
  const [row] = await selectRows<{ id: number; email: string; role: OperatorRole; csrf: string }>(
    db,
    sql`UPDATE operator_sessions s SET last_seen_at = now() FROM operators o
        WHERE s.token_hash = ${hash} AND o.id = s.operator_id AND s.ended_at IS NULL AND o.disabled_at IS NULL
          AND s.created_at > now() - make_interval(secs => ${OPS_SESSION_ABSOLUTE_SECONDS})
          AND s.last_seen_at > now() - make_interval(secs => ${OPS_SESSION_IDLE_SECONDS})
        RETURNING o.id, o.email, o.role, s.csrf`,
  );
  return row ? { operator: { id: row.id, email: row.email, role: row.role }, csrf: row.csrf, tokenHash: hash } : null;
}

export async function opsLogout(session: OpsSession, ip: string): Promise<void> {
  const db = await getDb();
  await db.execute(sql`UPDATE operator_sessions SET ended_at = now() WHERE token_hash = ${session.tokenHash}`);
  await audit({ operatorId: session.operator.id, name: session.operator.email, ip }, 'operator.logout', 'operator', String(session.operator.id), null, null);
}

/** The session cookie: HttpOnly, SameSite=Strict, on /ops only, Secure when the shop is served over https. */
export function opsSessionCookie(token: string | null): string {
  const secure = env().SITE_URL.startsWith('https:') ? '; Secure' : '';
  return token
    ? `${OPS_SESSION_COOKIE}=${token}; Path=/ops; HttpOnly; SameSite=Strict; Max-Age=${OPS_SESSION_ABSOLUTE_SECONDS}${secure}`
    : `${OPS_SESSION_COOKIE}=; Path=/ops; HttpOnly; SameSite=Strict; Max-Age=0${secure}`;
}

// ---------------------------------------------------------------- the console's forms

/** The CSRF cookie of the sign-in and set-up forms, before there is a session (a double-submitted token). */
export const OPS_FORM_COOKIE = 'ops_form';

/** A new token for the sign-in or set-up form about to be shown, set as its cookie too. */
export function issueFormToken(cookies: AstroCookies, url: URL): string {
  const token = newToken();
  cookies.set(OPS_FORM_COOKIE, token, { path: '/ops', httpOnly: true, sameSite: 'strict', secure: url.protocol === 'https:' });
  return token;
}

export interface PostedForm {
  fields: Record<string, string>;
  /** Files, when the page takes them: by field name. */
  files: Record<string, File>;
}

/**
 * A posted form's fields, or why not: 'large' past `maxBytes`; 'bad' when it is not a form, holds a file the
 * page does not take, a field twice, or control characters (NUL and the like). Either is refused whole.
 */
async function readForm(request: Request, maxBytes: number, takesFiles: boolean, separators = false): Promise<PostedForm | 'bad' | 'large'> {
  const form = await readFormData(request, maxBytes);
  if (typeof form === 'string') return form;
  const posted: PostedForm = { fields: {}, files: {} };
  for (const [name, value] of form) {
    if (name in posted.fields || name in posted.files || hasControlCharacters(name)) return 'bad';
    if (typeof value === 'string') {
      // A packing scanner types ASCII 29 between a marking code's fields (issue 39): that one is taken where asked.
      if (hasControlCharacters(separators ? value.replaceAll('\u001d', '') : value)) return 'bad';
      posted.fields[name] = value;
    } else if (takesFiles) posted.files[name] = value;
    else return 'bad';
  }
  return posted;
}

/**
 * A console page's session: the page's answer instead when there is none — to the sign-in page for a page
 * shown, 403 for a change asked (a POST without a session is no one's) — or when the operator's role does
 * not reach the page's (403, nothing shown).
 */
export async function consoleSession(page: { cookies: AstroCookies; request: Request }, needed: OperatorRole = 'manager'): Promise<OpsSession | Response> {
  const session = await opsSession(page.cookies.get(OPS_SESSION_COOKIE)?.value);
  const headers = { 'cache-control': 'private, no-store' };
  if (!session)
    return page.request.method === 'GET' || page.request.method === 'HEAD'
      ? new Response(null, { status: 303, headers: { ...headers, location: '/ops/login' } })
      : new Response(null, { status: 403, headers });
  if (!roleAllows(session.operator.role, needed)) return new Response(null, { status: 403, headers });
  return session;
}

/** How a form is read: its largest size, whether it carries files, whether ASCII 29 (a scanner's GS) is taken. */
export interface FormOptions {
  maxBytes?: number;
  files?: boolean;
  separators?: boolean;
  /** Given the posted fields when the action is refused, so the page can show what was typed (a new promotion's form). */
  keep?: (fields: Record<string, string>) => void;
}

/**
 * A posted form of the console, checked: its fields when it reads and carries the expected token (the
 * session's, or the form cookie's before sign-in); otherwise the 403 and the message to show instead.
 */
export async function checkedForm(
  request: Request,
  expectedToken: string | undefined,
  options: FormOptions = {},
): Promise<PostedForm | { status: 403 | 413; message: 'ops.csrf' | 'ops.badForm' | 'ops.tooLarge' }> {
  const form = await readForm(request, options.maxBytes ?? FORM_MAX_BYTES, options.files ?? false, options.separators ?? false);
  if (form === 'large') return { status: 413, message: 'ops.tooLarge' };
  if (form === 'bad') return { status: 403, message: 'ops.badForm' };
  const given = form.fields['_csrf'];
  if (!expectedToken || !given || !sameSecret(expectedToken, given)) return { status: 403, message: 'ops.csrf' };
  return form;
}

/** The parts of a page's Astro context a posted action reads and sets. */
interface PageContext {
  request: Request;
  clientAddress: string;
  response: { status?: number };
  locals: { locale: Locale };
}

/**
 * A console page's posted action, whole: the form checked against the session's token, read by the page's
 * schema, carried out as the signed-in operator. Answers the page's 303 to `run`'s address, or the message
 * to show (the response's status set to the refusal's); '' when the request is not a POST. `label`
 * translates the values a refused move names, such as statuses.
 */
export async function consolePost<S extends z.ZodType>(
  page: PageContext,
  session: OpsSession,
  schema: S,
  run: (data: z.output<S>, actor: Actor, files: Record<string, File>) => Promise<string>,
  label: (value: string) => string = (value) => value,
  options: FormOptions = {},
): Promise<Response | string> {
  if (page.request.method !== 'POST') return '';
  const locale = page.locals.locale;
  const refuse = (status: number, message: string) => {
    page.response.status = status;
    return message;
  };
  const checked = await checkedForm(page.request, session.csrf, options);
  if (!('fields' in checked)) return refuse(checked.status, t(locale, checked.message));
  const parsed = schema.safeParse(checked.fields);
  if (!parsed.success) options.keep?.(checked.fields);
  if (!parsed.success) return refuse(422, Object.values(fieldErrors(parsed.error, locale)).flat()[0] ?? t(locale, 'error.validation'));
  try {
    const to = await run(parsed.data, { operatorId: session.operator.id, name: session.operator.email, ip: page.clientAddress }, checked.files);
    return new Response(null, { status: 303, headers: { location: to, 'cache-control': 'private, no-store' } });
  } catch (caught) {
    if (!(caught instanceof HttpError)) throw caught;
    options.keep?.(checked.fields);
    const params = Object.fromEntries(Object.entries(caught.params ?? {}).map(([k, v]) => [k, typeof v === 'string' ? label(v) : v]));
    return refuse(caught.status, t(locale, caught.messageKey, params));
  }
}

/** A console address's numeric id (a buyout request's, a customer's, a product's), or null when it is not one. */
export const pathId = (text: string | undefined): number | null => (text && /^\d{1,9}$/.test(text) ? Number(text) : null);

/** Housekeeping: operators' sessions and setup links that ended (or could no longer be used) over a day ago. */
export async function deleteEndedOperatorSessions(): Promise<number> {
  const db = await getDb();
  const sessionsGone = await selectRows(
    db,
    sql`DELETE FROM operator_sessions WHERE ended_at < now() - interval '1 day'
          OR created_at < now() - make_interval(secs => ${OPS_SESSION_ABSOLUTE_SECONDS + 86_400})
          OR last_seen_at < now() - make_interval(secs => ${OPS_SESSION_IDLE_SECONDS + 86_400}) RETURNING token_hash`,
  );
  const linksGone = await selectRows(
    db,
    sql`DELETE FROM operator_setup_tokens WHERE used_at < now() - interval '1 day' OR expires_at < now() - interval '1 day' RETURNING token_hash`,
  );
  return sessionsGone.length + linksGone.length;
}
