// The footer's newsletter form (spec §2, §5): email required and valid. No zod here, so the footer
// island stays small; the endpoint's schema is in newsletter.schema.ts and a test keeps the two agreeing.
import type { MessageKey } from '~/lib/i18n/index.ts';

// i18n keys: the endpoint answers them in the caller's language, the form in the page's.
export const NEWSLETTER_TEXT = { required: 'validation.required', invalid: 'validation.email' } as const satisfies Record<string, MessageKey>;

// Relative: the build's config loads this file through Node (src/features/layout/layout.labels.ts).
import { EMAIL_SHAPE } from '../../lib/contact.ts';

/** The browser's check; the server applies newsletterSchema. Answers a message key. */
export function validateEmail(value: string): (typeof NEWSLETTER_TEXT)[keyof typeof NEWSLETTER_TEXT] | null {
  const v = value.trim();
  if (!v) return NEWSLETTER_TEXT.required;
  if (v.length > 254 || !EMAIL_SHAPE.test(v)) return NEWSLETTER_TEXT.invalid;
  return null;
}
