// The account forms' and answers' schemas (spec §3, §5, §7; DESIGN §4), shared by the modal's forms
// (loaded with them, not with the header) and the endpoints. Messages are i18n keys.
import { z } from '~/lib/zod.ts';
import { emailField, mobilePhoneField } from '~/lib/contact.schema.ts';
import { PASSWORD_MAX, PASSWORD_MIN, type AuthAnswer } from './auth.ts';

// Honeypot: people leave it empty; bots fill every field.
const honeypot = z.string().max(500).default('');

/** spec §5 login: both fields required; nothing else is checked, so the answer says nothing about the account. */
export const loginSchema = z.object({
  email: z.string().trim().min(1, 'validation.required').max(254, 'validation.email'),
  password: z.string().min(1, 'validation.required').max(1024, 'validation.passwordMax'),
  // spec §7: the guest's cart lines may travel with the login; the cart issue merges them.
  cart_items: z.array(z.unknown()).max(100).optional(),
});

/** A new password: length only (ASVS 5.0 6.2.1, 6.2.5: no composition rules, never truncated). */
export function newPasswordField() {
  return z
    .string()
    .min(1, { error: 'validation.required', abort: true })
    .min(PASSWORD_MIN, { error: 'validation.passwordMin', abort: true })
    .max(PASSWORD_MAX, 'validation.passwordMax');
}

/** spec §5 register: email required and valid, phone required (mask), password required. */
export const registerSchema = z.object({
  email: emailField(),
  phone: mobilePhoneField(),
  password: newPasswordField(),
  // A partner's referral code, when the visitor arrived through one (dashboard-partners).
  ref: z
    .string()
    .trim()
    .max(32)
    .regex(/^[a-z0-9]*$/i)
    .optional()
    .catch(undefined),
  website: honeypot,
});

export const forgotSchema = z.object({ email: emailField(), website: honeypot });

/** The reset form: the token from the e-mailed link and the new password twice. */
export const resetSchema = z
  .object({
    token: z.string().trim().min(1, 'validation.required').max(200, 'validation.invalid'),
    password: newPasswordField(),
    password_confirmation: z.string().min(1, 'validation.required').max(PASSWORD_MAX, 'validation.passwordMax'),
  })
  .refine((v) => v.password === v.password_confirmation, { path: ['password_confirmation'], message: 'validation.passwordsMatch' });

export type LoginInput = z.input<typeof loginSchema>;
export type RegisterInput = z.input<typeof registerSchema>;

// ---------------------------------------------------------------- what the server answers

/** spec §3: user / customer basic info; missing text fields default to ''. */
export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  phone: z.string().default(''),
  name: z.string().default(''),
  surname: z.string().default(''),
  patronymic: z.string().default(''),
});

/** spec §7 dashboard_content: kopecks, like every price the API sends; the until-date ISO or null. */
export const dashboardContentSchema = z.object({
  balance_amount: z.number().int(),
  bonus_amount: z.number().int(),
  bonus_available_until: z.string().nullable(),
});

/** spec §7: what login, refresh and registration answer. */
export const authAnswerSchema: z.ZodType<AuthAnswer> = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  user: userSchema,
  dashboard_content: dashboardContentSchema,
});
