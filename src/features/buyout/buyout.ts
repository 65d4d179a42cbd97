// The buyout request (spec §3, §5): one schema for the form and the endpoint.
import { z } from 'zod';
import type { MessageKey } from '~/lib/i18n/index.ts';

export const MESSENGERS = ['telegram', 'whatsApp', 'viber'] as const;
export type Messenger = (typeof MESSENGERS)[number];
export const MESSENGER_LABELS: Record<Messenger, string> = { telegram: 'Telegram', whatsApp: 'WhatsApp', viber: 'Viber' };

export const PHONE_PLACEHOLDER = '+7 (000) 000-00-00';
const PHONE_RE = /^\+7 \(\d{3}\) \d{3}-\d{2}-\d{2}$/;

/** Applies the mask +7 (###) ###-##-## to whatever was typed or pasted (spec §5). */
export function maskPhone(input: string): string {
  let digits = input.replace(/\D/g, '');
  if (digits.length > 10 && (digits.startsWith('7') || digits.startsWith('8'))) digits = digits.slice(1);
  else if (input.trim().startsWith('+7') && digits.startsWith('7')) digits = digits.slice(1);
  digits = digits.slice(0, 10);
  if (digits.length === 0) return '';
  let out = `+7 (${digits.slice(0, 3)}`;
  if (digits.length >= 3) out += ')';
  if (digits.length > 3) out += ` ${digits.slice(3, 6)}`;
  if (digits.length > 6) out += `-${digits.slice(6, 8)}`;
  if (digits.length > 8) out += `-${digits.slice(8, 10)}`;
  return out;
}

export function isCompletePhone(value: string): boolean {
  return PHONE_RE.test(value);
}

/**
 * A Russian mobile number in the mask's form, or null: ten national digits starting with 9, written
 * with +7, 7 or 8 in front or without; another country code, too few or too many digits are refused.
 */
export function russianMobile(typed: string): string | null {
  const digits = typed.replace(/\D/g, '');
  const trimmed = typed.trim();
  let national: string;
  if (trimmed.startsWith('+')) {
    if (!digits.startsWith('7') || digits.length !== 11) return null;
    national = digits.slice(1);
  } else if (digits.length === 11 && (digits.startsWith('7') || digits.startsWith('8'))) national = digits.slice(1);
  else if (digits.length === 10) national = digits;
  else return null;
  return national.startsWith('9') ? maskPhone(national) : null;
}

/** Letters in any script; marks, digits, emoji and punctuation are not letters. */
export function letterCount(text: string): number {
  return text.match(/\p{L}/gu)?.length ?? 0;
}

// Messages are i18n keys: the endpoint answers them in the caller's language, the form in the page's.
export const BUYOUT_TEXT = {
  required: 'validation.required',
  nameMin: 'validation.nameMin',
  phone: 'validation.phone',
  mobile: 'validation.mobilePhone',
  agreement: 'validation.agreement',
  tooLong: 'validation.tooLong',
} as const satisfies Record<string, MessageKey>;

// Checkboxes arrive as booleans from JSON and as strings from a form post.
const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on'])]).transform((v) => v === true || v === 'true' || v === '1' || v === 'on');

export const buyoutSchema = z.object({
  // spec §5: two letters at least — emoji, digits and combining marks do not count as letters.
  name: z
    .string()
    .trim()
    .min(1, BUYOUT_TEXT.required)
    .max(100, BUYOUT_TEXT.tooLong)
    .refine((name) => letterCount(name) >= 2, BUYOUT_TEXT.nameMin),
  phone: z
    .string()
    .trim()
    .min(1, BUYOUT_TEXT.required)
    .max(40, BUYOUT_TEXT.phone)
    // A Russian mobile as the mask writes it; anything else is refused, never cut to fit the mask.
    .transform((typed, ctx) => {
      const phone = russianMobile(typed);
      // Too few digits is an unfinished number; enough digits of another kind is not a Russian mobile.
      if (phone === null) ctx.addIssue({ code: 'custom', message: typed.replace(/\D/g, '').length < 10 ? BUYOUT_TEXT.phone : BUYOUT_TEXT.mobile });
      return phone ?? typed;
    }),
  messenger: z.enum(MESSENGERS).default('telegram'),
  description: z.string().max(5000, BUYOUT_TEXT.tooLong).default(''),
  // Marked with an asterisk in the form but not enforced (spec §3).
  product_url: z.string().trim().max(2000, BUYOUT_TEXT.tooLong).default(''),
  // The submit button is disabled unless both are ticked (spec §5); the server holds the same line.
  agreementPersonal: flag.refine((v) => v, BUYOUT_TEXT.agreement),
  agreementPromo: flag.refine((v) => v, BUYOUT_TEXT.agreement),
  images: z
    .array(z.object({ url: z.url({ protocol: /^https?$/ }).max(2000) }))
    .max(10)
    .default([]),
  // Honeypot: people leave it empty; bots fill every field.
  website: z.string().max(500).default(''),
});

export type BuyoutInput = z.input<typeof buyoutSchema>;
export type BuyoutRequest = z.output<typeof buyoutSchema>;

export const BUYOUT_DEFAULTS = {
  name: '',
  phone: '',
  messenger: 'telegram',
  description: '',
  product_url: '',
  agreementPersonal: true,
  agreementPromo: true,
} as const satisfies Partial<BuyoutInput>;
