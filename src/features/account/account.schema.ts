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
