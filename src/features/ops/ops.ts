// The managers' console (issue 24, docs/decisions/019): roles, the sign-in and set-up forms' schemas.
// Messages are i18n keys.
import { z } from '~/lib/zod.ts';
import { emailField } from '~/lib/contact.schema.ts';
import { newPasswordField } from '~/features/auth/auth.schema.ts';
import { PASSWORD_MAX } from '~/features/auth/auth.ts';
import { hasControlCharacters } from '~/lib/http/text.ts';
import type { MessageKey } from '~/lib/i18n/index.ts';

export const OPERATOR_ROLES = ['manager', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Whether a role may do what `needed` may: an admin may do everything a manager may. */
export const roleAllows = (role: OperatorRole, needed: OperatorRole) => role === 'admin' || needed === 'manager';

/** A code from the authenticator app (6 digits, spaces allowed as apps show them) or a recovery code. */
const codeField = () =>
  z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(40, 'validation.invalid')
    .transform((code) => code.replace(/[\s-]/g, '').toLowerCase());

export const opsLoginSchema = z.object({
  email: z.string().trim().min(1, 'validation.required').max(254, 'validation.email'),
  password: z.string().min(1, 'validation.required').max(PASSWORD_MAX, 'validation.passwordMax'),
  code: codeField(),
});

export const opsSetupSchema = z
  .object({
    token: z.string().trim().min(1, 'validation.required').max(200, 'validation.invalid'),
    password: newPasswordField(),
    password_confirmation: z.string().min(1, 'validation.required').max(PASSWORD_MAX, 'validation.passwordMax'),
    code: codeField().pipe(z.string().regex(/^\d{6}$/, 'ops.codeDigits')),
  })
  .refine((v) => v.password === v.password_confirmation, { path: ['password_confirmation'], message: 'validation.passwordsMatch' });

export const operatorEmailSchema = emailField();
export const operatorRoleSchema = z.enum(OPERATOR_ROLES);

/** A console list's address with some of its query changed (a tab, the next page); the page cursor goes unless given. */
export function listLink(path: string, query: Record<string, unknown>, changes: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...query, after: undefined, ...changes })) if (value) params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * A list's search text from its address. One that does not fit (too long, control characters such as NUL,
 * which PostgreSQL's text refuses) is dropped, not refused: the list shows unsearched.
 */
export const listSearchField = () =>
  z
    .string()
    .trim()
    .max(100)
    .refine((text) => !hasControlCharacters(text))
    .optional()
    .catch(undefined);

/** A list's page cursor (the last row's id) from its address; one that does not parse is dropped: the first page. */
export const listCursorField = () => z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined);

/** A `LIKE` pattern that finds the text anywhere, lower-cased, with `\`, `%` and `_` taken literally. */
export const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Roubles as a manager types them ("12 500", "1 500,50"), in kopecks: at most `digits` whole digits and
 * two of kopecks, then within `min`…`max` kopecks; `message` for anything else.
 */
export const roublesField = (message: MessageKey, bounds: { digits: number; min: number; max: number }) =>
  z
    .string()
    .trim()
    .transform((text) => text.replace(/[\s\u00a0]/g, '').replace(',', '.'))
    .pipe(z.string().regex(new RegExp(`^\\d{1,${bounds.digits}}(\\.\\d{1,2})?$`), message))
    .transform((text) => Math.round(Number(text) * 100))
    .pipe(z.number().int().min(bounds.min, message).max(bounds.max, message));

/** The values of an audit line's side as "name: value, …" ('—' for none), as the console shows a change. */
export function describeValues(record: Record<string, unknown> | null): string {
  return record
    ? Object.entries(record)
        .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(', ')
    : '—';
}

const consoleFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * The console's dates, in the shop's time (Moscow): `moment` «26.11.2026, 05:10», `seconds` with seconds
 * (the audit log), `day` «26.11.2026», `long` «26 ноября 2026 г.» (the packing slip).
 */
export function consoleDate(locale: string, style: 'moment' | 'seconds' | 'day' | 'long'): Intl.DateTimeFormat {
  const key = `${locale}|${style}`;
  let format = consoleFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      moment: { dateStyle: 'short', timeStyle: 'short' } as const,
      seconds: { dateStyle: 'short', timeStyle: 'medium' } as const,
      day: { dateStyle: 'short' } as const,
      long: { dateStyle: 'long' } as const,
    }[style];
    format = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'ru-RU', { ...options, timeZone: 'Europe/Moscow' });
    consoleFormats.set(key, format);
  }
  return format;
}
