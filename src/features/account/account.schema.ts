// The account's forms, shared by the dashboard's islands and the endpoints (spec §3, §5). Messages are
// i18n keys, answered in the caller's language.
import { z } from '~/lib/zod.ts';
import { emailField, mobilePhoneField, personNameField, postcodeField, textLine } from '~/lib/contact.schema.ts';
import { letterCount } from '~/lib/contact.ts';

/** A surname or patronymic: optional, but when given it is a name (two letters). */
const optionalName = z
  .string()
  .trim()
  .max(100, 'validation.tooLong')
  .default('')
  .refine((v) => v === '' || letterCount(v) >= 2, 'validation.nameMin');

/** spec §7 update-customer-basic-info (multipart): name, surname, patronymic, email, phone; an id is ignored. */
export const profileSchema = z.object({
  name: personNameField(),
  surname: optionalName,
  patronymic: optionalName,
  email: emailField(),
  phone: mobilePhoneField(),
});
export type ProfileInput = z.input<typeof profileSchema>;

/** A saved delivery address (dashboard-address). */
export const addressSchema = z.object({
  recipient: personNameField(),
  phone: mobilePhoneField(),
  city: textLine(100, true),
  street: textLine(200, true),
  house: textLine(20, true),
  apartment: textLine(20).default(''),
  postcode: postcodeField(),
  comment: textLine(500).default(''),
  is_default: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on'])])
    .transform((v) => v === true || v === 'true' || v === '1' || v === 'on')
    .default(false),
});
export type AddressInput = z.input<typeof addressSchema>;
export type AddressFields = z.output<typeof addressSchema>;

/** An address as the API answers it. */
export const savedAddressSchema = z.object({
  id: z.number().int(),
  recipient: z.string(),
  phone: z.string(),
  city: z.string(),
  street: z.string(),
  house: z.string(),
  apartment: z.string(),
  postcode: z.string(),
  comment: z.string(),
  is_default: z.boolean(),
});

export const LEDGER_KINDS = ['balance', 'bonus'] as const;

/** One movement of the balance or the bonus points (dashboard-balance). */
export const ledgerEntrySchema = z.object({
  id: z.number().int(),
  kind: z.enum(LEDGER_KINDS),
  amount: z.number().int(),
  reason: z.string(),
  reason_label: z.string(),
  order_code: z.string().nullable(),
  available_until: z.string().nullable(),
  created_at: z.string(),
});

export const ledgerQuerySchema = z.object({
  kind: z.enum(LEDGER_KINDS).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

// ---------------------------------------------------------------- personal data (152-ФЗ, issue 54)

/** Deleting the account: the password again, as at login (8–128 characters there; any wrong one is just wrong here). */
export const deleteAccountSchema = z.object({ password: z.string().min(1).max(128) });

/** The dashboard's marketing consent: on or off. A form sends "on"/"off", JSON a boolean. */
export const marketingSchema = z.object({
  subscribed: z.union([z.boolean(), z.enum(['on', 'off', 'true', 'false']).transform((v) => v === 'on' || v === 'true')]),
});

/** A mail footer's unsubscribe: the address and its signature (src/lib/unsubscribe.server.ts). */
export const unsubscribeSchema = z.object({
  email: z.string().trim().min(3).max(254),
  s: z.string().min(10).max(64),
  // RFC 8058's one-click POST from a mail program sends this field; it changes nothing.
  'List-Unsubscribe': z.string().max(20).optional(),
});

const looseRecord = z.record(z.string(), z.unknown());
export const personalDataSchema = z.object({
  generated_at: z.string(),
  policy_version: z.string(),
  profile: looseRecord.nullable(),
  addresses: z.array(looseRecord),
  orders: z.array(looseRecord),
  balance_history: z.array(looseRecord),
  bonus_history: z.array(looseRecord),
  wishlist: z.array(looseRecord),
  cart: z.array(looseRecord),
  buyout_requests: z.array(looseRecord),
  reviews: z.array(looseRecord),
  newsletter: z.array(looseRecord),
  partner: looseRecord.nullable(),
  consents: z.array(looseRecord),
});
