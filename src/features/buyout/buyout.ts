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

// Messages are i18n keys: the endpoint answers them in the caller's language, the form in the page's.
export const BUYOUT_TEXT = {
  required: 'validation.required',
  nameMin: 'validation.nameMin',
  phone: 'validation.phone',
  agreement: 'validation.agreement',
  tooLong: 'validation.tooLong',
} as const satisfies Record<string, MessageKey>;

// Checkboxes arrive as booleans from JSON and as strings from a form post.
const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on'])]).transform((v) => v === true || v === 'true' || v === '1' || v === 'on');

export const buyoutSchema = z.object({
  name: z.string({ error: BUYOUT_TEXT.required }).trim().min(1, BUYOUT_TEXT.required).min(2, BUYOUT_TEXT.nameMin).max(100, BUYOUT_TEXT.tooLong),
  phone: z
    .string({ error: BUYOUT_TEXT.required })
    .trim()
    .min(1, BUYOUT_TEXT.required)
    .max(40, BUYOUT_TEXT.phone)
    .transform(maskPhone)
    .refine(isCompletePhone, BUYOUT_TEXT.phone),
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
