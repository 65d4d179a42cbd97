// The buyout request (spec §3, §5): one schema for the form and the endpoint.
import { z } from '~/lib/zod.ts';
import type { MessageKey } from '~/lib/i18n/index.ts';

export const MESSENGERS = ['telegram', 'whatsApp', 'viber'] as const;
export type Messenger = (typeof MESSENGERS)[number];
export const MESSENGER_LABELS: Record<Messenger, string> = { telegram: 'Telegram', whatsApp: 'WhatsApp', viber: 'Viber' };

// The contact helpers live in lib/contact.ts; re-exported for the buyout form and its tests.
export { PHONE_PLACEHOLDER, maskPhone, isCompletePhone, russianMobile, letterCount } from '~/lib/contact.ts';
import { mobilePhoneField, personNameField } from '~/lib/contact.schema.ts';

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
  name: personNameField(),
  // A Russian mobile as the mask writes it; anything else is refused, never cut to fit the mask.
  phone: mobilePhoneField(),
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

// ---------------------------------------------------------------- the console's inbox (issue 24)

export const BUYOUT_STATUSES = ['new', 'in_progress', 'offer_sent', 'bought', 'declined'] as const;
export type BuyoutStatus = (typeof BUYOUT_STATUSES)[number];

/** Where a request may go from each status: forward, back to work when the offer did not suit, or declined. */
export const BUYOUT_MOVES: Record<BuyoutStatus, readonly BuyoutStatus[]> = {
  new: ['in_progress', 'declined'],
  in_progress: ['offer_sent', 'declined'],
  offer_sent: ['bought', 'in_progress', 'declined'],
  bought: [],
  declined: [],
};

/**
 * The link that opens a chat with this phone in the chosen messenger: Telegram and WhatsApp by their
 * phone-number links, Viber by its app scheme. Null when the phone has no digits to dial.
 */
export function messengerLink(messenger: string, phone: string): string | null {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 10) return null;
  if (messenger === 'whatsApp') return `https://wa.me/${digits}`;
  if (messenger === 'viber') return `viber://chat?number=%2B${digits}`;
  return `https://t.me/+${digits}`;
}

/** A link the visitor gave, when it is one a browser may open (http or https); otherwise null. */
export function safeProductLink(text: string): string | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
