import { z } from 'zod';
import { EMAIL_SHAPE, NEWSLETTER_TEXT } from './newsletter.ts';

export const newsletterSchema = z.object({
  // Internationalised addresses (тест@пример.рф) are addresses too.
  email: z
    .string()
    .trim()
    // One message per address: the first check that fails ends the list.
    .min(1, { error: NEWSLETTER_TEXT.required, abort: true })
    .max(254, { error: NEWSLETTER_TEXT.invalid, abort: true })
    .regex(EMAIL_SHAPE, { error: NEWSLETTER_TEXT.invalid, abort: true })
    .pipe(z.email({ pattern: z.regexes.unicodeEmail, error: NEWSLETTER_TEXT.invalid })),
  website: z.string().max(500).default(''),
});
