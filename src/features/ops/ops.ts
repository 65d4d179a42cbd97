// The managers' console (issue 24, docs/decisions/019): roles, the sign-in and set-up forms' schemas.
// Messages are i18n keys.
import { z } from '~/lib/zod.ts';
import { emailField } from '~/lib/contact.schema.ts';
import { newPasswordField } from '~/features/auth/auth.schema.ts';
import { PASSWORD_MAX } from '~/features/auth/auth.ts';
import { hasControlCharacters } from '~/lib/http/text.ts';

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
